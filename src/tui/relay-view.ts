import { basename, dirname, join } from 'node:path';
import { readRun } from '../app/commands/runs.js';
import { DEMO_GOAL, type Options } from '../app/config/options.js';
import { resumeCommand } from '../app/config/self.js';
import { untestedNote } from '../app/config/versions.js';
import { Attention } from '../app/run/attention.js';
import { type CurrentRun, followRun } from '../app/run/follow.js';
import { livesOn } from '../app/run/leftovers.js';
import { Reachability } from '../app/run/reachability.js';
import type { RelayRunner } from '../app/run/runner.js';
import { agentPanes, openRun, type RelayOpen } from '../app/run/setup.js';
import { firstRunNote } from '../app/store/journal.js';
import { stateDirPath } from '../app/store/state-dir.js';
import {
  type AgentState,
  type HostOutOfReach,
  type RelayInfo,
  type RelayState,
  ROLES,
  type Role,
  rebuiltText,
  unreachableText,
} from '../protocol/index.js';
import { xtermFallbacks, xtermFallbackText } from '../pty/xterm-internals.js';
import { commandRunner } from './actions/commands.js';
import { pendingEditor } from './actions/edit-pending.js';
import { goalPromptKeys } from './actions/goal-prompt.js';
import { inputRouter } from './actions/input-router.js';
import { withExited } from './actions/restart.js';
import { KeyRouter } from './input/keyboard.js';
import { osc52 } from './state/copy-text.js';
import { GoalHistory } from './state/goal-history.js';
import { historyView } from './state/handoff-history.js';
import type { Store } from './state/store.js';
import { faultWatcher, toastFor } from './state/toast-text.js';
import { type Toaster, toaster } from './state/toaster.js';
import { runState } from './view/band.js';
import { bandInfo } from './view/components/Chrome.js';
import type { Compositor } from './view/compositor.js';
import type { RealTerminal } from './view/terminal.js';

/** The last line: how the run ended, its journal, and the command that goes on with it when there is one. */
function endLine(state: RelayState, journalPath: string, resume: string): string {
  if (state.phase === 'done') return `relevo-tui: done: ${state.summary ?? ''} — journal: ${journalPath}`;
  if (state.phase === 'ready') return `relevo-tui: no goal was given: nothing was started, nothing to resume — journal: ${journalPath}`;
  return `relevo-tui: stopped (${state.phase}${state.pause ? `: ${state.pause.reason}` : ''}) — journal: ${journalPath}; go on with: ${resume}`;
}

/** What every relay view of one relevo shares: its settings, the terminal, and how relevo ends. */
export type RelayViewContext = {
  readonly options: Options;
  readonly version: string;
  readonly env: NodeJS.ProcessEnv;
  readonly term: RealTerminal;
  /** Ends relevo with this exit code (quit). */
  readonly finish: (code: number) => void;
  /** While another program (the editor) has the terminal, relevo neither paints nor reads the keyboard. */
  readonly handOver: <T>(program: () => Promise<T>) => Promise<T>;
  /** C-] w and C-] c: the relays' dashboard, a new relay. */
  readonly relays?: { readonly show: () => void; readonly create: () => void };
};

/** One relay on screen: its run, the store its views follow, what a key typed in it does. */
export type RelayView = {
  readonly store: Store;
  readonly compositor: Compositor;
  readonly runner: RelayRunner;
  readonly toast: Toaster;
  /** The relay's name (its branch), or its run's id when it runs in no worktree of its own. */
  readonly name: string;
  readonly runId: string;
  /** Its worktree, base and ports (none for a run in the current directory). */
  readonly relay: RelayInfo | null;
  /** What waits on the person: a draft holding a delivery, a stalled turn. */
  readonly waiting: () => 'draft' | 'stalled' | null;
  /** The agents' host while it cannot be reached, else null. */
  readonly unreachable: () => HostOutOfReach | null;
  /** When its journal last changed (epoch ms). */
  readonly changedAt: () => number;
  /** The person's bytes while this relay is on screen. */
  readonly onData: (data: string) => void;
  /** The run's goal is given, or the resumed run goes on. */
  begin(): void;
  /** Its painting, watching and agents ended, its journal closed and its run let go; resolves with the line that says how it ended. */
  close(): Promise<string>;
};

/**
 * Opens a relay's run and wires it to its store and compositor: the agents followed into the store,
 * the journal into toasts, the keyboard routed (actions/input-router.ts) to the agents, the prefix
 * commands and the goal prompt.
 */
export async function openRelayView(
  ctx: RelayViewContext,
  view: { readonly store: Store; readonly compositor: Compositor; readonly size: { cols: number; rows: number } },
  relay: RelayOpen,
): Promise<RelayView> {
  const { options, version, env, term } = ctx;
  const { store, compositor } = view;
  const cwd = process.cwd();
  const resuming = options.resume !== false;
  const goal = resuming ? null : (relay.site?.goal ?? options.goal ?? (options.demo ? DEMO_GOAL : null));
  let info: RelayInfo | null = relay.site?.relay ?? null;
  let changedAt = Date.now();
  const named = (r: RelayInfo) => {
    info = r;
    relay.named?.(r);
  };
  const opened = await openRun(options, version, env, view.size, () => (changedAt = Date.now()), { ...relay, named });
  const { runner, journal, tmuxSocket } = opened;
  const name = info === null ? basename(opened.dir) : (info as RelayInfo).branch;
  // A notification says which relay it is about when there are several.
  const notify = (text: string) => term.notify(info === null ? `relevo: ${text}` : `relevo ${name}: ${text}`);
  // (A tmux session or window relevo opened for the agents is named after the first run: relevo-<id>.)
  // The run on screen: a next goal after `done` moves it to a new run (follow.ts).
  let current: CurrentRun = { dir: opened.dir, unlock: opened.unlock };
  const agents = runner.agents;

  // The band names each agent; one outside its profile's tested range says so (`codex 0.180.0?`).
  const agentName = (role: Role) => {
    const cli = runner.spec(role).cli;
    const untested = untestedNote(role, runner.spec(role)) !== null;
    return `${agents[role].profile.data.id}${untested ? ` ${cli?.status === 'found' ? cli.version : 'version'}?` : ''}`;
  };
  // The first frame (start.ts) named the agents by their commands: now their profiles do, and the run's state shows.
  store.update({
    relay: runner.state,
    agents: { planner: { name: agentName('planner'), state: 'unknown' }, builder: { name: agentName('builder'), state: 'unknown' } },
    memory: runner.memoryBlocked ? 'memory: blocked' : null,
  });
  compositor.attach(agents);
  const toast = toaster(store);
  // A fault's pause is shown from the state: it may not be in the journal (which could not be written).
  const faults = faultWatcher(store.state.prefix, (text) => {
    toast(text, 'error');
    notify(text);
  });
  runner.onChange((relay) => {
    store.update({ relay });
    faults(relay.pause);
  });
  const attention = new Attention(runner, journal, options.stallAfterMs);
  // The band's notes: what Attention sees, and an exited agent with the key that starts it again.
  attention.onChange((notes) => store.update((s) => ({ notes: withExited(notes, s.agents, s.prefix) })));
  // A host out of reach: the band counts down to the next look, a second at a time, until it answers.
  const reach = new Reachability(runner, journal);
  let ticking: NodeJS.Timeout | undefined;
  const showReach = () => {
    const out = reach.current;
    store.update({ unreachable: out === null ? null : unreachableText(out, Date.now()) });
    if (out !== null) ticking ??= setInterval(showReach, 1000).unref();
    else {
      clearInterval(ticking);
      ticking = undefined;
    }
  };
  reach.onChange(showReach);
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
    if (shown.notify) notify(shown.text);
  });
  // A lost journal --resume rebuilt: written before anyone listened, said once.
  if (opened.rebuilt) toast(rebuiltText(opened.rebuilt), 'warn');

  // Shown once, at start: an agent CLI outside its tested range (the journal has it too).
  for (const role of ROLES) {
    const note = untestedNote(role, runner.spec(role));
    if (note !== null) toast(`untested: ${note}`, 'warn');
  }
  for (const problem of xtermFallbacks()) toast(xtermFallbackText(problem), 'warn');
  if (opened.createdStateDir) toast(firstRunNote(options.stateDir));

  const editPending = pendingEditor({ store, runner, env, toast, handOver: ctx.handOver });
  const readHistory = () =>
    historyView(
      readRun(dirname(current.dir), basename(current.dir), (message) => toast(`history: ${message}`, 'warn')),
      runState(bandInfo(store.state)),
    );
  const run = commandRunner({
    store,
    runner,
    toast,
    finish: ctx.finish,
    editPending,
    readHistory,
    ...(ctx.relays ? { relays: ctx.relays } : {}),
  });
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
  const keys = new KeyRouter(options.prefix);
  const onData = inputRouter({ store, runner, compositor, toast, keys, run, promptKeys, clipboard });

  return {
    store,
    compositor,
    runner,
    toast,
    name,
    runId: basename(opened.dir),
    relay: info,
    waiting: () => attention.waiting,
    unreachable: () => reach.current,
    changedAt: () => changedAt,
    onData,
    begin() {
      if (resuming) runner.resumeRun();
      else if (goal !== null) runner.start(goal);
    },
    async close() {
      compositor.dispose();
      attention.dispose();
      clearInterval(ticking);
      reach.dispose();
      await runner.stop();
      journal.close();
      current.unlock();
      const lives = await livesOn(agentPanes(runner), tmuxSocket, basename(opened.dir));
      return `${endLine(runner.state, journal.path, resumeCommand(basename(current.dir), options.stateDir))}${lives}`;
    },
  };
}
