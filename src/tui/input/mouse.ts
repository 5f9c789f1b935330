/**
 * The mouse on relevo's terminal: asked for as SGR reports (`ESC[?1000h ESC[?1002h ESC[?1006h`:
 * presses, releases, motion with a button down), read out of the keyboard's bytes (never inside a
 * paste), found over a pane, and encoded again for an agent that asked for the mouse itself. Pure.
 */
import type { Role } from '../../protocol/index.js';
import { markerTail, PASTE_END, PASTE_START } from '../../pty/keys.js';
import type { MouseMode } from '../../pty/screen.js';
import type { Layout } from '../paint/layout.js';

/** Written to relevo's terminal to get the mouse (and to give it back). */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1002h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1002l\x1b[?1000l';

export type MouseEvent = {
  /** The button code as reported: the low 2 bits the button (3 = none), +4 Shift, +8 Meta, +16 Ctrl, +32 motion, +64 wheel. */
  readonly code: number;
  /** The cell, 1-based, on relevo's terminal. */
  readonly x: number;
  readonly y: number;
  /** A button let go (`…m`). */
  readonly release: boolean;
};

export const isWheel = (e: MouseEvent): boolean => (e.code & 0xc0) === 64;
/** The wheel turned: -1 a notch up (towards the history), 1 a notch down; 0 for anything else (tilts too). */
export const wheelStep = (e: MouseEvent): number => (!isWheel(e) ? 0 : (e.code & 3) === 0 ? -1 : (e.code & 3) === 1 ? 1 : 0);
export const isMotion = (e: MouseEvent): boolean => (e.code & 32) !== 0;
/** A button pressed (not a wheel notch, a drag or a release). */
export const isPress = (e: MouseEvent): boolean => !e.release && !isMotion(e) && !isWheel(e) && (e.code & 3) !== 3 && e.code < 128;

const REPORT = /\x1b\[<(\d+);(\d+);(\d+)([Mm])/y;
/** The start of a report cut off by the end of a read. */
const PARTIAL = /\x1b\[<[\d;]*$/;

/**
 * Takes the mouse reports out of what the terminal sends, read by read: the rest goes on as keys.
 * A paste (`ESC[200~ … ESC[201~`) is passed on whole and never searched, however many reads it
 * spans; a report or a paste marker cut in two by the reads is kept until the next read.
 */
export class MouseReader {
  #paste = false;
  #tail = '';

  feed(input: string): { readonly keys: string; readonly events: readonly MouseEvent[] } {
    const data = this.#tail + input;
    this.#tail = '';
    const events: MouseEvent[] = [];
    let keys = '';
    /** The read ended in plain keys (or inside a paste): its last bytes may begin a report or a marker. */
    let open = false;
    for (let i = 0; i < data.length; ) {
      open = false;
      if (this.#paste) {
        const end = data.indexOf(PASTE_END, i);
        keys += data.slice(i, end < 0 ? data.length : end + PASTE_END.length);
        if (end < 0) {
          open = true;
          break;
        }
        this.#paste = false;
        i = end + PASTE_END.length;
      } else if (data.startsWith(PASTE_START, i)) {
        this.#paste = true;
        keys += PASTE_START;
        i += PASTE_START.length;
      } else {
        REPORT.lastIndex = i;
        const m = REPORT.exec(data);
        if (m) {
          events.push({ code: Number(m[1]), x: Number(m[2]), y: Number(m[3]), release: m[4] === 'm' });
          i += m[0].length;
        } else {
          keys += data[i];
          i++;
          open = true;
        }
      }
    }
    if (open) {
      const cut = this.#paste
        ? markerTail(keys, PASTE_END, 1)
        : Math.max(PARTIAL.exec(keys)?.[0].length ?? 0, markerTail(keys, PASTE_START, 3));
      if (cut > 0) [keys, this.#tail] = [keys.slice(0, -cut), keys.slice(-cut)];
    }
    return { keys, events };
  }
}

/** Where a cell of relevo's terminal falls: a pane (on its frame, or inside at 1-based `x`, `y` of the agent's screen), or none (the chrome). */
export type Hit = { readonly role: Role; readonly inside: boolean; readonly x: number; readonly y: number };

export function hitPane(view: Layout, col: number, row: number): Hit | null {
  for (const [role, box] of Object.entries(view.panes) as [Role, NonNullable<Layout['panes'][Role]>][]) {
    const { frame, inner } = box;
    if (row < frame.top || row >= frame.top + frame.height || col < frame.left || col >= frame.left + frame.width) continue;
    const inside = row >= inner.top && row < inner.top + inner.height && col >= inner.left && col < inner.left + inner.width;
    return { role, inside, x: col - inner.left + 1, y: row - inner.top + 1 };
  }
  return null;
}

/**
 * The event as the agent asked to get it, at its screen's cell `x`, `y` (1-based), or null when its
 * mode does not report this kind of event. The legacy encoding carries cells up to 94 only (one
 * byte each, written as text); past that the event is not sent.
 */
export function encodeMouse(e: MouseEvent, mode: MouseMode, x: number, y: number): string | null {
  const { tracking, encoding } = mode;
  if (tracking === 'none') return null;
  const motion = isMotion(e);
  if (tracking === 'x10' && (e.release || motion)) return null;
  if (motion && (tracking === 'vt200' || (tracking === 'drag' && (e.code & 3) === 3))) return null;
  // A wheel notch has no release.
  if (e.release && isWheel(e)) return null;
  // X10 reports no modifiers; the encodings but SGR say a release as button 3.
  let code = tracking === 'x10' ? e.code & ~28 : e.code;
  if (encoding === 'sgr') return `\x1b[<${code};${x};${y}${e.release ? 'm' : 'M'}`;
  if (e.release) code = (code & ~3) | 3;
  if (encoding === 'urxvt') return `\x1b[${32 + code};${x};${y}M`;
  if (encoding === 'utf8') return x > 2015 || y > 2015 ? null : `\x1b[M${String.fromCodePoint(32 + code, 32 + x, 32 + y)}`;
  return x > 94 || y > 94 || code > 94 ? null : `\x1b[M${String.fromCharCode(32 + code, 32 + x, 32 + y)}`;
}
