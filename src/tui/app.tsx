import { basename, dirname, join } from 'node:path';
import { readRun } from '../app/commands/runs.js';
import { DEMO_GOAL } from '../app/config/options.js';
import { resumeCommand } from '../app/config/self.js';
import { untestedNote } from '../app/config/versions.js';
import { guardProcess } from '../app/faults/fault.js';
import { Attention } from '../app/run/attention.js';
import { type CurrentRun, followRun } from '../app/run/follow.js';
import { livesOn } from '../app/run/leftovers.js';
import { agentPanes, openRun } from '../app/run/setup.js';
import { firstRunNote } from '../app/store/journal.js';
import { stateDirPath } from '../app/store/state-dir.js';
import { type AgentState, type RelayState, ROLES, type Role, rebuiltText } from '../protocol/index.js';
import { xtermFallbacks, xtermFallbackText } from '../pty/xterm-internals.js';
import { commandRunner, exitCode } from './actions/commands.js';
import { pendingEditor } from './actions/edit-pending.js';
import { goalPromptKeys } from './actions/goal-prompt.js';
import { inputRouter } from './actions/input-router.js';
import { withExited } from './actions/restart.js';
import type { EarlyTui } from './early-tui.js';
import { KeyRouter } from './input/keyboard.js';
import { osc52 } from './state/copy-text.js';
import { GoalHistory } from './state/goal-history.js';
import { historyView } from './state/handoff-history.js';
import { faultWatcher, toastFor } from './state/toast-text.js';
import { toaster } from './state/toaster.js';
import { runState } from './view/band.js';
import { bandInfo } from './view/components/Chrome.js';
import type { TerminalIo } from './view/terminal.js';

/** The last line: how the run ended, its journal, and the command that goes on with it when there is one. */
function endLine(state: RelayState, journalPath: string, resume: string): string {
  if (state.phase === 'done') return `relevo-tui: done: ${state.summary ?? ''} — journal: ${journalPath}`;
  if (state.phase === 'ready') return `relevo-tui: no goal was given: nothing was started, nothing to resume — journal: ${journalPath}`;
  return `relevo-tui: stopped (${state.phase}${state.pause ? `: ${state.pause.reason}` : ''}) — journal: ${journalPath}; go on with: ${resume}`;
}

/**
 * `relevo-tui` without `--headless`: both agents live on one screen, relevo's state always visible.
 * This is the wiring: the run opened, the store its views follow (view/compositor.tsx), the keyboard
 * routed (actions/input-router.ts) to the agents, the prefix commands and the goal prompt, then
 * everything taken down again in order.
 */
export async function runTui(early: EarlyTui, version: string, env: NodeJS.ProcessEnv, io: TerminalIo): Promise<number> {
  const cwd = process.cwd();
  const { options, term, store, compositor } = early;
  const resuming = options.resume !== false;
  const goal = resuming ? null : (options.goal ?? (options.demo ? DEMO_GOAL : null));
  const prefix = options.prefix;
  const size = { cols: early.firstInner.width, rows: early.firstInner.height };
  const opened = await openRun(options, version, env, size, undefined, early.relay);
  const { runner, journal, tmuxSocket } = opened;
  // (A tmux session or window relevo opened for the agents is named after the first run: relevo-<id>.)
  // The run on screen: a next goal after `done` moves it to a new run (follow.ts).
  let current: CurrentRun = { dir: opened.dir, unlock: opened.unlock };
  const agents = runner.agents;

  // The band names each agent; one outside its profile's tested range says so (`codex 0.180.0?`).
  const name = (role: Role) => {
    const cli = runner.spec(role).cli;
    const untested = untestedNote(role, runner.spec(role)) !== null;
    return `${agents[role].profile.data.id}${untested ? ` ${cli?.status === 'found' ? cli.version : 'version'}?` : ''}`;
  };
  // The first frame (start.ts) named the agents by their commands: now their profiles do, and the run's state shows.
  store.update({
    relay: runner.state,
    agents: { planner: { name: name('planner'), state: 'unknown' }, builder: { name: name('builder'), state: 'unknown' } },
    memory: runner.memoryBlocked ? 'memory: blocked' : null,
  });
  compositor.attach(agents);
  const toast = toaster(store);
  // A fault's pause is shown from the state: it may not be in the journal (which could not be written).
  const faults = faultWatcher(store.state.prefix, (text) => {
    toast(text, 'error');
    term.notify(`relevo: ${text}`);
  });
  runner.onChange((relay) => {
    store.update({ relay });
    faults(relay.pause);
  });
  const attention = new Attention(runner, journal, options.stallAfterMs);
  // The band's notes: what Attention sees, and an exited agent with the key that starts it again.
  attention.onChange((notes) => store.update((s) => ({ notes: withExited(notes, s.agents, s.prefix) })));
  const setState = (role: Role, state: AgentState | 'exited') =>
    store.update((s) => {
      const agents = { ...s.agents, [role]: { ...s.agents[role], state } };
      return { agents, notes: withExited(attention.notes, agents, s.prefix) };
    });
  const follow = (role: Role) => {
    const agent = agents[role];
    agent.onState((state) => setState(role, state));
    agent.pane.onUpdate(() => compositor.schedule(role));
  };
  for (const role of ROLES) follow(role);
  // An exited agent started again (C-] r): its new pane is followed and painted in place of the old one.
  runner.onAgentRestarted((role) => {
    follow(role);
    setState(role, agents[role].state);
    compositor.paneReplaced(role);
  });
  journal.onAppend((line) => {
    const shown = toastFor(line, store.state.prefix);
    if (!shown) return;
    toast(shown.text, shown.level);
    if (shown.notify) term.notify(`relevo: ${shown.text}`);
  });
  // A lost journal --resume rebuilt: written before anyone listened, said once.
  if (opened.rebuilt) toast(rebuiltText(opened.rebuilt), 'warn');

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolveExit) => (finish = resolveExit));

  // Shown once, at start: an agent CLI outside its tested range (the journal has it too).
  for (const role of ROLES) {
    const note = untestedNote(role, runner.spec(role));
    if (note !== null) toast(`untested: ${note}`, 'warn');
  }
  for (const problem of xtermFallbacks()) toast(xtermFallbackText(problem), 'warn');
  if (opened.createdStateDir) toast(firstRunNote(options.stateDir));
  early.started(toast);

  /** While another program (the editor) runs, relevo neither paints nor reads the keyboard. */
  const handOver = async <T,>(program: () => Promise<T>): Promise<T> => {
    compositor.suspend();
    io.stdin.off('data', onData);
    term.leave();
    try {
      return await program();
    } finally {
      term.enter();
      io.stdin.on('data', onData);
      compositor.resume();
    }
  };
  const editPending = pendingEditor({ store, runner, env, toast, handOver });
  const readHistory = () =>
    historyView(
      readRun(dirname(current.dir), basename(current.dir), (message) => toast(`history: ${message}`, 'warn')),
      runState(bandInfo(store.state)),
    );
  const run = commandRunner({ store, runner, toast, finish: (code) => finish(code), editPending, readHistory });
  // The goal prompt: a goal, or the relevo protocol's /relevo goal|pause|resume, with a history kept in the state dir.
  const history = new GoalHistory(join(stateDirPath(options.stateDir, cwd), 'goal-history.json'));
  /** A goal given after `done`: the next run, with the same agents (or one line saying why not). */
  const nextGoal = (goal: string) => {
    try {
      current = followRun(runner, journal, current, cwd);
    } catch (error) {
      toast(`the next goal was not started: ${(error as Error).message.split('\n')[0]}`, 'error');
      return false;
    }
    runner.start(goal);
    return true;
  };
  const promptKeys = goalPromptKeys({ store, runner, history, toast, nextGoal, resume: () => run('resume') });
  const clipboard = (text: string) => term.write(osc52(text));
  const onData = inputRouter({ store, runner, compositor, toast, keys: new KeyRouter(prefix), run, promptKeys, clipboard });

  const onResize = () => compositor.resized();
  io.stdout.on('resize', onResize);
  // A signal, or a terminal that went away (writes fail), pauses the relay and ends the agents.
  // Once: a write to a terminal that is gone fails again on each repaint the pause causes.
  let ended = false;
  const onSignal = (signal: string) => {
    if (ended) return;
    ended = true;
    runner.dispatch({ type: 'stop', detail: signal });
    finish(exitCode(runner.state));
  };
  const onWriteError = (error: NodeJS.ErrnoException) => onSignal(`terminal gone (${error.code ?? error.message})`);
  io.stdout.on('error', onWriteError);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Keys typed while the run opened reach the agents now, in order (and a signal that came then stops it).
  io.stdin.on('data', onData);
  early.handOff(onData, onSignal);
  const unguard = guardProcess(runner.fault);
  const restore = () => term.leave();
  process.once('exit', restore);

  if (!ended && resuming) runner.resumeRun();
  else if (!ended && goal !== null) runner.start(goal);
  const code = await finished;
  ended = true;

  io.stdin.off('data', onData);
  io.stdout.off('resize', onResize);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  compositor.dispose();
  attention.dispose();
  await runner.stop();
  unguard();
  journal.close();
  current.unlock();
  store.dispose();
  term.leave();
  process.off('exit', restore);
  io.stdout.write(
    `${endLine(runner.state, journal.path, resumeCommand(basename(current.dir), options.stateDir))}${await livesOn(agentPanes(runner), tmuxSocket, basename(opened.dir))}\n`,
  );
  return code;
}
