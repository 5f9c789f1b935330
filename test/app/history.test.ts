import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cut, formatRunsTable, parseJournalText, summarizeRun } from '../../src/app/commands/run-summary.js';
import { CheckpointStore, sha256 } from '../../src/app/store/checkpoints.js';
import { formatHeader, type JournalEntry, journalLineSchema, type Role } from '../../src/protocol/index.js';
import { relevo, SELF, tempDir } from '../helpers/cli.js';

const agent = { command: ['sim'], profile: 'sim' };
const started = (id: string, max_rounds: number): JournalEntry => ({
  type: 'run_started',
  run_id: id,
  version: '0.1.0',
  nonce: 'n0nce',
  cwd: '/work/demo',
  max_rounds,
  lang: 'en',
  planner: agent,
  builder: agent,
});
const delivered = (round: number, from: Role, kind: 'handoff' | 'goal' = 'handoff'): JournalEntry => ({
  type: 'delivered',
  kind,
  round,
  from: kind === 'goal' ? 'relevo' : from,
  to: from === 'planner' ? 'builder' : 'planner',
  sha256: 'a'.repeat(64),
  chars: 10,
  attempts: 1,
});
/** Both sides of rounds `from`..`to`. */
const rounds = (from: number, to: number): JournalEntry[] =>
  Array.from({ length: to - from + 1 }, (_, i) => [delivered(from + i, 'planner'), delivered(from + i, 'builder')]).flat();

let tmp: string;
const env = { TZ: 'UTC' };

beforeEach(() => {
  tmp = tempDir('relevo-history-');
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes `<stateDir>/runs/<id>/events.jsonl`, each line checked against the journal schema; returns the run dir. */
function writeRun(stateDir: string, id: string, startIso: string, entries: readonly JournalEntry[], tail = ''): string {
  const dir = join(stateDir, 'runs', id);
  mkdirSync(dir, { recursive: true });
  const t0 = Date.parse(startIso);
  const lines = entries.map((entry, i) => journalLineSchema.parse({ seq: i + 1, ts: new Date(t0 + i * 1000).toISOString(), ...entry }));
  writeFileSync(join(dir, 'events.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join('') + tail);
  return dir;
}

const DEAD_PID = 99_999_999;

function fourRuns(stateDir: string): void {
  writeRun(stateDir, '20261101-090000-000', '2026-11-01T09:00:00.000Z', [
    started('20261101-090000-000', 10),
    { type: 'goal', text: 'Add pagination to /users with tests' },
    delivered(0, 'planner', 'goal'),
    ...rounds(1, 3),
    { type: 'done', summary: 'Pagination shipped.', rounds: 3 },
  ]);
  writeRun(stateDir, '20261102-100000-000', '2026-11-02T10:00:00.000Z', [
    started('20261102-100000-000', 2),
    { type: 'goal', text: 'Fix the flaky login test' },
    ...rounds(1, 2),
    { type: 'paused', reason: 'max_rounds' },
    { type: 'resumed', budget: 4 },
    ...rounds(3, 4),
    { type: 'paused', reason: 'max_rounds', pending_round: 5, pending_to: 'builder' },
  ]);
  const interrupted = writeRun(stateDir, '20261103-110000-000', '2026-11-03T11:30:00.000Z', [
    started('20261103-110000-000', 10),
    { type: 'goal', text: 'Refactor the authentication middleware so that sessions expire after an hour\nand log it' },
    ...rounds(1, 1),
    { type: 'paused', reason: 'user' },
    { type: 'run_resumed', version: '0.1.0', planner: agent, builder: agent },
    delivered(2, 'planner'),
  ]);
  writeFileSync(join(interrupted, 'lock'), JSON.stringify({ pid: DEAD_PID }));
  mkdirSync(join(stateDir, 'runs', '20261031-080000-000')); // no events.jsonl
}

describe('relevo-tui runs', () => {
  it('lists runs newest first, with rounds and state', async () => {
    fourRuns(tmp);
    const r = await relevo(['runs', '--state-dir', tmp], tmp, env);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        'ID                   STARTED           ROUNDS  STATE               GOAL',
        '20261103-110000-000  2026-11-03 11:30  2/10    interrupted         Refactor the authentication middleware …',
        '20261102-100000-000  2026-11-02 10:00  4/4     paused: max_rounds  Fix the flaky login test',
        '20261101-090000-000  2026-11-01 09:00  3/10    done                Add pagination to /users with tests',
        '20261031-080000-000  -                 -       unreadable          -',
      ].join('\n'),
    );
  });

  it('says running while the process in the lock is alive', async () => {
    const dir = writeRun(tmp, '20261104-080000-000', '2026-11-04T08:00:00.000Z', [started('20261104-080000-000', 5), ...rounds(1, 1)]);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: process.pid }));
    const r = await relevo(['runs', '--state-dir', tmp], tmp, env);
    expect(r.stdout.split('\n')[1]).toBe('20261104-080000-000  2026-11-04 08:00  1/5     running  -');
  });

  it('--json prints one array', async () => {
    fourRuns(tmp);
    const r = await relevo(['runs', '--json', '--state-dir', tmp], tmp, env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        id: '20261103-110000-000',
        started_at: '2026-11-03T11:30:00.000Z',
        goal: 'Refactor the authentication middleware so that sessions expire after an hour\nand log it',
        rounds: 2,
        max_rounds: 10,
        state: 'interrupted',
      },
      {
        id: '20261102-100000-000',
        started_at: '2026-11-02T10:00:00.000Z',
        goal: 'Fix the flaky login test',
        rounds: 4,
        max_rounds: 4,
        state: 'paused',
        reason: 'max_rounds',
      },
      {
        id: '20261101-090000-000',
        started_at: '2026-11-01T09:00:00.000Z',
        goal: 'Add pagination to /users with tests',
        rounds: 3,
        max_rounds: 10,
        state: 'done',
      },
      {
        id: '20261031-080000-000',
        started_at: null,
        goal: null,
        rounds: 0,
        max_rounds: null,
        state: 'unreadable',
        reason: 'events.jsonl: ENOENT',
      },
    ]);
  });

  it('an empty state dir: says so on stderr, exits 0', async () => {
    const r = await relevo(['runs', '--state-dir', tmp], tmp, env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`no runs in ${tmp}`);
    const json = await relevo(['runs', '--json', '--state-dir', tmp], tmp, env);
    expect(json.stdout).toBe('[]');
  });

  it('ignores a torn last line left by a kill', async () => {
    writeRun(
      tmp,
      '20261106-070000-000',
      '2026-11-06T07:00:00.000Z',
      [started('20261106-070000-000', 10), ...rounds(1, 2), { type: 'paused', reason: 'agent_exited', role: 'builder' }],
      '{"seq":7,"ts":"2026-11-06T07:00:07.000Z","type":"don',
    );
    const r = await relevo(['runs', '--state-dir', tmp], tmp, env);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[1]).toBe('20261106-070000-000  2026-11-06 07:00  2/10    paused: agent_exited  -');
  });

  it('an unknown flag: exit 2, one line', async () => {
    const r = await relevo(['runs', '--bogus', '--state-dir', tmp], tmp, env);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('relevo-tui: runs: unknown option --bogus (usage: relevo-tui runs [--state-dir DIR] [--json])');
  });
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A run of two rounds: an edited (superseding) planner handoff, a builder report never acked whose body was tampered with. */
/** How `show` names the builder's round-2 checkpoint whose body was edited in place (its sha256 left as written). */
const TAMPERED = `builder/checkpoints/2/handoff.json changed: sha256 ${sha256('Round 2 report\nTests: 12 passed, honest').slice(0, 12)}…, handoff.json says ${sha256('Round 2 report\nTests: 12 passed').slice(0, 12)}…`;

async function showRun(stateDir: string): Promise<{ id: string; bodies: Record<string, string> }> {
  const id = '20261105-120000-000';
  const dir = writeRun(stateDir, id, '2026-11-05T12:00:00.000Z', [
    started(id, 10),
    { type: 'goal', text: 'Add pagination to /users with tests' },
    ...rounds(1, 2),
    { type: 'done', summary: 'Pagination shipped.\nAll 12 tests pass.', rounds: 2 },
  ]);
  const store = new CheckpointStore(dir, id);
  const bodies: Record<string, string> = {};
  const put = async (from: Role, seq: number, round: number, body: string, then: 'ack' | 'offer' | 'none', supersedes?: number) => {
    const to: Role = from === 'planner' ? 'builder' : 'planner';
    store.write(
      from,
      { kind: 'handoff', to, from, round, body, text: `${formatHeader(round, from)}\n${body}`, seq, via: 'inline' },
      null,
      supersedes,
    );
    if (then !== 'none') store.offer(from, seq);
    if (then === 'ack') expect(store.ack(from, seq, to, false).ok).toBe(true);
    bodies[`${from}/${seq}`] = body;
    await tick();
  };
  await put('planner', 1, 1, 'Step 1: write the failing tests\nDo: add test/users.test.ts', 'ack');
  await put('builder', 1, 1, 'Round 1 report\nTests: 3 failed (expected)', 'ack');
  await put('planner', 2, 2, 'Step 2: implement', 'none');
  await put('planner', 3, 2, 'Step 2: implement pagination (edited)', 'ack', 2);
  await put('builder', 2, 2, 'Round 2 report\nTests: 12 passed', 'offer');
  const json = join(store.dirOf('builder', 2), 'handoff.json');
  writeFileSync(json, readFileSync(json, 'utf8').replace('12 passed', '12 passed, honest'));
  bodies['builder/2'] = 'Round 2 report\nTests: 12 passed, honest';
  // an older run, so that `show` without RUN has to pick the latest
  writeRun(stateDir, '20261101-090000-000', '2026-11-01T09:00:00.000Z', [
    started('20261101-090000-000', 10),
    { type: 'goal', text: 'older' },
  ]);
  return { id, bodies };
}

describe('relevo-tui show', () => {
  it('prints every handoff in order, with its header, status and body, then the done summary', async () => {
    const { id } = await showRun(tmp);
    const r = await relevo(['show', '--state-dir', tmp], tmp, env);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      [
        `run ${id} · done · goal: Add pagination to /users with tests`,
        '',
        '── planner/checkpoints/1 · round 1 · planner → builder · acked',
        '[relevo ronda 1 · de planner]',
        'Step 1: write the failing tests',
        'Do: add test/users.test.ts',
        '',
        '── builder/checkpoints/1 · round 1 · builder → planner · acked',
        '[relevo ronda 1 · de builder]',
        'Round 1 report',
        'Tests: 3 failed (expected)',
        '',
        '── planner/checkpoints/2 · round 2 · planner → builder · pending',
        '[relevo ronda 2 · de planner]',
        'Step 2: implement',
        '',
        '── planner/checkpoints/3 · round 2 · planner → builder · acked · replaces 2',
        '[relevo ronda 2 · de planner]',
        'Step 2: implement pagination (edited)',
        '',
        `── builder/checkpoints/2 · round 2 · builder → planner · offered (not acked) · CHECKPOINT MISMATCH (${TAMPERED}): never typed`,
        '[relevo ronda 2 · de builder]',
        'Round 2 report',
        'Tests: 12 passed, honest',
        '',
        '<done>',
        'Pagination shipped.',
        'All 12 tests pass.',
        '</done>',
      ].join('\n'),
    );
    const older = await relevo(['show', '20261101-090000-000', '--state-dir', tmp], tmp, env);
    expect(older.stdout).toBe('run 20261101-090000-000 · interrupted · goal: older');
  });

  it('--json prints one object', async () => {
    const { id, bodies } = await showRun(tmp);
    const r = await relevo(['show', id, '--json', '--state-dir', tmp], tmp, env);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toHaveLength(1);
    const shown = JSON.parse(r.stdout) as { handoffs: { created_at: string }[] };
    const h = (lane: Role, seq: number, round: number, status: string, extra: object = {}) => ({
      lane,
      seq,
      round,
      from: lane,
      to: lane === 'planner' ? 'builder' : 'planner',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      sha256: sha256(lane === 'builder' && seq === 2 ? 'Round 2 report\nTests: 12 passed' : bodies[`${lane}/${seq}`]!),
      status,
      digest_ok: !(lane === 'builder' && seq === 2),
      ...(lane === 'builder' && seq === 2 ? { mismatch: TAMPERED } : {}),
      body: bodies[`${lane}/${seq}`],
      ...extra,
    });
    expect(shown).toEqual({
      id,
      state: 'done',
      goal: 'Add pagination to /users with tests',
      handoffs: [
        h('planner', 1, 1, 'acked'),
        h('builder', 1, 1, 'acked'),
        h('planner', 2, 2, 'pending'),
        h('planner', 3, 2, 'acked', { supersedes: 2 }),
        h('builder', 2, 2, 'offered'),
      ],
      done: 'Pagination shipped.\nAll 12 tests pass.',
    });
    const stamps = shown.handoffs.map((x) => x.created_at);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('a run that does not exist: exit 2, one line suggesting runs in the same state dir', async () => {
    await showRun(tmp);
    for (const run of ['20990101-000000-000', '../runs']) {
      const r = await relevo(['show', run, '--state-dir', tmp], tmp, env);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`relevo-tui: show: no run ${run} in ${tmp}/runs (see ${SELF} runs --state-dir ${tmp})`);
    }
    // A state dir with a space is quoted as a shell takes it; the default one is not named.
    const cwd = tempDir();
    mkdirSync(join(cwd, 'my runs', 'runs'), { recursive: true });
    mkdirSync(join(cwd, '.relevo', 'runs'), { recursive: true });
    const spaced = await relevo(['show', 'nosuchrun', '--state-dir', 'my runs'], cwd, env);
    expect(spaced.stderr).toBe(`relevo-tui: show: no run nosuchrun in my runs/runs (see ${SELF} runs --state-dir 'my runs')`);
    const plain = await relevo(['show', 'nosuchrun'], cwd, env);
    expect(plain.stderr).toBe(`relevo-tui: show: no run nosuchrun in .relevo/runs (see ${SELF} runs)`);
  });

  it('paused and unreadable runs, and an empty state dir', async () => {
    fourRuns(tmp);
    const paused = await relevo(['show', '20261102-100000-000', '--state-dir', tmp], tmp, env);
    expect(paused.stdout).toBe('run 20261102-100000-000 · paused: max_rounds · goal: Fix the flaky login test');
    const unreadable = await relevo(['show', '20261031-080000-000', '--json', '--state-dir', tmp], tmp, env);
    expect(JSON.parse(unreadable.stdout)).toEqual({
      id: '20261031-080000-000',
      state: 'unreadable',
      reason: 'events.jsonl: ENOENT',
      goal: null,
      handoffs: [],
      done: null,
    });
    const empty = tempDir('relevo-history-empty-');
    try {
      const r = await relevo(['show', '--state-dir', empty], tmp, env);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toBe(`relevo-tui: show: no runs in ${empty}/runs`);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('history helpers', () => {
  it('summarizeRun: done wins, a pause counts until resumed, else the lock decides', () => {
    const lines = parseJournalText(
      readFileSync(
        join(
          writeRun(tmp, 'x', '2026-01-01T00:00:00.000Z', [started('x', 3), ...rounds(1, 3), { type: 'paused', reason: 'step' }]),
          'events.jsonl',
        ),
        'utf8',
      ),
    );
    expect(summarizeRun('x', lines, true)).toEqual({
      id: 'x',
      started_at: '2026-01-01T00:00:00.000Z',
      goal: null,
      rounds: 3,
      max_rounds: 3,
      state: 'paused',
      reason: 'step',
    });
    expect(summarizeRun('x', lines.slice(0, -1), true).state).toBe('running');
    expect(summarizeRun('x', lines.slice(0, -1), false).state).toBe('interrupted');
    expect(summarizeRun('x', [], false)).toEqual({
      id: 'x',
      started_at: null,
      goal: null,
      rounds: 0,
      max_rounds: null,
      state: 'interrupted',
    });
  });

  it('summarizeRun: a run quit before its goal is no goal, not interrupted, and the table says so', () => {
    const lines = parseJournalText(
      readFileSync(join(writeRun(tmp, 'n', '2026-01-01T00:00:00.000Z', [started('n', 3), { type: 'no_goal' }]), 'events.jsonl'), 'utf8'),
    );
    const summary = summarizeRun('n', lines, false);
    expect(summary).toMatchObject({ state: 'no_goal', goal: null, rounds: 0 });
    expect(formatRunsTable([summary]).split('\n')[1]).toMatch(/^n +[\d-]+ [\d:]+ +0\/3 +no goal +-$/);
  });

  it('parseJournalText skips torn and invalid lines', () => {
    const dir = writeRun(tmp, 'y', '2026-01-01T00:00:00.000Z', [started('y', 3)]);
    appendFileSync(join(dir, 'events.jsonl'), '{"seq":2,"ts":"2026-01-01T00:00:01.000Z","type":"nope"}\n{"seq":3,"ts":"2026');
    expect(parseJournalText(readFileSync(join(dir, 'events.jsonl'), 'utf8')).map((l) => l.type)).toEqual(['run_started']);
  });

  it('cut keeps the first line within the width', () => {
    expect(cut('short', 40)).toBe('short');
    expect(cut('x'.repeat(40), 40)).toBe('x'.repeat(40));
    expect(cut('x'.repeat(41), 40)).toBe(`${'x'.repeat(39)}…`);
    expect(cut('first\nsecond', 40)).toBe('first');
  });

  it('formatRunsTable aligns columns and trims the end of each row', () => {
    const table = formatRunsTable([{ id: 'a', started_at: null, goal: null, rounds: 1, max_rounds: 10, state: 'paused', reason: 'user' }]);
    expect(table).toBe('ID  STARTED  ROUNDS  STATE         GOAL\na   -        1/10    paused: user  -\n');
  });
});
