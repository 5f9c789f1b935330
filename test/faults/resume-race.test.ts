/**
 * Four `relevo-tui --headless --resume` at once, as `--resume --all` or a person with two terminals
 * may start them: on a run whose relevo was SIGKILLed (its lock names a dead process, as a record of
 * `<run>/lock/` or as the `<run>/lock` file relevo wrote before) exactly one resumes it to done, the
 * others exit 2 naming it; on a run a live relevo holds, all four exit 2. Each try runs the real CLI:
 * RELEVO_RACE_TRIES sets how many (each kind).
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { lockHolder, readLock } from '../../src/app/store/locks.js';
import { ROLES, type Role } from '../../src/protocol/index.js';
import { BIN, onlyRunJournal, recorded, recordedSims, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { runProcesses, theRun } from '../helpers/procs.js';
import { until } from '../helpers/until.js';

const TRIES = Number(process.env.RELEVO_RACE_TRIES ?? 2);
const RACERS = 4;
const GOAL = 'Add pagination to /users with tests';
const HEADER = /^\[relevo ronda (\d+) · de (planner|builder)\]$/m;
const DEAD_PID = 999_999;

/** Four resumes of the only run in `cwd`, started together: how each ended, with its pid. */
async function resumeFour(cwd: string, flags: readonly string[] = []) {
  const started = Array.from({ length: RACERS }, () => relevo(['--headless', '--resume', ...flags], cwd));
  return (await Promise.all(started)).map((result, i) => ({ ...result, pid: started[i]!.pid! }));
}

/** The round headers among messages an agent was typed, as `from/round`. */
const typed = (messages: readonly string[]) =>
  messages.flatMap((text) => {
    const h = HEADER.exec(text);
    return h ? [`${h[2]}/${h[1]}`] : [];
  });

/** One line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  return stderr.trim();
}

describe('four --resume of one run at once', () => {
  it(
    `a run whose relevo died (${TRIES} tries, its lock record and the old lock file in turn): one resumes it to done, each handoff typed once; the others exit 2 naming it`,
    async () => {
      // One run SIGKILLed right after its fourth offer (that handoff is pending, not typed), copied for each try.
      const template = recordedSims(GOAL, 'relevo-resume-race-');
      const killed = await relevo(template.args(), template.cwd, { RELEVO_FAILPOINT: 'offer:4' });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const { runId } = onlyRunJournal(join(template.cwd, '.relevo'));
      await until("the killed run's agents to exit", () => runProcesses(runId).length === 0);

      for (let t = 0; t < TRIES; t++) {
        const cwd = tempDir('relevo-resume-race-');
        cpSync(template.cwd, cwd, { recursive: true });
        const records = tempDir('relevo-resume-race-records-');
        const record = (role: Role) => join(records, `${role}.record`);
        for (const role of ROLES) cpSync(join(template.records, `${role}.record`), record(role));
        const dir = join(cwd, '.relevo', 'runs', runId);
        if (t % 2 === 1) {
          rmSync(join(dir, 'lock'), { recursive: true });
          writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: DEAD_PID }));
        }
        const dead = readLock(dir)?.pid;
        expect(dead).toBeDefined();
        expect(lockHolder(dir)).toBeNull();

        const resumes = resumeFour(cwd, [
          '--planner',
          simCommand('planner', '--record', record('planner')),
          '--builder',
          simCommand('builder', '--record', record('builder')),
        ]);
        // While they run, the lock names the dead process, then the one that resumed it, and no other.
        const named = new Set<number>();
        let running = true;
        const watching = (async () => {
          while (running) {
            const pid = readLock(dir)?.pid;
            if (pid !== undefined) named.add(pid);
            await new Promise((r) => setTimeout(r, 5));
          }
        })();
        const results = await resumes;
        running = false;
        await watching;

        const stderr = results.map((r) => r.stderr).join('\n');
        expect(results.map((r) => r.exitCode).sort(), `try ${t}: ${stderr}`).toEqual([0, 2, 2, 2]);
        const winner = results.find((r) => r.exitCode === 0)!;
        expect(winner.stderr).toBe('');
        for (const loser of results.filter((r) => r !== winner)) {
          expect(loser.stdout).toBe('');
          expect(oneLine(loser.stderr)).toBe(`relevo-tui: --resume: run ${runId} is in use by relevo-tui (pid ${winner.pid})`);
        }
        // One journal, seqs unique and increasing; resumed once, done once.
        const { lines } = onlyRunJournal(join(cwd, '.relevo'));
        expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
        expect(lines.filter((l) => l.type === 'run_resumed')).toHaveLength(1);
        expect(lines.filter((l) => l.type === 'done')).toHaveLength(1);
        // Each handoff typed once into the simulated agents, before the kill or after the resume.
        expect(typed(recorded(record('builder'))).sort()).toEqual(['planner/1', 'planner/2', 'planner/3']);
        expect(typed(recorded(record('planner'))).sort()).toEqual(['builder/1', 'builder/2', 'builder/3']);
        expect([...named].filter((pid) => pid !== dead)).toEqual([winner.pid]);
        expect(readLock(dir)).toMatchObject({ pid: winner.pid, released: true });
      }
    },
    60_000 + 30_000 * TRIES,
  );

  it(
    `a run a live relevo holds (${TRIES} tries): all four exit 2 naming it, and it goes on`,
    async () => {
      for (let t = 0; t < TRIES; t++) {
        const cwd = tempDir('relevo-resume-live-');
        // A planner that thinks long: the run is still on its first turn when the four try.
        const args = [
          '--headless',
          '--goal',
          GOAL,
          '--planner',
          simCommand('planner', '--think-ms', '60000'),
          '--builder',
          simCommand('builder'),
        ];
        const holder = execa(process.execPath, [BIN, ...args], {
          cwd,
          reject: false,
          stdin: 'ignore',
          env: { LANG: 'C.UTF-8' },
        });
        await until('the run to get its goal', () => theRun(cwd)?.journal.includes('"type":"goal"') ?? false);
        const dir = join(cwd, '.relevo', 'runs', theRun(cwd)!.id);
        expect(readLock(dir)?.pid).toBe(holder.pid);

        const results = await resumeFour(cwd);
        for (const r of results) {
          expect(r.exitCode).toBe(2);
          expect(r.stdout).toBe('');
          expect(oneLine(r.stderr)).toBe(`relevo-tui: --resume: run ${theRun(cwd)!.id} is in use by relevo-tui (pid ${holder.pid})`);
        }
        expect(readLock(dir)).toMatchObject({ pid: holder.pid });
        expect(readLock(dir)?.released).toBeUndefined();
        expect(theRun(cwd)!.journal).not.toContain('"type":"run_resumed"');
        holder.kill('SIGTERM');
        expect((await holder).exitCode).toBe(3);
        expect(readLock(dir)).toMatchObject({ pid: holder.pid, released: true });
      }
    },
    60_000 + 10_000 * TRIES,
  );
});
