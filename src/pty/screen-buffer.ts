/**
 * screen.ts's helpers over its headless xterm, seen by shape: a cell's rendition, the whole
 * buffer's text for copy mode, the mouse reporting asked for, and lines leaving the buffer.
 */
import { COLOR_MODE, copySgr, DEFAULT_SGR, SGR_FLAG, type Sgr } from './sgr.js';
import type { LineList } from './xterm-internals.js';

type CellFlag =
  | 'isAttributeDefault'
  | 'isFgDefault'
  | 'isFgRGB'
  | 'isBgDefault'
  | 'isBgRGB'
  | 'isBold'
  | 'isDim'
  | 'isItalic'
  | 'isUnderline'
  | 'isBlink'
  | 'isInverse'
  | 'isInvisible'
  | 'isStrikethrough'
  | 'isOverline';
type CellValue = 'getFgColorMode' | 'getFgColor' | 'getBgColorMode' | 'getBgColor';
/** What is read of an xterm buffer cell (IBufferCell). */
type Cell = { readonly [K in CellFlag]: () => boolean | number } & { readonly [K in CellValue]: () => number };

/** What is read of the xterm Terminal. */
type Terminal = {
  readonly modes: { readonly mouseTrackingMode: MouseMode['tracking'] };
  readonly parser: {
    registerCsiHandler(
      id: { prefix?: string; intermediates?: string; final: string },
      cb: (params: (number | number[])[]) => boolean,
    ): unknown;
    registerEscHandler(id: { final: string }, cb: () => boolean): unknown;
  };
};

/**
 * xterm's own colour-mode bits (Attributes.CM_P256), used only to tell `CSI 38;5;1 m` from `CSI 31 m`,
 * which some terminals render differently (bold-as-bright). Both fall back to the same colour.
 */
const XTERM_CM_P256 = 0x2000000;

/** The cell's rendition, into `into`. */
export function readSgr(cell: Cell, into: Sgr): void {
  if (cell.isAttributeDefault()) {
    copySgr(into, DEFAULT_SGR);
    return;
  }
  const { DEFAULT, RGB, PALETTE, PALETTE_256 } = COLOR_MODE;
  const { BOLD, DIM, ITALIC, UNDERLINE, BLINK, INVERSE, INVISIBLE, STRIKE, OVERLINE } = SGR_FLAG;
  into.fgMode = cell.isFgDefault() ? DEFAULT : cell.isFgRGB() ? RGB : cell.getFgColorMode() === XTERM_CM_P256 ? PALETTE_256 : PALETTE;
  into.fg = into.fgMode === DEFAULT ? 0 : cell.getFgColor();
  into.bgMode = cell.isBgDefault() ? DEFAULT : cell.isBgRGB() ? RGB : cell.getBgColorMode() === XTERM_CM_P256 ? PALETTE_256 : PALETTE;
  into.bg = into.bgMode === DEFAULT ? 0 : cell.getBgColor();
  into.flags =
    (cell.isBold() ? BOLD : 0) |
    (cell.isDim() ? DIM : 0) |
    (cell.isItalic() ? ITALIC : 0) |
    (cell.isUnderline() ? UNDERLINE : 0) |
    (cell.isBlink() ? BLINK : 0) |
    (cell.isInverse() ? INVERSE : 0) |
    (cell.isInvisible() ? INVISIBLE : 0) |
    (cell.isStrikethrough() ? STRIKE : 0) |
    (cell.isOverline() ? OVERLINE : 0);
}

/**
 * The whole buffer — scrollback, then the live screen — as lines numbered from 0 (the oldest line
 * kept), for copy mode: search, selection, where the view is.
 */
export type BufferText = {
  /** Lines in the buffer. */
  readonly length: number;
  /** The first line the view shows (it moves when the view is scrolled). */
  readonly viewTop: number;
  /** The first line of the live screen. */
  readonly liveTop: number;
  /** A line's text, trailing spaces trimmed unless the next line continues it (a soft wrap). */
  line(index: number): string;
  /** The line continues the one above it (the terminal wrapped it there). */
  wrapped(index: number): boolean;
};

/**
 * The mouse reporting a program asked for: which events (DECSET 9 x10: presses; 1000 vt200: presses
 * and releases; 1002 drag: and motion with a button down; 1003 any: all motion) and how they are
 * encoded (1006 SGR, 1015 urxvt, 1005 UTF-8, else the legacy `ESC [ M b x y`).
 */
export type MouseMode = {
  readonly tracking: 'none' | 'x10' | 'vt200' | 'drag' | 'any';
  readonly encoding: 'default' | 'sgr' | 'urxvt' | 'utf8';
};

const ENCODINGS: Readonly<Record<number, MouseMode['encoding']>> = { 1005: 'utf8', 1006: 'sgr', 1015: 'urxvt' };

/** Observes DECSET/DECRST and the terminal resets (DECSTR, RIS) without taking them from xterm. */
function observeModes(term: Terminal, onSet: (params: (number | number[])[], on: boolean) => void, onReset: () => void): void {
  const set = (on: boolean) => (params: (number | number[])[]) => {
    onSet(params, on);
    return false;
  };
  term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, set(true));
  term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, set(false));
  const reset = () => {
    onReset();
    return false;
  };
  term.parser.registerCsiHandler({ intermediates: '!', final: 'p' }, reset); // DECSTR
  term.parser.registerEscHandler({ final: 'c' }, reset); // RIS
}

/** Whether the program shows its cursor (DECTCEM). */
export function trackCursorVisible(term: Terminal): () => boolean {
  let visible = true;
  observeModes(
    term,
    (params, on) => {
      if (params.includes(25)) visible = on;
    },
    () => {
      visible = true;
    },
  );
  return () => visible;
}

/**
 * Follows the program's mouse modes: xterm tracks which events (its public `modes`), the encoding is
 * read here from the DECSET/DECRST parameters (the last one set wins; resetting it, a soft or hard
 * reset go back to the legacy encoding).
 */
export function trackMouse(term: Terminal): () => MouseMode {
  let encoding: MouseMode['encoding'] = 'default';
  observeModes(
    term,
    (params, on) => {
      for (const p of params) {
        const named = typeof p === 'number' ? ENCODINGS[p] : undefined;
        if (named !== undefined) encoding = on ? named : encoding === named ? 'default' : encoding;
      }
    },
    () => {
      encoding = 'default';
    },
  );
  return () => ({ tracking: term.modes.mouseTrackingMode, encoding });
}

/**
 * Characters whose width terminals disagree on: multi-unit ones (astral emoji, clusters with
 * variation selectors, ZWJ or combining marks) and wide ones below the CJK blocks (symbols and
 * dingbats with emoji presentation). CJK ideographs and kana are wide everywhere.
 */
export function mayMismeasure(chars: string, width: number): boolean {
  return chars.length > 1 || (width === 2 && chars.charCodeAt(0) < 0x2e80);
}

/**
 * Calls `leave` with each line about to leave the top of `lines` (oldest first), before xterm
 * reuses or drops it: wherever its list trims (a scroll with the buffer full, an insert into a
 * full buffer, a resize's trim, erasing the scrollback). The list is checked in xterm-internals.ts.
 */
export function watchLeaving<L>(lines: LineList<L>, leave: (line: L) => void): void {
  const list = Object.getPrototypeOf(lines) as LineList<L>;
  const first = (count: number, at: (index: number) => L | undefined) => {
    for (let i = 0; i < count; i++) {
      const line = at(i);
      if (line !== undefined) leave(line);
    }
  };
  Object.assign(lines, {
    recycle(this: LineList<L>) {
      const line = this.get(0);
      if (line !== undefined && this.length === this.maxLength) leave(line);
      return list.recycle.call(this);
    },
    push(this: LineList<L>, line: L) {
      if (this.length === this.maxLength) first(1, (i) => this.get(i));
      list.push.call(this, line);
    },
    splice(this: LineList<L>, start: number, deleteCount: number, ...items: L[]) {
      // The list after the delete and the insert, whose first lines past maxLength go.
      const trimmed = this.length - Math.min(deleteCount, Math.max(0, this.length - start)) + items.length - this.maxLength;
      const after = (i: number) =>
        i < start ? this.get(i) : i < start + items.length ? items[i - start] : this.get(i - items.length + deleteCount);
      first(trimmed, after);
      list.splice.call(this, start, deleteCount, ...items);
    },
    trimStart(this: LineList<L>, count: number) {
      first(Math.min(count, this.length), (i) => this.get(i));
      list.trimStart.call(this, count);
    },
    shiftElements(this: LineList<L>, start: number, count: number, offset: number) {
      const trimmed = offset > 0 && count > 0 ? Math.max(this.length, start + count + offset) - this.maxLength : 0;
      const after = (i: number) => (i >= start + offset && i < start + offset + count ? this.get(i - offset) : this.get(i));
      first(trimmed, after);
      list.shiftElements.call(this, start, count, offset);
    },
  });
}
