/**
 * `C-] r` after an agent exited, as people meet it: relevo-tui on the built simulators in a real
 * tmux server; the builder's process is killed mid-turn, the band says so, `C-] r` starts it again
 * with the same command and the relay goes on to done.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { readLock } from '../../src/app/store/locks.js';
import { BIN, onlyRunJournal, recorded, simCommand, tempDir } from '../helpers/cli.js';
import { exists } from '../helpers/procs.js';
import { band, freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

const lockOf = (stateDir: string) => {
  const [run] = readdirSync(join(stateDir, 'runs'));
  return readLock(join(stateDir, 'runs', run!));
};
const agentPid = (stateDir: string, role: string) => lockOf(stateDir)?.agents?.find((a) => a.role === role)?.pid;

describe('C-] r after an agent exited', () => {
  it('starts the killed builder again, tells it where its handoff is, and the relay reaches done with each round delivered once', async () => {
    const cwd = tempDir('relevo-restart-');
    const stateDir = join(cwd, '.relevo');
    const records = tempDir('relevo-restart-records-');
    const record = (role: string) => join(records, `${role}.jsonl`);
    const sim = (role: string, think: string) =>
      quote([process.execPath, BIN, 'sim-agent', '--role', role, '--think-ms', think, '--record', record(role)]);
    await start(180, 50, ['--planner', sim('planner', '300'), '--builder', sim('builder', '4000'), '--goal', 'Add pagination'], [], cwd);

    // Round 1 reached the builder, which is working on it: its process is killed.
    await untilScreen(
      'round 1 with the builder',
      (s) => band(s).includes('turn: builder') && recorded(record('builder')).length === 1,
      60_000,
    );
    const killed = agentPid(stateDir, 'builder')!;
    expect(exists(killed)).toBe(true);
    process.kill(-killed, 'SIGKILL');
    const paused = await untilScreen('the pause', (s) => band(s).includes(' · paused: agent_exited'));
    expect(band(paused)).toContain('builder: sim ✕ exited');
    expect(band(paused)).toMatch(/ · builder exited: C-\] r starts it again$/);
    expect(paused).toContain('the builder exited (code 0); nothing is lost: C-] r starts it again');

    await keys('C-]', 'r');
    // The band leaves the pause once the new builder runs, and a toast says it started again.
    await untilScreen('the builder started again', (s) => s.includes('the builder started again (pid ') && !band(s).includes('paused'));
    const done = await untilScreen('done', (s) => / · done$/.test(band(s)), 90_000);
    expect(band(done)).toContain('3/10');
    expect(band(done)).not.toContain('exited');

    // A new process of the same command, and the lock names it (a leftover sweep would find it).
    const { lines } = onlyRunJournal(stateDir);
    const restarted = lines.filter((l) => l.type === 'agent_restarted');
    expect(restarted).toMatchObject([{ role: 'builder', pid: expect.any(Number) }]);
    const pid = restarted[0]!.type === 'agent_restarted' ? restarted[0]!.pid! : 0;
    expect(pid).not.toBe(killed);
    expect(agentPid(stateDir, 'builder')).toBe(pid);
    expect(exists(pid)).toBe(true);
    expect(lines.filter((l) => l.type === 'agent_exited')).toMatchObject([{ role: 'builder' }]);
    expect(lines.findIndex((l) => l.type === 'agent_exited')).toBeLessThan(lines.findIndex((l) => l.type === 'agent_restarted'));

    // Each round delivered once; the new builder was told where round 1 is, never typed it again.
    const delivered = lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind} ${l.from}→${l.to} ${l.round}`] : []));
    expect(delivered).toEqual([
      'goal relevo→planner 0',
      'handoff planner→builder 1',
      'notice relevo→builder 1',
      'handoff builder→planner 1',
      'handoff planner→builder 2',
      'handoff builder→planner 2',
      'handoff planner→builder 3',
      'handoff builder→planner 3',
    ]);
    const toBuilder = recorded(record('builder'));
    expect(toBuilder.filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    expect(toBuilder[1]).toMatch(/^relevo restarted you \(your process had exited\) while you were working on round 1 from the planner\./);
    expect(toBuilder[1]).toContain('/planner/checkpoints/1/HANDOFF.md');
  }, 180_000);
});

/**
 * Agent CLIs that print a version and exit at start (as one not logged in may): relevo-tui on
 * simulators behind `exit-once-agent.mjs`, which exits the first time and runs the simulator when
 * started again. Before any goal, `C-] r` starts them again; a goal typed while they are exited
 * waits for them and goes to the planner once they run.
 */
describe('agents that exit at start', () => {
  const EXIT_ONCE = fileURLToPath(new URL('../helpers/exit-once-agent.mjs', import.meta.url));
  const setup = async () => {
    const cwd = tempDir('relevo-exit-at-start-');
    const records = tempDir('relevo-exit-at-start-records-');
    const record = (role: string) => join(records, `${role}.jsonl`);
    // The simulator's command line behind the wrapper that exits once.
    const agent = (role: 'planner' | 'builder') =>
      `${quote([process.execPath, EXIT_ONCE, join(records, `${role}.started`), '--'])} ${simCommand(role, '--record', record(role))}`;
    await start(180, 50, ['--planner', agent('planner'), '--builder', agent('builder')], [], cwd);
    const gone = await untilScreen(
      'both agents exited',
      (s) => band(s).includes('planner: sim ✕ exited') && band(s).includes('builder: sim ✕ exited'),
    );
    // The band names the key that starts them again, and so do the toasts.
    expect(band(gone)).toContain('planner and builder exited: C-] r starts them again');
    expect(gone).toMatch(/the (planner|builder) exited \(code 0\); nothing is lost: C-\] r starts it again/);
    return { stateDir: join(cwd, '.relevo'), record };
  };
  /** Every delivery of the run, as `kind from→to round`. */
  const deliveries = (stateDir: string) =>
    onlyRunJournal(stateDir).lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind} ${l.from}→${l.to} ${l.round}`] : []));

  it('before any goal, C-] r starts both again; the goal given then runs to done', async () => {
    const { stateDir, record } = await setup();
    // The goal prompt is open at start: Esc leaves it, then the prefix and r.
    await keys('Escape');
    await untilScreen('the prompt closed', (s) => !s.split('\n').some((l) => l.startsWith('goal ›')));
    await keys('C-]', 'r');
    const back = await untilScreen(
      'both started again',
      (s) => !band(s).includes('exited') && /the (planner|builder) started again \(pid \d+\)/.test(s),
    );
    expect(band(back)).not.toContain('paused');
    await keys('C-]', 'g');
    await untilScreen('the goal prompt', (s) => s.split('\n').some((l) => l.startsWith('goal ›')));
    await keys('-l', 'Add pagination');
    await keys('Enter');
    await untilScreen('done', (s) => / · done$/.test(band(s)), 90_000);
    const { lines } = onlyRunJournal(stateDir);
    expect(lines.filter((l) => l.type === 'agent_restarted').map((l) => l.type === 'agent_restarted' && l.role)).toEqual([
      'planner',
      'builder',
    ]);
    expect(lines.filter((l) => l.type === 'paused')).toEqual([]);
    expect(deliveries(stateDir)[0]).toBe('goal relevo→planner 0');
    expect(recorded(record('planner'))[0]).toBe('Goal: Add pagination');
  }, 180_000);

  it('a goal typed while they are exited waits, named in the pause; C-] r starts them and the goal goes to the planner once', async () => {
    const { stateDir, record } = await setup();
    await keys('-l', 'Add pagination');
    await keys('Enter');
    const held = await untilScreen('the goal held', (s) => band(s).includes(' · paused: agent_exited'));
    expect(held).toContain('paused: agent_exited (planner): the goal waits until it runs again — C-] r starts it again');
    await keys('C-]', 'r');
    await untilScreen('done', (s) => / · done$/.test(band(s)), 90_000);
    const { lines } = onlyRunJournal(stateDir);
    // Held, never failed: one pause (agent_exited), no delivery_failed; the goal typed once, to the new planner.
    expect(lines.filter((l) => l.type === 'paused').map((l) => l.type === 'paused' && l.reason)).toEqual(['agent_exited']);
    expect(lines.filter((l) => l.type === 'goal')).toMatchObject([{ text: 'Add pagination' }]);
    expect(deliveries(stateDir).filter((d) => d.startsWith('goal'))).toEqual(['goal relevo→planner 0']);
    expect(recorded(record('planner')).filter((t) => t === 'Goal: Add pagination')).toHaveLength(1);
  }, 180_000);
});
