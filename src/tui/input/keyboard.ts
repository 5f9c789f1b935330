/**
 * The keyboard: every byte goes to the focused agent, except after the prefix key, when the next key
 * is one of relevo's commands. Pure: bytes in, actions out.
 */

import { prefixName } from '../../app/config/prefix.js';
import { keyAt, markerTail, PASTE_END, PASTE_START } from '../../pty/keys.js';

export const COMMANDS = {
  focus: 'switch focus to the other pane',
  zoom: 'zoom the focused pane (again: both panes)',
  pause: 'pause the relay',
  resume: 'resume: send what waits, restart an exited agent, more rounds',
  goal: 'open the goal prompt',
  note: 'a note for an agent: it goes with the next handoff to it',
  pending: 'show and edit the pending handoff before it is sent',
  step: 'step mode: ask before each relay',
  scroll: 'copy mode on the focused pane (its keys below); Esc leaves',
  history: 'history: every handoff of the run, Enter shows one whole',
  relays: 'relays: every relay of the repository (Enter opens one)',
  new: 'a new relay, in a git worktree of its own',
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
  w: 'relays',
  c: 'new',
  '?': 'help',
  q: 'quit',
};

/** Each command in a word or two, for the row of keys shown after the prefix (every command has one). */
export const LABELS: Readonly<Record<Command, string>> = {
  focus: 'focus',
  zoom: 'zoom',
  pause: 'pause',
  resume: 'resume',
  goal: 'goal',
  note: 'note',
  pending: 'edit pending',
  step: 'step',
  scroll: 'copy mode',
  history: 'history',
  relays: 'relays',
  new: 'new',
  help: 'help',
  quit: 'quit',
};

/** `o/Tab focus · z zoom · …`: every binding, in the order of COMMANDS, read from BINDINGS so it cannot drift. */
export function bindingsHint(): string {
  return (Object.keys(COMMANDS) as Command[])
    .map((command) => {
      const bound = Object.keys(BINDINGS).filter((key) => BINDINGS[key] === command);
      return `${bound.map(keyName).join('/')} ${LABELS[command]}`;
    })
    .join(' · ');
}

/** Keys a terminal sends as escape sequences (or as control bytes with a name of their own), by name. */
const NAMED: Readonly<Record<string, string>> = {
  A: '↑',
  B: '↓',
  C: '→',
  D: '←',
  H: 'Home',
  F: 'End',
  P: 'F1',
  Q: 'F2',
  R: 'F3',
  S: 'F4',
  Z: 'S-Tab',
  '1~': 'Home',
  '2~': 'Insert',
  '3~': 'Delete',
  '4~': 'End',
  '5~': 'PgUp',
  '6~': 'PgDn',
  '15~': 'F5',
  '17~': 'F6',
  '18~': 'F7',
  '19~': 'F8',
  '20~': 'F9',
  '21~': 'F10',
  '23~': 'F11',
  '24~': 'F12',
  '\r': 'Enter',
  '\t': 'Tab',
  '\x1b': 'Esc',
  '\x7f': 'Backspace',
  ' ': 'Space',
};

/** xterm's modifier parameter (1 + shift 1, alt 2, ctrl 4) as a name's prefix. */
const modifiers = (param: number) => `${param & 4 ? 'C-' : ''}${param & 2 ? 'M-' : ''}${param & 1 ? 'S-' : ''}`;

/** A key as people read it: `↑`, `F5`, `PgUp`, `C-x`, `M-x`, `x` (an unknown sequence as its escaped bytes). */
export function keyName(key: string): string {
  const named = NAMED[key];
  if (named !== undefined) return named;
  const seq = /^\x1b(?:\[(?:(\d+)(?:;(\d+))?)?|O)([~A-Z])$/.exec(key);
  if (seq) {
    const [, num, mod, final] = seq;
    const name = final === '~' ? NAMED[`${num}~`] : num === undefined || num === '1' ? NAMED[final!] : undefined;
    if (name !== undefined) return `${modifiers(Number(mod ?? 1) - 1)}${name}`;
  }
  if (/^[\x00-\x1f]$/.test(key)) return prefixName(key);
  if (/^\x1b[^[O]/u.test(key) || key === '\x1b[' || key === '\x1bO') return `M-${keyName(key.slice(1))}`;
  if (/^[^\x00-\x1f\x7f]+$/u.test(key)) return key;
  return JSON.stringify(key).slice(1, -1);
}

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
