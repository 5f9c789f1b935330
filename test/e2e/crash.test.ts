import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/app/store/checkpoints.js';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { BIN, onlyRunJournal, recorded, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { runProcesses } from '../helpers/procs.js';
import { until } from '../helpers/until.js';

const GOAL = 'Add pagination to /users with tests';
const HEADER = /^\[relevo ronda (\d+) · de (planner|builder)\]$/m;
const ROLES: Role[] = ['planner', 'builder'];

/**
 * Where relevo SIGKILLs itself (`RELEVO_FAILPOINT=name:n`, the n-th time it passes the point) in a
 * three-round run: turn end detected, reply read, checkpoint written, offer written, message pasted,
 * Enter pressed, submit confirmed, ack written, delivery journaled. 25 points, each run of the demo
 * reaching every one of them at least n times.
 */
const FAILPOINTS = [
  'turn-end:1',
  'turn-end:3',
  'turn-end:6',
  'reply:2',
  'reply:5',
  'checkpoint:1',
  'checkpoint:2',
  'checkpoint:4',
  'checkpoint:6',
  'offer:1',
  'offer:3',
  'offer:5',
  'pasted:1',
  'pasted:2',
  'pasted:4',
  'pasted:7',
  'entered:3',
  'entered:6',
  'confirmed:2',
  'confirmed:5',
  'ack:1',
  'ack:4',
  'ack:6',
  'delivered:2',
  'delivered:6',
];
/** And from outside, at moments nobody chose: SIGKILL this many ms after the run journals its goal. */
const TIMED_KILLS_MS = [700, 2_600, 4_900];

type Received = { role: Role; round: number; from: Role };

/** The messages `role` received, from its simulators' `--record` file (the killed process's, then the resumed one's). */
function received(cwd: string, role: Role): { text: string; role: Role }[] {
  return recorded(join(cwd, `${role}.record`)).map((text) => ({ text, role }));
}

const headerOf = (m: { text: string; role: Role }): Received | null => {
  const h = HEADER.exec(m.text);
  return h ? { role: m.role, round: Number(h[1]), from: h[2] as Role } : null;
};

function runDirOf(cwd: string): string {
  const runs = join(cwd, '.relevo', 'runs');
  return join(runs, readdirSync(runs)[0]!);
}

/** Checkpoints as they are on disk: `lane/seq` → acked, offered. */
function snapshot(cwd: string) {
  const dir = runDirOf(cwd);
  const runId = dir.split('/').at(-1)!;
  if (!ROLES.some((r) => existsSync(join(dir, r)))) return [];
  return new CheckpointStore(dir, runId)
    .readAll()
    .map((c) => ({ ...c.checkpoint, acked: c.acked, offered: c.offered, digestOk: c.digestOk }));
}

const args = (cwd: string) => [
  '--headless',
  '--goal',
  GOAL,
  '--planner',
  simCommand('planner', '--record', join(cwd, 'planner.record')),
  '--builder',
  simCommand('builder', '--record', join(cwd, 'builder.record')),
];

/** Resumes the killed run and checks that nothing was lost and nothing acknowledged was typed again. */
async function resumeAndCheck(cwd: string) {
  // The killed relevo's agents go away on their own (their terminal hung up); until then one may still
  // record the message typed right before the kill, which is not what the restarted agents received.
  const runId = runDirOf(cwd).split('/').at(-1)!;
  await until("the killed run's agents to exit", () => runProcesses(runId).length === 0);
  const before = snapshot(cwd);
  const receivedBefore = { planner: received(cwd, 'planner').length, builder: received(cwd, 'builder').length };
  const resumed = await relevo(['--headless', '--resume'], cwd);
  expect(resumed.stderr).toBe('');
  expect(resumed.exitCode).toBe(0);

  const { lines } = onlyRunJournal(join(cwd, '.relevo'));
  const of = <T extends JournalLine['type']>(type: T) => lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);
  expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
  expect(of('run_resumed')).toHaveLength(1);
  expect(of('done')).toHaveLength(1);

  // No round lost: each lane acknowledged rounds 1, 2, 3 — once each — and every body matches its sha256.
  const after = snapshot(cwd);
  expect(after.every((c) => c.digestOk)).toBe(true);
  for (const lane of ROLES) {
    expect(after.filter((c) => c.from === lane && c.acked).map((c) => c.round)).toEqual([1, 2, 3]);
  }
  // None delivered twice: one `delivered` line at most per handoff.
  const handoffs = of('delivered')
    .filter((d) => d.kind === 'handoff')
    .map((d) => `${d.from}/${d.round}`);
  expect(new Set(handoffs).size).toBe(handoffs.length);

  // What the restarted agents were typed: never a handoff acknowledged before the crash; an offered one, once.
  const typedAfter = ROLES.flatMap((role) => received(cwd, role).slice(receivedBefore[role]))
    .map(headerOf)
    .filter((h) => h !== null);
  for (const c of before.filter((c) => c.acked)) {
    expect(
      typedAfter.filter((h) => h.from === c.from && h.round === c.round),
      `${c.from}/${c.round} acked before the crash`,
    ).toEqual([]);
  }
  for (const c of before.filter((c) => !c.acked)) {
    expect(
      typedAfter.filter((h) => h.from === c.from && h.round === c.round),
      `${c.from}/${c.round} pending at the crash`,
    ).toHaveLength(1);
  }
  return { before, lines };
}

describe.concurrent('crash safety: SIGKILL anywhere, --resume, exactly once', () => {
  it.each(FAILPOINTS)('killed at %s, resumed: done, no round lost, none delivered twice', async (point) => {
    const cwd = tempDir('relevo-crash-');
    const killed = await relevo(args(cwd), cwd, { RELEVO_FAILPOINT: point });
    expect(killed.signal, `relevo was not killed at ${point}: ${killed.stderr}`).toBe('SIGKILL');
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(lines.some((l) => l.type === 'done')).toBe(false);
    await resumeAndCheck(cwd);
  });

  it.each(TIMED_KILLS_MS)('killed from outside %i ms after the start, resumed: done, exactly once', async (ms) => {
    const cwd = tempDir('relevo-crash-');
    const child = execa(process.execPath, [BIN, ...args(cwd)], { cwd, reject: false, stdin: 'ignore', env: { LANG: 'C.UTF-8' } });
    // From the moment the run has its goal (before it, there is no run to go on with).
    const runs = join(cwd, '.relevo', 'runs');
    const hasGoal = () =>
      existsSync(runs) &&
      readdirSync(runs).some(
        (id) =>
          existsSync(join(runs, id, 'events.jsonl')) && readFileSync(join(runs, id, 'events.jsonl'), 'utf8').includes('"type":"goal"'),
      );
    while (!hasGoal()) await sleep(20);
    await sleep(ms);
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    await resumeAndCheck(cwd);
  });
});
