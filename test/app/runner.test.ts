import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelayRunner, RunnerOptions } from '../../src/app/run/runner.js';
import { Journal, readJournal } from '../../src/app/store/journal.js';
import { formatHeader, goalMessage, type JournalLine, ROLES, type Role } from '../../src/protocol/index.js';
import { tempDir } from '../helpers/cli.js';
import { FakePane, lineAgent, lineAgentProfile } from '../helpers/fake-pane.js';
import { bothOn, startRunner } from '../helpers/runner.js';
import { until } from '../helpers/until.js';

const GOAL = 'Add pagination to /users';
const RUN_PATH = '.relevo/runs/r1';
/** A body with what typing must keep exactly: indentation, unicode, blank lines, a trailing space inside a line. */
const PLAN = 'Step 1: build GET /users?page=N\n\n  - 20 per page → «next» link\n  - tests for page 0 and past the end';
const REPORT = 'Built it: src/users.ts, 4 tests pass';
const handoff = (body: string) => `Here is the plan.\n<handoff>\n${body}\n</handoff>`;

type Fixture = { runner: RelayRunner; panes: Record<Role, FakePane>; journal: Journal; runDir: string; lines(): JournalLine[] };
const open: Fixture[] = [];

/** A runner over two line agents in fake panes (no pseudo-terminal); `answers` say what each agent replies to what it is sent. */
async function relay(answers: Record<Role, (sent: string) => string>, extra: Partial<RunnerOptions> = {}): Promise<Fixture> {
  const cwd = tempDir('relevo-runner-');
  const runDir = join(cwd, RUN_PATH);
  mkdirSync(runDir, { recursive: true });
  const journal = new Journal(runDir);
  const panes = { planner: lineAgent(new FakePane(), answers.planner), builder: lineAgent(new FakePane(), answers.builder) };
  const runner = await startRunner({
    runId: 'r1',
    version: '0.1.0',
    cwd,
    agents: bothOn(['line-agent'], lineAgentProfile()),
    journal,
    runDir,
    runPath: RUN_PATH,
    panes: { attached: false, open: async () => panes },
    ...extra,
  });
  const fixture = { runner, panes, journal, runDir, lines: () => readJournal(journal.path) };
  open.push(fixture);
  return fixture;
}

afterEach(async () => {
  for (const f of open.splice(0)) {
    await f.runner.stop();
    f.journal.close();
  }
});

const types = (lines: readonly JournalLine[]) => lines.map((l) => l.type);
const planned = (reply: (sent: string) => string) => ({ planner: reply, builder: () => handoff(REPORT) });

describe('RelayRunner with fake panes', () => {
  it("delivers the goal to the planner, relays its handoff to the builder header first with the body byte-exact, and the builder's back", async () => {
    let turns = 0;
    const f = await relay(planned(() => (++turns === 1 ? handoff(PLAN) : 'All done.\n<done>pagination shipped</done>')));
    f.runner.start(GOAL);
    const final = await f.runner.settled();
    expect(final).toMatchObject({ phase: 'done', summary: 'pagination shipped' });
    expect(f.panes.planner.pastes).toEqual([goalMessage(GOAL, 'en', null), `${formatHeader(1, 'builder')}\n${REPORT}`]);
    expect(f.panes.builder.pastes).toEqual([`${formatHeader(1, 'planner')}\n${PLAN}`]);
    const delivered = f.lines().flatMap((l) => (l.type === 'delivered' ? [l] : []));
    expect(delivered.map((d) => [d.kind, d.from, d.to, d.round, d.via, d.checkpoint_seq])).toEqual([
      ['goal', 'relevo', 'planner', 0, undefined, undefined],
      ['handoff', 'planner', 'builder', 1, 'inline', 1],
      ['handoff', 'builder', 'planner', 1, 'inline', 1],
    ]);
  });

  it('checkpoints and offers a handoff before it is typed, and acknowledges it only after', async () => {
    const f = await relay(planned(() => handoff(PLAN)));
    const dir = join(f.runDir, 'planner', 'checkpoints', '1');
    const onDisk: string[] = [];
    const program = f.panes.builder.program;
    f.panes.builder.program = (input, pane) => {
      // What is on disk the moment the handoff reaches the builder's input box.
      if ('paste' in input) onDisk.push(...['HANDOFF.md', 'offer.json', 'ack.json'].filter((file) => existsSync(join(dir, file))));
      program(input, pane);
    };
    f.runner.start(GOAL);
    await until('the builder is sent round 1', () => f.lines().some((l) => l.type === 'delivered' && l.to === 'builder'));
    expect(onDisk).toEqual(['HANDOFF.md', 'offer.json']);
    expect(existsSync(join(dir, 'ack.json'))).toBe(true);
    expect(readFileSync(join(dir, 'HANDOFF.md'), 'utf8')).toContain(PLAN);
    // After the goal's delivery: the planner's handoff is checkpointed, offered, then delivered.
    const lines = f.lines();
    const afterGoal = lines.slice(lines.findIndex((l) => l.type === 'delivered') + 1);
    expect(types(afterGoal).filter((t) => ['checkpoint', 'offered', 'delivered'].includes(t))).toEqual([
      'checkpoint',
      'offered',
      'delivered',
    ]);
  });

  it('a long handoff goes as its HANDOFF.md: the builder is typed the header and the path, never the body', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `line ${i + 1}`).join('\n');
    const f = await relay(planned(() => handoff(long)));
    f.runner.start(GOAL);
    await until('the builder is sent round 1', () => f.panes.builder.pastes.length === 1);
    const [typed] = f.panes.builder.pastes;
    expect(typed!.split('\n')[0]).toBe(formatHeader(1, 'planner'));
    expect(typed).toContain(`${RUN_PATH}/planner/checkpoints/1/HANDOFF.md`);
    expect(typed).not.toContain('line 42');
    expect(readFileSync(join(f.runDir, 'planner/checkpoints/1/HANDOFF.md'), 'utf8')).toContain(long);
  });

  it('types nothing twice: each message once, each Enter pressed once', async () => {
    let turns = 0;
    let reports = 0;
    const f = await relay({
      planner: () => (++turns < 3 ? handoff(`step ${turns}`) : '<done>ok</done>'),
      builder: () => handoff(`report ${++reports}`),
    });
    f.runner.start(GOAL);
    expect((await f.runner.settled()).phase).toBe('done');
    for (const role of ROLES) {
      const pastes = f.panes[role].pastes;
      expect(new Set(pastes).size).toBe(pastes.length);
      expect(f.panes[role].inputs.filter((i) => 'keys' in i)).toHaveLength(pastes.length);
    }
    expect(f.panes.planner.pastes).toHaveLength(3);
    expect(f.panes.builder.pastes).toHaveLength(2);
    const delivered = f.lines().flatMap((l) => (l.type === 'delivered' ? [`${l.kind}:${l.to}:${l.round}`] : []));
    expect(new Set(delivered).size).toBe(delivered.length);
  });

  it('an agent that dies mid-turn pauses the relay with agent_exited and its role; the handoff it was sent stays delivered once', async () => {
    const f = await relay({ planner: () => handoff(PLAN), builder: () => handoff(REPORT) });
    f.panes.builder.program = (input, pane) => {
      if ('keys' in input && input.keys === '\r') void pane.draw('\r\x1b[K» working').then(() => pane.exit(137));
      else if ('paste' in input) void pane.draw(`\r\x1b[K> ${input.paste.split('\n')[0]}`);
    };
    f.runner.start(GOAL);
    const final = await f.runner.settled();
    expect(final).toMatchObject({ phase: 'paused', pause: { reason: 'agent_exited', role: 'builder' } });
    const lines = f.lines();
    expect(lines.find((l) => l.type === 'agent_exited')).toMatchObject({ role: 'builder', exit_code: 137 });
    expect(lines.filter((l) => l.type === 'paused')).toMatchObject([{ reason: 'agent_exited', role: 'builder' }]);
    expect(f.panes.builder.pastes).toHaveLength(1);
  });

  it('an agent gone before the goal: the goal is not typed, the relay pauses with agent_exited, and the goal stays pending', async () => {
    const f = await relay(planned(() => handoff(PLAN)));
    f.panes.planner.exit(1);
    f.runner.start(GOAL);
    const final = await f.runner.settled();
    expect(final).toMatchObject({
      phase: 'paused',
      pause: { reason: 'agent_exited', role: 'planner', detail: 'the goal waits until it runs again' },
      pending: { kind: 'goal', to: 'planner' },
      delivering: false,
    });
    expect(f.lines().filter((l) => l.type === 'paused')).toMatchObject([{ reason: 'agent_exited', role: 'planner', pending_round: 0 }]);
    expect(f.panes.planner.pastes).toEqual([]);
  });

  it('a next goal after done, to an agent that exited since: the goal waits for it, as in a first run', async () => {
    let turns = 0;
    const f = await relay(planned(() => (++turns === 1 ? handoff(PLAN) : '<done>shipped</done>')));
    f.runner.start(GOAL);
    expect((await f.runner.settled()).phase).toBe('done');
    f.panes.planner.exit(1);
    await until('the exit journaled', () => f.lines().some((l) => l.type === 'agent_exited'));
    const runDir = join(f.runDir, '..', 'r2');
    mkdirSync(runDir);
    f.runner.follow({ runId: 'r2', runDir, runPath: '.relevo/runs/r2' }, { planner: f.panes.planner, builder: f.panes.builder });
    expect(f.runner.state.exited).toEqual({ planner: true, builder: false });
    f.runner.start('Next goal');
    expect(f.runner.state).toMatchObject({
      phase: 'paused',
      pause: { reason: 'agent_exited', role: 'planner' },
      pending: { kind: 'goal' },
    });
    expect(f.panes.planner.pastes.filter((p) => p.includes('Next goal'))).toEqual([]);
  });
});
