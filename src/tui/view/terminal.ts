/** The real terminal relevo's TUI takes over, and gives back exactly as it found it. */

import { MOUSE_OFF, MOUSE_ON } from '../input/mouse.js';

const ENTER = [
  '\x1b[?1049h', // alternate screen
  '\x1b[?2004h', // bracketed paste: the user's pastes arrive marked
  '\x1b[?25l', // cursor hidden until the focused pane places it
  '\x1b[?7l', // no autowrap: a paint that reached the last column never scrolls the screen
  '\x1b[2J',
].join('');
const LEAVE = ['\x1b[0m', '\x1b[?7h', '\x1b[?2004l', '\x1b[?25h', '\x1b[?1049l'].join('');

export type TerminalIo = {
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
};

export type TerminalOptions = {
  /** Ask for the mouse (SGR reports of presses, releases, drags and the wheel) while relevo has the terminal. */
  readonly mouse?: boolean;
};

export class RealTerminal {
  #active = false;

  constructor(
    private readonly io: TerminalIo,
    private readonly options: TerminalOptions = {},
  ) {}

  get cols(): number {
    return this.io.stdout.columns || 80;
  }

  get rows(): number {
    return this.io.stdout.rows || 24;
  }

  write(data: string): void {
    this.io.stdout.write(data);
  }

  enter(): void {
    this.#active = true;
    this.io.stdin.setRawMode?.(true);
    this.io.stdin.resume();
    this.io.stdin.setEncoding('utf8');
    this.write(ENTER + (this.options.mouse ? MOUSE_ON : ''));
  }

  /** Restores the terminal (the mouse given back too); safe to call twice (and from an exit handler). */
  leave(): void {
    if (!this.#active) return;
    this.#active = false;
    this.write((this.options.mouse ? MOUSE_OFF : '') + LEAVE);
    this.io.stdin.setRawMode?.(false);
    this.io.stdin.pause();
  }

  /** The bell and an OSC 9 desktop notification: the run needs the person. */
  notify(text: string): void {
    this.write(`\x07\x1b]9;${text.replace(/[\x00-\x1f\x7f]/g, ' ').slice(0, 200)}\x07`);
  }
}
