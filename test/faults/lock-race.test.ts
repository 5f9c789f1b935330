/**
 * One owner per run, whatever the races: four processes take a run's lock at the same moment, with
 * relevo's built code (test/helpers/lock-racer.mjs), on a lock its holder left when it died (the
 * `<run>/lock` file relevo wrote before, and a record of the `<run>/lock/` directory) and on one a live
 * process holds. Each time exactly one of them owns the run (none while the holder lives), the others
 * name it, and the owner's record stays the highest while it holds the run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLock } from '../../src/app/store/locks.js';
import { tempDir } from '../helpers/cli.js';

const TRIES = 100;
const RACERS = 4;
const RACER = fileURLToPath(new URL('../helpers/lock-racer.mjs', import.meta.url));
/** A pid no process has (the reproduction wrote this one). */
const DEAD_PID = 999_999;

type Answer = { type: 'ready' } | { type: 'owner' } | { type: 'lost'; message: string } | { type: 'released'; broken: string | null };

/** The next message of `child` whose type is one of `wanted`. */
function next(child: ChildProcess, ...wanted: Answer['type'][]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Answer) => {
      if (!wanted.includes(m.type)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m);
    };
    const onExit = (code: number | null) => reject(new Error(`racer ${child.pid} exited (${code}) waiting for ${wanted.join(' or ')}`));
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

let racers: ChildProcess[] = [];
let holder: ChildProcess;

beforeAll(async () => {
  const spawned = Array.from({ length: RACERS + 1 }, () => fork(RACER, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  await Promise.all(spawned.map((c) => next(c, 'ready')));
  [holder, ...racers] = spawned as [ChildProcess, ...ChildProcess[]];
});
afterAll(() => {
  for (const c of [holder, ...racers]) c?.kill();
});

/** The four take run `dir` at one moment; what each of them answered, by pid. */
async function race(dir: string, who: readonly ChildProcess[] = racers) {
  const answers = who.map((c) => next(c, 'owner', 'lost'));
  const at = Date.now() + 15;
  for (const c of who) c.send({ type: 'race', dir, at });
  return (await Promise.all(answers)).map((a, i) => ({ pid: who[i]!.pid!, child: who[i]!, ...a }));
}

/** Lets `owner` go of the run; what it saw while it held it (null: its record was the highest throughout). */
async function release(owner: ChildProcess): Promise<string | null> {
  const done = next(owner, 'released');
  owner.send({ type: 'release' });
  const answer = await done;
  return answer.type === 'released' ? answer.broken : `an answer ${answer.type}`;
}

const inUse = (dir: string, pid: number) => `run ${dir.split('/').at(-1)} is in use by relevo-tui (pid ${pid})`;

/** A run directory whose lock names a process that is gone: as relevo wrote it before, or a record of today's directory. */
const stale = {
  'a lock file of a dead process ({"pid":999999})': (dir: string) => writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: DEAD_PID })),
  'a lock record of a dead process': (dir: string) => {
    mkdirSync(join(dir, 'lock'));
    writeFileSync(join(dir, 'lock', '3.json'), JSON.stringify({ pid: DEAD_PID, start: '1', since: new Date().toISOString() }));
  },
};

describe('four processes take one run at the same moment', () => {
  it.each(Object.entries(stale))(
    `on %s, ${TRIES} times: exactly one owns it, the others name it`,
    async (_, leave) => {
      const root = tempDir('relevo-lock-race-');
      const failures: string[] = [];
      for (let t = 0; t < TRIES; t++) {
        const dir = join(root, `run-${t}`);
        mkdirSync(dir);
        leave(dir);
        const answers = await race(dir);
        const owners = answers.filter((a) => a.type === 'owner');
        if (owners.length !== 1) failures.push(`try ${t}: ${owners.length} owners (${answers.map((a) => a.type).join(' ')})`);
        for (const owner of owners) {
          if (readLock(dir)?.pid !== owner.pid)
            failures.push(`try ${t}: the lock names ${JSON.stringify(readLock(dir))}, not owner ${owner.pid}`);
          for (const lost of answers.filter((a) => a.type === 'lost')) {
            if (owners.length === 1 && lost.message !== inUse(dir, owner.pid)) failures.push(`try ${t}: a loser said ${lost.message}`);
          }
        }
        for (const owner of owners) {
          const broken = await release(owner.child);
          if (broken !== null) failures.push(`try ${t}: owner ${owner.pid} held the run while the lock named ${broken}`);
        }
        if (failures.length >= 5) break;
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it(`on a run a live process holds, ${TRIES} times: none owns it, each names the holder`, async () => {
    const root = tempDir('relevo-lock-live-');
    const failures: string[] = [];
    for (let t = 0; t < TRIES; t++) {
      const dir = join(root, `run-${t}`);
      mkdirSync(dir);
      const [held] = await race(dir, [holder]);
      expect(held?.type).toBe('owner');
      const answers = await race(dir);
      for (const a of answers) {
        if (a.type === 'owner') failures.push(`try ${t}: ${a.pid} took the run from its live holder ${holder.pid}`);
        else if (a.type === 'lost' && a.message !== inUse(dir, holder.pid!)) failures.push(`try ${t}: a loser said ${a.message}`);
      }
      for (const owner of answers.filter((a) => a.type === 'owner')) await release(owner.child);
      const broken = await release(holder);
      if (broken !== null) failures.push(`try ${t}: the holder held the run while the lock named ${broken}`);
      expect(readLock(dir)).toMatchObject({ pid: holder.pid, released: true });
      if (failures.length >= 5) break;
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
