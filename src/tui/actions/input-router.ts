import type { RelayRunner } from '../../app/run/runner.js';
import { PASTE_END, PASTE_START } from '../../pty/keys.js';
import { type Command, type KeyAction, type KeyRouter, keyName } from '../input/keyboard.js';
import { MouseReader } from '../input/mouse.js';
import { historyKeys } from '../state/handoff-history.js';
import type { Store } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';
import type { Compositor } from '../view/compositor.js';
import { copyMode } from './copy-mode.js';
import { mouseRouter } from './mouse-actions.js';

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
  /** Puts copy mode's selection on the person's clipboard (OSC 52 to relevo's terminal). */
  readonly clipboard: (text: string) => void;
};

/**
 * Where each read from the terminal goes: mouse reports first (mouse-actions.ts); then, by what is on
 * screen, keys: any key closes the help; copy mode (copy-mode.ts) takes the keys while it is on;
 * then the prefix and the command after it are relevo's (a toast for a key with no command), and
 * the other keys edit the goal prompt's line while it is open, else go to the focused agent.
 */
export function inputRouter(deps: InputDeps): (data: string) => void {
  const { store, runner, compositor, toast, keys, run, promptKeys } = deps;
  const copy = copyMode(deps);
  const mouse = new MouseReader();
  const onMouse = mouseRouter({ store, runner, compositor, run, copy });
  /** Keys for an agent whose host is out of reach are refused with a toast, never kept: sent later, they would land on a screen the person no longer sees. */
  const outOfReach = () => {
    const role = store.state.focus;
    if (!runner.agents[role].pane.unreachable) return false;
    const text = `not sent: the ${role}'s host is out of reach — type again once it answers`;
    if (store.state.toasts.at(-1)?.text !== text) toast(text, 'warn');
    return true;
  };
  /** Keys go to the focused agent; a whole paste (KeyRouter keeps it until it ends) goes bracketed only to an agent that asked for it (its pane knows). */
  const forward = (data: string) => outOfReach() || runner.agents[store.state.focus].type(data.replace(/\x1b\[20[01]~/g, ''));
  /** A paste goes to the open goal prompt as one (bracketed) key, else to the focused agent. */
  const paste = (text: string) =>
    store.state.prompt !== null
      ? promptKeys(`${PASTE_START}${text}${PASTE_END}`)
      : outOfReach() || runner.agents[store.state.focus].typePaste(text);
  /** Opening the goal prompt (goal, note) while it holds a line keeps that line: nothing typed is lost. */
  const command = (name: Command) => {
    if ((name === 'goal' || name === 'note') && (store.state.prompt?.text ?? '') !== '') return;
    run(name);
  };
  /** While quit asks: `y` or the quit command again quits; any other key cancels and reaches no agent. */
  const answerQuit = (action: KeyAction) => {
    const yes = (action.type === 'forward' && /^[yY]$/.test(action.data)) || (action.type === 'command' && action.command === 'quit');
    if (yes) run('quit');
    else store.update({ confirmQuit: false });
  };
  return (input) => {
    const { keys: data, events } = mouse.feed(input);
    for (const event of events) onMouse(event);
    if (data === '') return;
    if (store.state.overlay === 'help') {
      store.update({ overlay: 'none' });
      return;
    }
    if (store.state.overlay === 'history' && store.state.history) {
      const next = historyKeys(store.state.history, data, compositor.historyRows(), compositor.view.chrome.width);
      store.update(next === null ? { overlay: 'none', history: null } : { history: next });
      return;
    }
    if (store.state.scroll !== null) {
      copy.keys(data);
      return;
    }
    for (const action of keys.feed(data)) {
      if (store.state.confirmQuit) {
        // The answer to the question; what else came in the same read is dropped with it.
        answerQuit(action);
        break;
      }
      if (action.type === 'forward') (store.state.prompt !== null ? promptKeys : forward)(action.data);
      else if (action.type === 'paste') paste(action.text);
      else if (action.type === 'command') command(action.command);
      else toast(`${store.state.prefix} ${keyName(action.key)} is not bound: ${store.state.prefix} ? lists the keys`, 'warn');
    }
    if (keys.armed !== store.state.armed) store.update({ armed: keys.armed });
  };
}
