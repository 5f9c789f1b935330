// The run's lock (src/app/store/locks.ts): numbered records in `<run>/lock/`, the highest naming the
// holder; the `<run>/lock` file relevo wrote before is still read, and converted once its process is gone.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setFsFaults } from '../../src/app/faults/fsfault.js';
import { lockHolder, lockRun, readLock } from '../../src/app/store/locks.js';
import { procStat } from '../../src/pty/procs.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => setFsFaults(''));

const records = (dir: string) => readdirSync(join(dir, 'lock')).sort();
const record = (dir: string, n: number) => JSON.parse(readFileSync(join(dir, 'lock', `${n}.json`), 'utf8')) as Record<string, unknown>;
/** A live process that is not this one, as a record names it. */
const other = () => ({ pid: process.ppid, start: procStat(process.ppid)?.start ?? null });

describe('the run lock', () => {
  it('is taken as record 1 (pid, start time, since); letting go adds a released record 2 and deletes 1; the next take is 3', () => {
    const dir = tempDir('relevo-lock-');
    const unlock = lockRun(dir);
    expect(records(dir)).toEqual(['1.json']);
    expect(record(dir, 1)).toMatchObject({ pid: process.pid, start: procStat(process.pid)?.start, since: expect.any(String) });
    expect(lockHolder(dir)).toBe(process.pid);
    unlock();
    expect(records(dir)).toEqual(['2.json']);
    expect(readLock(dir)).toMatchObject({ pid: process.pid, released: true });
    expect(lockHolder(dir)).toBeNull();
    unlock();
    expect(records(dir)).toEqual(['2.json']);
    const again = lockRun(dir);
    expect(records(dir)).toEqual(['3.json']);
    again();
  });

  it('held by this process, is refused to it a second time, however the directory is named', () => {
    const dir = tempDir('relevo-lock-');
    const unlock = lockRun(relative(process.cwd(), dir));
    expect(lockHolder(dir)).toBe(process.pid);
    expect(() => lockRun(dir)).toThrow(`run ${dir.split('/').at(-1)} is in use by relevo-tui (pid ${process.pid})`);
    unlock();
    expect(lockHolder(dir)).toBeNull();
  });

  it('held by a live process, is refused naming it, and left as it was', () => {
    const dir = tempDir('relevo-lock-');
    mkdirSync(join(dir, 'lock'));
    writeFileSync(join(dir, 'lock', '4.json'), JSON.stringify(other()));
    expect(() => lockRun(dir)).toThrow(`is in use by relevo-tui (pid ${process.ppid})`);
    expect(records(dir)).toEqual(['4.json']);
  });

  it.each([
    ['a process that is gone', { pid: 999_999 }],
    ['a later process given the same pid (another start time)', { pid: process.ppid, start: '1' }],
    ['this pid, in a record this process did not write (a container that reused it)', { pid: process.pid }],
    ['a released record', { ...other(), released: true }],
    ['an unreadable record', 'not json'],
  ])('held by %s, is taken over with the next number', (_, held) => {
    const dir = tempDir('relevo-lock-');
    mkdirSync(join(dir, 'lock'));
    writeFileSync(join(dir, 'lock', '4.json'), typeof held === 'string' ? held : JSON.stringify(held));
    expect(lockHolder(dir)).toBeNull();
    const unlock = lockRun(dir);
    expect(records(dir)).toEqual(['5.json']);
    expect(lockHolder(dir)).toBe(process.pid);
    unlock();
  });

  it('a lock file relevo wrote before: its live holder keeps the run; a dead one is replaced by the directory', () => {
    const dir = tempDir('relevo-lock-');
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: process.ppid }));
    expect(lockHolder(dir)).toBe(process.ppid);
    expect(() => lockRun(dir)).toThrow(`is in use by relevo-tui (pid ${process.ppid})`);
    expect(statSync(join(dir, 'lock')).isFile()).toBe(true);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: 999_999 }));
    expect(readLock(dir)).toMatchObject({ pid: 999_999 });
    expect(lockHolder(dir)).toBeNull();
    const unlock = lockRun(dir);
    expect(statSync(join(dir, 'lock')).isDirectory()).toBe(true);
    expect(records(dir)).toEqual(['1.json']);
    unlock();
  });

  it('taken over from this process while it held the run (judged gone): letting go leaves the new holder alone', () => {
    const dir = tempDir('relevo-lock-');
    const unlock = lockRun(dir);
    writeFileSync(join(dir, 'lock', '2.json'), JSON.stringify(other()));
    unlock();
    expect(records(dir)).toEqual(['1.json', '2.json']);
    expect(lockHolder(dir)).toBe(process.ppid);
  });

  it('deletes the records below its own and the temp files of processes that are gone, never those of live ones', () => {
    const dir = tempDir('relevo-lock-');
    mkdirSync(join(dir, 'lock'));
    for (const name of ['1.json', '2.json', '.999999.abcd.tmp', `.${process.ppid}.abcd.tmp`]) writeFileSync(join(dir, 'lock', name), '{}');
    writeFileSync(join(dir, 'lock', '3.json'), JSON.stringify({ pid: 999_999 }));
    const unlock = lockRun(dir);
    expect(records(dir)).toEqual([`.${process.ppid}.abcd.tmp`, '4.json']);
    unlock();
  });

  it('RELEVO_FSFAULT lock: the write fails as the disk would, and nothing is left', () => {
    const dir = tempDir('relevo-lock-');
    setFsFaults('lock:EROFS:1');
    expect(() => lockRun(dir)).toThrow(/^EROFS: read-only file system, open /);
    expect(existsSync(join(dir, 'lock')) ? records(dir) : []).toEqual([]);
  });
});
