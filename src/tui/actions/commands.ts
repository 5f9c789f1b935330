import type { RelayRunner } from '../../app/run/runner.js';
import { noteRefusal, noteTarget, peerOf, type RelayState, ROLES } from '../../protocol/index.js';
import type { Command } from '../input/keyboard.js';
import { emptyLine } from '../input/line-editor.js';
import type { HistoryView } from '../state/handoff-history.js';
import type { Store } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';
import { enterCopy, focusPeek, leaveCopy } from './copy-mode.js';
import { restartExited } from './restart.js';

export type CommandDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly toast: Toaster;
  /** Ends the TUI with this exit code. */
  readonly finish: (code: number) => void;
  /** Opens the pending handoff in the person's editor (see edit-pending.ts). */
  readonly editPending: () => Promise<void>;
  /** The run's handoffs as the history panel shows them, read from its checkpoints and journal now. */
  readonly readHistory: () => HistoryView;
  /** The relays of the repository: their dashboard shown, a new one started from it. */
  readonly relays?: { readonly show: () => void; readonly create: () => void };
};

/** How relevo-tui exits on a run in `state`: 0 done or never given a goal (nothing to go on with), 3 paused (`--resume` goes on). */
export const exitCode = (state: RelayState): number => (state.phase === 'done' || state.phase === 'ready' ? 0 : 3);

/** What each of relevo's commands (the key after the prefix, see input/keyboard.ts) does. */
export function commandRunner(deps: CommandDeps): (command: Command) => void {
  const { store, runner, toast, finish, editPending } = deps;
  return (command) => {
    switch (command) {
      case 'focus': {
        // Copy mode ends with the focus: the pane it was on goes back to its live screen.
        const was = store.state.focus;
        if (store.state.scroll !== null) store.update(leaveCopy(runner.agents[was].pane.screen));
        store.update({ focus: peerOf(was) });
        store.update((s) => focusPeek(s, runner.agents[s.focus].pane.screen));
        return;
      }
      case 'zoom':
        store.update((s) => ({ zoom: !s.zoom }));
        return;
      case 'pause':
        runner.dispatch({ type: 'pause' });
        return;
      case 'resume':
        // An agent exited (mid-run or before the goal): it is started again first, and the relay goes on once it runs.
        if (runner.state.pause?.reason === 'agent_exited' || ROLES.some((role) => runner.agents[role].pane.exited !== null))
          return void restartExited(runner, toast, store.state.prefix).catch(runner.fault);
        if (runner.state.phase !== 'paused') toast('the relay is not paused');
        runner.dispatch({ type: 'resume' });
        return;
      case 'help':
        store.update({ overlay: 'help' });
        return;
      case 'history':
        // Copy mode ends with it: its pane goes back to its live screen.
        if (store.state.scroll !== null) store.update(leaveCopy(runner.agents[store.state.focus].pane.screen));
        store.update({ overlay: 'history', history: deps.readHistory() });
        return;
      case 'quit': {
        // One rule: quitting asks whenever it would end an agent (a pane of relevo's own, still running).
        const ends = ROLES.some((role) => runner.agents[role].pane.owned && runner.agents[role].pane.exited === null);
        if (ends && !store.state.confirmQuit) {
          store.update({ confirmQuit: true });
          return;
        }
        // A run left mid-way is journaled as paused by the user, so nothing is lost; one with no goal yet, as never started.
        runner.dispatch({ type: 'stop' });
        finish(exitCode(runner.state));
        return;
      }
      case 'relays':
      case 'new':
        if (deps.relays === undefined) toast('no relays here');
        else if (command === 'relays') deps.relays.show();
        else deps.relays.create();
        return;
      case 'scroll':
        store.update(enterCopy(runner.agents[store.state.focus].pane.screen));
        return;
      case 'goal':
        store.update({ prompt: emptyLine });
        return;
      case 'note': {
        // The prompt opens on the command, addressed to the agent the next handoff is for: the person may change it.
        const why = noteRefusal(runner.state, noteTarget(runner.state), '.');
        if (why !== null) return toast(`no note now: ${why}`, 'warn');
        const text = `/relevo note ${noteTarget(runner.state)} `;
        store.update({ prompt: { ...emptyLine, text, cursor: text.length } });
        return;
      }
      case 'step': {
        const on = !runner.state.step;
        runner.dispatch({ type: 'set-step', on });
        toast(
          on
            ? `step mode on: relevo pauses before each relay; ${store.state.prefix} r sends, ${store.state.prefix} e edits first`
            : 'step mode off',
        );
        return;
      }
      case 'pending':
        editPending().catch(runner.fault);
        return;
    }
  };
}
