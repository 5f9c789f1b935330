/**
 * The keyboard: every byte goes to the focused agent, except after the prefix key, when the next key
 * is one of relevo's commands. Pure: bytes in, actions out.
 */

export const COMMANDS = {
  focus: 'switch focus to the other pane',
  zoom: 'zoom the focused pane (again: both panes)',
  pause: 'pause the relay',
  resume: 'resume: send the pending handoff, grant another max-rounds',
  goal: 'open the goal prompt',
  pending: 'show and edit the pending handoff before it is sent',
  step: 'step mode: ask before each relay',
  scroll: 'scroll mode for the focused pane (arrows, PgUp/PgDn, Esc leaves)',
  help: 'this help',
  quit: 'quit (asks while a run is active)',
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
  e: 'pending',
  s: 'step',
  '[': 'scroll',
  '?': 'help',
  q: 'quit',
};

export type KeyAction = { readonly type: 'forward'; readonly data: string } | { readonly type: 'command'; readonly command: Command } | { readonly type: 'unbound'; readonly key: string };

/** `C-]` style names ↔ the byte a terminal sends. */
export function parsePrefix(name: string): string | null {
  const m = /^C-([a-z@[\\\]^_])$/i.exec(name.trim());
  if (!m) return null;
  const ch = m[1]!.toUpperCase();
  return String.fromCharCode(ch.charCodeAt(0) & 0x1f);
}

export function prefixName(byte: string): string {
  return `C-${String.fromCharCode(byte.charCodeAt(0) | 0x40).toLowerCase()}`;
}

/**
 * Splits input on the prefix key. The prefix pressed twice sends it through once; a paste
 * (`ESC[200~ … ESC[201~`) is never searched for the prefix.
 */
export class KeyRouter {
  #armed = false;
  #inPaste = false;

  constructor(readonly prefix: string) {}

  get armed(): boolean {
    return this.#armed;
  }

  feed(data: string): KeyAction[] {
    const actions: KeyAction[] = [];
    let pending = '';
    const flush = () => {
      if (pending !== '') actions.push({ type: 'forward', data: pending });
      pending = '';
    };
    let i = 0;
    while (i < data.length) {
      if (this.#inPaste) {
        const end = data.indexOf('\x1b[201~', i);
        const stop = end < 0 ? data.length : end + 6;
        pending += data.slice(i, stop);
        if (end >= 0) this.#inPaste = false;
        i = stop;
        continue;
      }
      if (data.startsWith('\x1b[200~', i)) {
        this.#inPaste = true;
        pending += '\x1b[200~';
        i += 6;
        continue;
      }
      const ch = data[i]!;
      if (this.#armed) {
        this.#armed = false;
        flush();
        if (ch === this.prefix) pending += ch;
        else {
          const command = BINDINGS[ch];
          actions.push(command ? { type: 'command', command } : { type: 'unbound', key: ch });
        }
      } else if (ch === this.prefix) {
        flush();
        this.#armed = true;
      } else pending += ch;
      i++;
    }
    flush();
    return actions;
  }
}
