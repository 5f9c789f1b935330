/**
 * The keyboard: every byte goes to the focused agent, except after the prefix key, when the next key
 * is one of relevo's commands. Pure: bytes in, actions out.
 */

import { keyAt, markerTail, PASTE_END, PASTE_START } from '../pty/keys.js';

export const COMMANDS = {
  focus: 'switch focus to the other pane',
  zoom: 'zoom the focused pane (again: both panes)',
  pause: 'pause the relay',
  resume: 'resume: send what waits, restart an exited agent, grant more rounds',
  goal: 'open the goal prompt',
  note: 'a note for an agent: it goes with the next handoff to it',
  pending: 'show and edit the pending handoff before it is sent',
  step: 'step mode: ask before each relay',
  scroll: 'copy mode on the focused pane (its keys below); Esc leaves',
  history: 'history: every handoff of the run, Enter shows one whole',
  help: 'this help',
  quit: 'quit (asks first while it would end an agent: q again or y)',
} as const;
export type Command = keyof typeof COMMANDS;

/** Key after the prefix → command. */
export const BINDINGS: Readonly<Record<string, Command>> = {
  o: 'focus',
  '\t': 'focus',
  z: 'zoom',
  p: 'pause',
  r: 'resume',
  g: 'goal',
  n: 'note',
  e: 'pending',
  s: 'step',
  '[': 'scroll',
  h: 'history',
  '?': 'help',
  q: 'quit',
};

export type KeyAction =
  | { readonly type: 'forward'; readonly data: string }
  /** A whole bracketed paste, its brackets removed, however many reads it came in. */
  | { readonly type: 'paste'; readonly text: string }
  | { readonly type: 'command'; readonly command: Command }
  | { readonly type: 'unbound'; readonly key: string };

/**
 * Splits input on the prefix key. The prefix pressed twice sends it through once; a paste
 * (`ESC[200~ … ESC[201~`) is never searched for the prefix, and is kept until its end marker
 * arrives, however many reads it takes, so it goes to the agent whole (never as typed keys, where
 * a line break inside it would submit).
 */
export class KeyRouter {
  #armed = false;
  /** The paste being read (its text so far), or null outside a paste. */
  #paste: string | null = null;
  /** The tail of the last read that may begin a paste marker cut in two (`ESC[20`). */
  #tail = '';

  constructor(readonly prefix: string) {}

  get armed(): boolean {
    return this.#armed;
  }

  feed(input: string): KeyAction[] {
    const actions: KeyAction[] = [];
    let data = this.#tail + input;
    this.#tail = '';
    const cut = markerTail(data, this.#paste === null ? PASTE_START : PASTE_END, this.#paste === null ? 3 : 1);
    if (cut > 0) [data, this.#tail] = [data.slice(0, -cut), data.slice(-cut)];
    let pending = '';
    const flush = () => {
      if (pending !== '') actions.push({ type: 'forward', data: pending });
      pending = '';
    };
    let i = 0;
    while (i < data.length) {
      if (this.#paste !== null) {
        const end = data.indexOf(PASTE_END, i);
        this.#paste += data.slice(i, end < 0 ? data.length : end);
        if (end < 0) break;
        actions.push({ type: 'paste', text: this.#paste });
        this.#paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      if (data.startsWith(PASTE_START, i)) {
        flush();
        this.#paste = '';
        i += PASTE_START.length;
        continue;
      }
      if (this.#armed) {
        // The key after the prefix is read whole: an arrow or an emoji is one unbound key, not its first byte.
        const key = keyAt(data, i);
        this.#armed = false;
        flush();
        if (key === this.prefix) pending += key;
        else {
          const command = BINDINGS[key];
          actions.push(command ? { type: 'command', command } : { type: 'unbound', key });
        }
        i += key.length;
        continue;
      }
      // Anything else is passed through byte for byte, looking only for the prefix.
      const ch = data[i]!;
      if (ch === this.prefix) {
        flush();
        this.#armed = true;
      } else pending += ch;
      i++;
    }
    flush();
    return actions;
  }
}
