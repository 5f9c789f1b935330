/**
 * A pane's lines as one list, numbered from the oldest kept: the compact scrollback (scrollback.ts)
 * above xterm's own buffer; the painted view over them, and marks that follow a line as it scrolls
 * out of xterm. screen.ts's helper.
 */
import { type BufferText, watchLeaving } from './screen-buffer.js';
import { Scrollback } from './scrollback.js';
import type { BufferPosition, CellSlot, ScrollbackHooks } from './xterm-internals.js';

/** A line as the screen reads it, from xterm's buffer or from the scrollback. */
export type ReadLine<C> = {
  readonly length: number;
  readonly isWrapped: boolean;
  getCell(x: number, cell: C): unknown;
  translateToString(trimRight?: boolean): string;
};

/** What is read of the xterm Terminal. */
type Terminal<C> = {
  readonly rows: number;
  readonly cols: number;
  readonly options: { scrollback?: number };
  readonly buffer: {
    readonly active: {
      readonly type: 'normal' | 'alternate';
      readonly length: number;
      readonly baseY: number;
      readonly cursorX: number;
      readonly cursorY: number;
      getLine(y: number): ReadLine<C> | undefined;
      getNullCell(): C;
    };
  };
  registerMarker(offset: number): XtermMarker | undefined;
  readonly parser: { registerCsiHandler(id: { prefix?: string; final: string }, cb: (params: (number | number[])[]) => boolean): unknown };
  resize(cols: number, rows: number): void;
};

/** xterm's marker on a line of its buffer (disposed when the line leaves it). */
type XtermMarker = { readonly line: number; readonly isDisposed: boolean; onDispose(cb: () => void): unknown; dispose(): void };

/** A point in the lines that follows scrolling; `line` is -1 once it is no longer kept. */
export type Mark = { readonly line: number; dispose(): void };

export class ScreenLines<C> {
  readonly #term: Terminal<C>;
  readonly #hooks: ScrollbackHooks | undefined;
  readonly #position: (() => BufferPosition | undefined) | undefined;
  /** xterm's buffers, read once (the getter checks an option on every call). */
  readonly #buffers: Terminal<C>['buffer'];
  /** Scrollback lines xterm itself keeps (the rest go to #kept). */
  readonly #live: number;
  readonly #kept: Scrollback;
  #watched: object | undefined;
  /** Lines the next trims drop instead of keeping: the scrollback being erased (ED3). */
  #erasing = 0;
  /** The last line above the screen when it was last cleared: it and the lines above never come back when it grows (tmux's rule). */
  #cleared: XtermMarker | undefined;
  /** The view's first line, as a count of lines ever kept (so new lines do not move it); null: the live screen. */
  #viewAt: number | null = null;
  readonly #slot: C;

  /**
   * `keep`: lines kept above the live screen, at least; xterm itself holds `live` of them, or all
   * of them without `hooks` (xterm's internals the compact scrollback needs). `position`: xterm's
   * normal buffer, moved when the screen grows (without it, xterm's own rule: see `#grow`).
   */
  constructor(
    term: Terminal<C>,
    keep: number,
    live: number,
    hooks: ScrollbackHooks | undefined,
    position?: () => BufferPosition | undefined,
  ) {
    this.#term = term;
    this.#hooks = hooks;
    this.#position = position;
    this.#buffers = term.buffer;
    this.#live = hooks === undefined ? keep : Math.min(live, keep);
    if (hooks === undefined) term.options.scrollback = this.#live;
    this.#kept = new Scrollback(keep - this.#live);
    this.#slot = this.#buffers.active.getNullCell();
    this.#watch();
    const erase = (selective: boolean) => (params: (number | number[])[]) => {
      if (this.#buffers.active.type !== 'normal') return false;
      if (params[0] === 3) {
        this.#kept.clear();
        this.#erasing = Math.max(0, this.#buffers.active.length - term.rows);
      } else if (!selective) this.#clearing(typeof params[0] === 'number' ? params[0] : 0);
      return false;
    };
    term.parser.registerCsiHandler({ final: 'J' }, erase(false));
    term.parser.registerCsiHandler({ prefix: '?', final: 'J' }, erase(true));
    // A hard reset (RIS) gives xterm new buffers: the history goes, the new list is watched.
    hooks?.onReset(() => {
      this.#kept.clear();
      this.#cleared?.dispose();
      this.#cleared = undefined;
      this.#watch();
    });
  }

  /** Lines above xterm's own: the scrollback's, while the normal buffer is on screen. */
  get #above(): number {
    return this.#buffers.active.type === 'normal' ? this.#kept.length : 0;
  }

  get length(): number {
    return this.#above + this.#buffers.active.length;
  }

  /** The first line of the live screen. */
  get liveTop(): number {
    return this.#above + this.#buffers.active.baseY;
  }

  /** The first line the view shows. */
  get viewTop(): number {
    const live = this.liveTop;
    return this.#viewAt === null ? live : Math.max(0, Math.min(live, this.#viewAt - this.#kept.dropped));
  }

  /** Line `i`, or undefined past the ends. */
  line(i: number): ReadLine<C> | undefined {
    const above = this.#above;
    if (i < 0) return undefined;
    return i < above ? (this.#kept.row(i, this.#slot as CellSlot) as unknown as ReadLine<C>) : this.#buffers.active.getLine(i - above);
  }

  /** Line `i`'s text, trailing spaces trimmed unless the next line continues it (a soft wrap). */
  text(i: number): string {
    return this.line(i)?.translateToString(!(this.line(i + 1)?.isWrapped ?? false)) ?? '';
  }

  /** The lines as copy mode reads them. */
  bufferText(): BufferText {
    const self = this;
    return {
      get length() {
        return self.length;
      },
      get viewTop() {
        return self.viewTop;
      },
      get liveTop() {
        return self.liveTop;
      },
      line: (index) => this.text(index),
      wrapped: (index) => this.line(index)?.isWrapped ?? false,
    };
  }

  /** Moves the view by `lines` (negative: up); back on the live screen when it reaches it. */
  scrollView(lines: number): void {
    this.scrollViewTo(this.viewTop + lines);
  }

  /** The view's first line at `line` (kept within the lines). */
  scrollViewTo(line: number): void {
    const live = this.liveTop;
    const top = Math.max(0, Math.min(live, Math.floor(line)));
    this.#viewAt = top >= live ? null : top + this.#kept.dropped;
  }

  scrollViewToBottom(): void {
    this.#viewAt = null;
  }

  /** How many lines the view is above the live screen. */
  get scrolledBack(): number {
    return this.liveTop - this.viewTop;
  }

  /**
   * A mark on row `row` of the live screen. While the line is in xterm's buffer, xterm's marker
   * follows it; once it leaves for the scrollback it keeps its place there.
   */
  markRow(row: number, cursorRow: number): Mark {
    const marker = this.#term.registerMarker(row - cursorRow);
    const normal = this.#buffers.active.type === 'normal';
    let kept = -1;
    let disposed = marker === undefined;
    // Disposed by a trim: the line's count among all lines kept (the scrollback took it, or it is gone).
    marker?.onDispose(() => {
      if (!disposed && normal) kept = this.#kept.dropped + this.#kept.length + marker.line;
    });
    const self = this;
    return {
      get line() {
        if (disposed || marker === undefined) return -1;
        if (!marker.isDisposed) return (normal ? self.#above : 0) + marker.line;
        const at = kept - self.#kept.dropped;
        return kept >= 0 && at >= 0 && normal ? at : -1;
      },
      dispose: () => {
        disposed = true;
        marker?.dispose();
      },
    };
  }

  /**
   * Resizes xterm. When it gets narrower, xterm rewraps its lines into more rows and would drop
   * the oldest past its limit without trimming them: the limit is raised for the resize, then set
   * back, which trims them into the scrollback. When it gets taller, the rows come first, at the
   * old width (xterm's order, and tmux's).
   */
  resize(cols: number, rows: number): void {
    const term = this.#term;
    if (cols < term.cols) term.options.scrollback = Math.max(this.#live, this.#buffers.active.length * Math.ceil(term.cols / cols));
    if (rows > term.rows) this.#grow(rows);
    term.resize(cols, rows);
    term.options.scrollback = this.#live;
  }

  /**
   * The screen gets taller as a tmux pane does: the lines that left its top since it was last
   * cleared come back down, as many as the new rows, and blank rows fill the rest at the bottom.
   * xterm brings them back only while the cursor is on the last row, and an inline program's cursor
   * is often above it (in its input box): the lines are moved here, and xterm adds only blank rows.
   */
  #grow(rows: number): void {
    const buffer = this.#position?.();
    if (buffer === undefined) return;
    const cleared = this.#cleared === undefined || this.#cleared.isDisposed ? 0 : this.#cleared.line + 1;
    const pull = Math.max(0, Math.min(rows - this.#term.rows, buffer.ybase - cleared));
    const y = buffer.y;
    buffer.ybase -= pull;
    buffer.ydisp = Math.max(0, buffer.ydisp - pull);
    // Above the screen's top, the cursor is never on its last row: xterm pulls no line back itself.
    buffer.y = -1;
    try {
      this.#term.resize(this.#term.cols, rows);
    } finally {
      buffer.y = y + pull;
    }
  }

  /**
   * An erase in display (mode `mode`): tmux scrolls a screen cleared whole (mode 2, or mode 0 from
   * the top left corner) into its history when it has any text, and from then on a pane that grows
   * brings back only lines that scrolled out later.
   */
  #clearing(mode: number): void {
    const buf = this.#buffers.active;
    if (mode !== 2 && !(mode === 0 && buf.cursorX === 0 && buf.cursorY === 0)) return;
    let used = false;
    for (let y = 0; y < this.#term.rows && !used; y++) used = (buf.getLine(buf.baseY + y)?.translateToString(true) ?? '') !== '';
    if (!used) return;
    this.#cleared?.dispose();
    // The last line above the screen (xterm's erase disposes the markers of the lines it clears).
    this.#cleared = buf.baseY > 0 ? this.#term.registerMarker(-buf.cursorY - 1) : undefined;
  }

  #watch(): void {
    const lines = this.#hooks?.normalLines();
    if (lines === undefined || lines === this.#watched) return;
    this.#watched = lines;
    watchLeaving(lines, (line) => {
      if (this.#erasing > 0) {
        this.#erasing--;
        this.#kept.skip();
      } else this.#kept.add(line);
    });
  }
}
