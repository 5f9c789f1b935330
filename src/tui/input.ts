import type { RelayRunner } from '../app/run/runner.js';
import { isEscape, splitKeys } from '../pty/keys.js';
import type { Compositor } from './compositor.js';
import { historyKeys } from './history.js';
import type { Command, KeyAction, KeyRouter } from './keys.js';
import type { Store } from './store.js';
import type { Toaster } from './toaster.js';

export type InputDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly compositor: Compositor;
  readonly toast: Toaster;
  /** Finds the prefix and the commands after it, and keeps pastes whole. */
  readonly keys: KeyRouter;
  readonly run: (command: Command) => void;
  /** The goal prompt's keys (see goal-prompt.ts). */
  readonly promptKeys: (data: string) => void;
};

/**
 * Where each read from the keyboard goes, by what is on screen: any key closes the help; scroll
 * mode moves the focused pane's view; an open goal prompt edits its line; otherwise keys go to the
 * focused agent, except the prefix and the command after it (and a toast for a key with no command).
 */
export function inputRouter(deps: InputDeps): (data: string) => void {
  const { store, runner, compositor, toast, keys, run, promptKeys } = deps;
  const scrollKeys = scrollMode(deps);
  /** Keys go to the focused agent; a whole paste (KeyRouter keeps it until it ends) goes bracketed only to an agent that asked for it (its pane knows). */
  const forward = (data: string) => runner.agents[store.state.focus].type(data.replace(/\x1b\[20[01]~/g, ''));
  /** While quit asks: `y` or the quit command again quits; any other key cancels and reaches no agent. */
  const answerQuit = (action: KeyAction) => {
    const yes = (action.type === 'forward' && /^[yY]$/.test(action.data)) || (action.type === 'command' && action.command === 'quit');
    if (yes) run('quit');
    else store.update({ confirmQuit: false });
  };
  return (data) => {
    if (store.state.overlay === 'help') {
      store.update({ overlay: 'none' });
      compositor.relayout();
      return;
    }
    if (store.state.overlay === 'history' && store.state.history) {
      const next = historyKeys(store.state.history, data, compositor.historyRows());
      store.update(next === null ? { overlay: 'none', history: null } : { history: next });
      if (next === null) compositor.relayout();
      return;
    }
    if (store.state.scroll !== null) {
      scrollKeys(data);
      return;
    }
    if (store.state.prompt !== null) {
      promptKeys(data);
      return;
    }
    for (const action of keys.feed(data)) {
      if (store.state.confirmQuit) {
        // The answer to the question; what else came in the same read is dropped with it.
        answerQuit(action);
        break;
      }
      if (action.type === 'forward') forward(action.data);
      else if (action.type === 'paste') runner.agents[store.state.focus].typePaste(action.text);
      else if (action.type === 'command') run(action.command);
      else toast(`${store.state.prefix} ${JSON.stringify(action.key)} is not bound: ${store.state.prefix} ? lists the keys`, 'warn');
    }
    if (keys.armed !== store.state.armed) store.update({ armed: keys.armed });
  };
}

/** Scroll mode keys: arrows and pages move the focused pane's view; Esc or q go back to the live screen. */
function scrollMode({ store, runner, compositor }: InputDeps): (data: string) => void {
  return (data) => {
    const role = store.state.focus;
    const screen = runner.agents[role].pane.screen;
    const page = Math.max(1, (compositor.view.panes[role]?.inner.height ?? 2) - 1);
    const moves: Record<string, number> = {
      '\x1b[A': -1,
      '\x1b[B': 1,
      '\x1bOA': -1,
      '\x1bOB': 1,
      '\x1b[5~': -page,
      '\x1b[6~': page,
      k: -1,
      j: 1,
    };
    for (const key of splitKeys(data)) {
      if (isEscape(key) || key === 'q') {
        screen.scrollViewToBottom();
        store.update({ scroll: null });
        break;
      }
      const move = moves[key];
      if (move !== undefined) screen.scrollView(move);
    }
    if (store.state.scroll !== null) store.update({ scroll: screen.scrolledBack });
    compositor.schedule(role);
  };
}
