/**
 * `RelayRunner.restartAgent`: an agent that died is started again in a real pseudo-terminal with the
 * same command and launch flags, put where the relay and the views look, and the relay goes on.
 * The agents are the built simulator (run `npm run build` first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { self } from '../../src/app/config/self.js';
import { createRunDir, Journal } from '../../src/app/store/journal.js';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { restartExited } from '../../src/tui/actions/restart.js';
import { tempDir } from '../helpers/cli.js';
import { FakePane, lineAgent, lineAgentProfile } from '../helpers/fake-pane.js';
import { bothOn, startRunner } from '../helpers/runner.js';
import { simRelay } from '../helpers/sim-relay.js';
import { undoAfterEach } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

const undo = undoAfterEach();

const GOAL = 'Add pagination to /users';

const simRun = () => simRelay(undo, 'relevo-restart-', { planner: ['150'], builder: ['1500'] });

describe('restarting an exited agent', () => {
  it('starts a builder killed mid-turn again with the same command, tells it where its handoff is, and the relay reaches done with each round delivered once', async () => {
    const { runner, lines, received } = await simRun();
    const first = runner.agents.builder;
    const panes: Role[] = [];
    runner.onAgentRestarted((role) => panes.push(role));
    runner.start(GOAL);
    await until('round 1 delivered to the builder', () => lines.some((l) => l.type === 'delivered' && l.to === 'builder'));
    const oldPid = first.pane.pid!;
    const cmdline = (pid: number) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .filter((a) => a !== '');
    const command = cmdline(oldPid);
    expect(command).toContain('--append-system-prompt');
    process.kill(-oldPid, 'SIGKILL');
    const paused = await runner.settled();
    expect(paused).toMatchObject({ phase: 'paused', pause: { reason: 'agent_exited', role: 'builder' }, turn: 'builder' });

    const restart = await runner.restartAgent('builder');
    expect(restart.ok).toBe(true);
    const newPid = restart.ok ? restart.pid : undefined;
    expect(newPid).toBeGreaterThan(0);
    expect(newPid).not.toBe(oldPid);
    // The same command and launch flags (the role prompt's flag among them).
    expect(cmdline(newPid!)).toEqual(command);
    // One record: the new agent is where the relay and the views look, and they were told.
    expect(runner.agents.builder).not.toBe(first);
    expect(runner.agents.builder.pane.pid).toBe(newPid);
    expect(panes).toEqual(['builder']);
    // A second restart of a running agent does nothing.
    expect(await runner.restartAgent('builder')).toEqual({ ok: false, why: 'running' });

    await until('the run done', () => runner.state.phase === 'done', 60_000);
    expect(lines.find((l) => l.type === 'agent_exited')).toMatchObject({ role: 'builder' });
    expect(lines.filter((l) => l.type === 'agent_restarted')).toMatchObject([{ role: 'builder', pid: newPid }]);
    const delivered = lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind}:${l.from}>${l.to}:${l.round}`] : []));
    expect(delivered).toEqual([
      'goal:relevo>planner:0',
      'handoff:planner>builder:1',
      'notice:relevo>builder:1',
      'handoff:builder>planner:1',
      'handoff:planner>builder:2',
      'handoff:builder>planner:2',
      'handoff:planner>builder:3',
      'handoff:builder>planner:3',
    ]);
    // The builder's processes were typed round 1 once: the new one was told where it is.
    const toBuilder = received('builder');
    expect(toBuilder.filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    expect(toBuilder[1]).toContain(`relevo restarted you (your process had exited) while you were working on round 1 from the planner.`);
    expect(toBuilder[1]).toContain(`${runner.config.runPath}/planner/checkpoints/1/HANDOFF.md`);
  }, 90_000);

  it('with both agents killed, C-] r starts both again (the one whose exit paused the relay last) and the relay reaches done', async () => {
    const { runner, lines, received } = await simRun();
    runner.start(GOAL);
    await until('round 1 delivered to the builder', () => lines.some((l) => l.type === 'delivered' && l.to === 'builder'));
    const pids = { planner: runner.agents.planner.pane.pid!, builder: runner.agents.builder.pane.pid! };
    process.kill(-pids.builder, 'SIGKILL');
    await until('the builder exited', () => runner.state.pause?.role === 'builder');
    process.kill(-pids.planner, 'SIGKILL');
    await until('the planner exited', () => runner.state.pause?.role === 'planner');
    const toasts: string[] = [];
    await restartExited(runner, (text) => toasts.push(text), 'C-]');
    expect(toasts.map((t) => t.split(':')[0])).toEqual(['restarting the builder', 'restarting the planner']);
    await until('the run done', () => runner.state.phase === 'done', 60_000);
    expect(lines.filter((l) => l.type === 'agent_restarted').map((l) => l.type === 'agent_restarted' && l.role)).toEqual([
      'builder',
      'planner',
    ]);
    for (const role of ['planner', 'builder'] as const) expect(runner.agents[role].pane.pid).not.toBe(pids[role]);
    // The builder was told where round 1 is; the new planner got the goal with the first report it was sent.
    expect(received('builder').filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    const toPlanner = received('planner');
    expect(toPlanner).toHaveLength(4);
    expect(toPlanner[1]).toMatch(
      /^relevo was restarted; this run's goal, for context:\nGoal: Add pagination to \/users\n\n\[relevo ronda 1 · de builder\]/,
    );
    expect(new Set(lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind}:${l.to}:${l.round}`] : []))).size).toBe(
      lines.filter((l) => l.type === 'delivered').length,
    );
  }, 90_000);

  it('cannot start an agent in a pane it does not own (tmux): the relay stays paused and one toast says what to do', async () => {
    /** A pane of a tmux session relevo mirrors (it did not start the agent there). */
    const tmuxPane = () => Object.defineProperties(new FakePane(), { where: { value: 'tmux %4' }, owned: { value: false } });
    const cwd = tempDir('relevo-restart-');
    const { runId, dir } = createRunDir(join(cwd, '.relevo'));
    const journal = new Journal(dir);
    const lines: JournalLine[] = [];
    journal.onAppend((l) => lines.push(l));
    const panes = {
      planner: lineAgent(tmuxPane(), () => 'plan\n<handoff>\nstep 1\n</handoff>'),
      builder: lineAgent(tmuxPane(), () => ''),
    };
    const runner = await startRunner({
      runId,
      cwd,
      runDir: dir,
      runPath: `.relevo/runs/${runId}`,
      agents: bothOn(['line-agent'], lineAgentProfile()),
      journal,
      panes: { attached: true, open: async () => panes },
    });
    undo.add(async () => {
      await runner.stop();
      journal.close();
    });
    runner.start(GOAL);
    await until('round 1 delivered to the builder', () => lines.some((l) => l.type === 'delivered' && l.to === 'builder'));
    panes.builder.exit(1);
    expect(await runner.settled()).toMatchObject({ phase: 'paused', pause: { reason: 'agent_exited', role: 'builder' } });
    expect(await runner.restartAgent('builder')).toEqual({ ok: false, why: 'not_owned', where: 'tmux %4' });
    const toasts: string[] = [];
    await restartExited(runner, (text) => toasts.push(text), 'C-]');
    expect(toasts).toEqual([
      `the builder ran in tmux %4: relevo cannot start it there; start it in that pane, quit (C-] q), then ${self()} --resume`,
    ]);
    expect(runner.agents.builder.pane).toBe(panes.builder);
    expect(runner.state).toMatchObject({ phase: 'paused', pause: { reason: 'agent_exited', role: 'builder' } });
    expect(lines.filter((l) => l.type === 'agent_restarted')).toEqual([]);
  });
});
