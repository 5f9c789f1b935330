import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runHistory } from '../../src/app/commands/runs.js';
import { parseOptions } from '../../src/app/config/options.js';
import { StateUnwritable } from '../../src/app/faults/fault.js';
import { setFsFaults } from '../../src/app/faults/fsfault.js';
import { createRun, resumeRun } from '../../src/app/run/setup.js';
import { Journal } from '../../src/app/store/journal.js';
import { lockHolder, readLock } from '../../src/app/store/locks.js';
import { tempDir } from '../helpers/cli.js';

afterEach(() => {
  vi.restoreAllMocks();
  setFsFaults('');
});

const started = {
  type: 'run_started',
  run_id: 'r1',
  version: '0.1.0',
  nonce: 'n',
  cwd: '/w',
  max_rounds: 3,
  lang: 'en',
  planner: { command: ['p'], profile: 'sim' },
  builder: { command: ['b'], profile: 'sim' },
} as const;

describe('whether a run is in use', () => {
  it('a lock whose process cannot be signalled (EPERM: another user) is alive, for --resume and for runs alike', async () => {
    const stateDir = tempDir('relevo-eperm-');
    const dir = join(stateDir, 'runs', '20260101-000000-000');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.jsonl'), `${JSON.stringify({ seq: 1, ts: new Date().toISOString(), ...started })}\n`);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: 424242, since: new Date().toISOString() }));
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' });
    });
    expect(lockHolder(dir)).toBe(424242);
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await runHistory(['runs', '--state-dir', stateDir, '--json'], {}, { stdout, stderr: new PassThrough() })).toBe(0);
    expect(JSON.parse(out)).toMatchObject([{ id: '20260101-000000-000', state: 'running' }]);
  });

  it('a lock whose process is gone (ESRCH) is dead in both places', async () => {
    const dir = tempDir('relevo-esrch-');
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: 424242 }));
    vi.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH', syscall: 'kill' });
    });
    expect(lockHolder(dir)).toBeNull();
  });

  it('one reading of the lock: a malformed agents list never hides a live holder (its run is not taken over)', () => {
    const dir = tempDir('relevo-lock-');
    // A live process that is not this one (this one holds only the records it wrote itself).
    const live = process.ppid;
    writeFileSync(
      join(dir, 'lock'),
      JSON.stringify({ pid: live, since: new Date().toISOString(), agents: [{ role: 'planner', pid: 'x' }] }),
    );
    expect(lockHolder(dir)).toBe(live);
    expect(readLock(dir)).toMatchObject({ pid: live, agents: undefined });
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: live, agents: [{ role: 'builder', pid: 7, pgid: 7, sid: 7, start: '123' }] }));
    expect(readLock(dir)?.agents).toEqual([{ role: 'builder', pid: 7, pgid: 7, sid: 7, start: '123' }]);
  });
});

describe('Journal: a failed append', () => {
  it('throws StateUnwritable and leaves the file and the seq as they were', () => {
    const dir = tempDir('relevo-journal-');
    const journal = new Journal(dir);
    journal.append({ type: 'goal', text: 'one' });
    setFsFaults('journal:ENOSPC:2');
    journal.append({ type: 'goal', text: 'two' });
    const before = readFileSync(journal.path, 'utf8');
    expect(() => journal.append({ type: 'goal', text: 'lost' })).toThrow(StateUnwritable);
    expect(readFileSync(journal.path, 'utf8')).toBe(before);
    expect(journal.append({ type: 'goal', text: 'three' }).seq).toBe(3);
    journal.close();
  });
});

describe('a start that fails after the run is locked', () => {
  it('leaves the run unlocked: --resume of it is not refused as in use', async () => {
    const stateDir = tempDir('relevo-failed-start-');
    const options = parseOptions(['--headless', '--demo', '--state-dir', stateDir], process.env);
    const size = { cols: 80, rows: 24 };
    await expect(
      createRun(options, '0.1.0', process.env, size, () => {
        throw new Error('the first line could not be shown');
      }),
    ).rejects.toThrow('the first line could not be shown');
    const runs = readdirSync(join(stateDir, 'runs'));
    expect(runs).toHaveLength(1);
    const resume = parseOptions(['--headless', '--resume', runs[0]!, '--state-dir', stateDir], process.env);
    const refused = resumeRun(resume, runs[0]!, '0.1.0', process.env, size);
    await expect(refused).rejects.toThrow(/never got its goal/);
    expect(lockHolder(join(stateDir, 'runs', runs[0]!))).toBeNull();
    expect(readLock(join(stateDir, 'runs', runs[0]!))).toMatchObject({ pid: process.pid, released: true });
  });
});
