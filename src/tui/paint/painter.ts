import type { Cursor, Screen, Span } from '../../pty/screen.js';

/** A rectangle on the real terminal, 0-based cells. */
export type Rect = { readonly top: number; readonly left: number; readonly width: number; readonly height: number };

/** Where frames go: `process.stdout`, or anything with a `write(string)`. */
export type Sink = { write(chunk: string): unknown };

export type PainterOptions = {
  /** Frame-rate cap (default 30): at most one paint every `1000 / fps` ms. */
  readonly fps?: number;
  /** Clock, for tests; defaults to `performance.now()`. */
  readonly now?: () => number;
  /**
   * Appended to each frame after the cursor restore, still inside the synchronized-output
   * bracket — e.g. the focused pane's `cursorSequence(true)`, so the cursor moves atomically. A
   * paint with no row changed writes it alone when it is not empty (the program only moved its
   * cursor): the trailer answers '' when the cursor is already where it says.
   */
  readonly trailer?: () => string;
  /** Columns of a screen row (of its view) to draw in reverse video: copy mode's selection and match. */
  readonly invert?: (row: number) => readonly Span[] | undefined;
  /** Whether `invert` may answer for any row now (copy mode is on this pane); asked once a frame. */
  readonly inverting?: () => boolean;
};

export type PainterStats = {
  /** Frames written (a paint with no damage writes nothing and is not counted). */
  readonly frames: number;
  /** Rows rewritten, over all frames. */
  readonly rows: number;
  /** UTF-8 bytes written, escape sequences included. */
  readonly bytes: number;
};

const SYNC_BEGIN = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const SAVE_CURSOR = '\x1b7';
const RESTORE_CURSOR = '\x1b8';
const SGR_RESET = '\x1b[0m';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const moveTo = (row: number, col: number) => `\x1b[${row + 1};${col + 1}H`;

/**
 * Paints a pane's headless screen into a rectangle of the real terminal (its bottom rows when
 * taller), no layout engine: only rows whose rendering changed, cursor-addressed, in synchronized
 * output between DECSC/DECRC so another writer's cursor and SGR stay. `schedule()` caps the frame
 * rate with a timer that exists only while a paint is pending: an idle pane costs nothing.
 */
export class PanePainter {
  readonly #out: Sink;
  readonly #screen: Screen;
  readonly #interval: number;
  readonly #now: () => number;
  readonly #trailer: (() => string) | undefined;
  readonly #invert: PainterOptions['invert'];
  readonly #inverting: () => boolean;
  #rect: Rect;
  /** What each rectangle row shows on the real terminal, as last written; undefined = unknown. */
  #painted: (string | undefined)[];
  /** The pending paint: an immediate (the frame slot is open) or a timeout (it opens later). */
  #timer: { readonly cancel: () => void } | undefined;
  /** The screen's echo version last painted. */
  #echoPainted = 0;
  #lastPaintAt = -Infinity;
  #disposed = false;
  /** The rows cut off above (see `#cut`), for the screen version and height in `#cutFor`. */
  #cutFor = '';
  #cutRows = 0;
  /** The window of the last paint (rows cut above, columns cut on the left), and whether it drew any row in reverse video. */
  #lastCut = 0;
  #lastLeft = 0;
  #inverted = false;
  #frames = 0;
  #rows = 0;
  #bytes = 0;

  constructor(out: Sink, screen: Screen, rect: Rect, options: PainterOptions = {}) {
    this.#out = out;
    this.#screen = screen;
    this.#rect = normalize(rect);
    this.#painted = new Array<string | undefined>(this.#rect.height);
    // Echoes from before it existed are in the screen it paints whole: none is painted out of turn (before a relayout's clear).
    this.#echoPainted = screen.echoVersion;
    this.#interval = 1000 / Math.max(1, options.fps ?? 30);
    this.#now = options.now ?? (() => performance.now());
    this.#trailer = options.trailer;
    this.#invert = options.invert;
    this.#inverting = options.inverting ?? (() => true);
  }

  get rect(): Rect {
    return this.#rect;
  }

  /** A paint is waiting for its frame slot (a timer is armed). */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  get stats(): PainterStats {
    return { frames: this.#frames, rows: this.#rows, bytes: this.#bytes };
  }

  /**
   * The screen may have changed: paint on an immediate (a burst of calls makes one frame; a timeout
   * would wait Node's minimum delay) if the last paint is older than a frame, else once a frame has
   * passed. Calls while a paint is pending are free; a keystroke's echo is painted right here.
   */
  schedule(): void {
    if (this.#disposed) return;
    // Even inside the frame cap: one frame per keystroke.
    if (this.#screen.echoVersion > this.#echoPainted) {
      this.paint();
      return;
    }
    if (this.#timer !== undefined) return;
    const wait = this.#lastPaintAt + this.#interval - this.#now();
    const run = () => {
      this.#timer = undefined;
      this.paint();
    };
    if (wait <= 0) {
      const immediate = setImmediate(run);
      this.#timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(run, wait);
      this.#timer = { cancel: () => clearTimeout(timeout) };
    }
  }

  /**
   * Paints now, ignoring the frame cap, and cancels a pending paint. Writes nothing when no row
   * changed. Returns whether a frame was written.
   */
  paint(): boolean {
    this.#cancel();
    if (this.#disposed) return false;
    this.#lastPaintAt = this.#now();
    this.#echoPainted = this.#screen.echoVersion;
    const rows = this.damage();
    const trailer = this.#trailer?.() ?? '';
    if (rows === '' && trailer === '') return false;
    const frame = SYNC_BEGIN + (rows === '' ? '' : SAVE_CURSOR + SGR_RESET + rows + RESTORE_CURSOR) + trailer + SYNC_END;
    this.#out.write(frame);
    this.#frames++;
    this.#bytes += Buffer.byteLength(frame);
    return true;
  }

  /**
   * The changed rows as cursor-addressed writes (each ends with an SGR reset), without brackets,
   * cursor save/restore or the leading SGR reset — and records them as painted. For a caller that
   * composes one frame out of several writers (e.g. appends this after Ink's own output); the
   * caller must then write it, starting from default SGR attributes.
   */
  damage(): string {
    if (this.#disposed) return '';
    const { top, left, width, height } = this.#rect;
    const cut = this.#cut();
    const from = this.#left();
    // Rows xterm did not touch are not rendered again — unless the view is scrolled back, the window
    // moved or copy mode's reverse video was on (then every row is).
    const changed = this.#screen.takeDamage();
    const every = this.#screen.scrolledBack !== 0 || cut !== this.#lastCut || from !== this.#lastLeft || this.#inverted;
    this.#lastCut = cut;
    this.#lastLeft = from;
    this.#inverted = false;
    let out = '';
    let count = 0;
    const inverting = this.#invert !== undefined && this.#inverting();
    for (let y = 0; y < height; y++) {
      const invert = inverting ? this.#invert?.(cut + y) : undefined;
      if (invert !== undefined) this.#inverted = true;
      const same = !every && invert === undefined && this.#painted[y] !== undefined && (cut + y < changed.from || cut + y > changed.to);
      if (same) continue;
      const row = this.#screen.styledRow(cut + y, width, from, left, invert);
      if (row === this.#painted[y]) continue;
      this.#painted[y] = row;
      out += moveTo(top + y, left) + row;
      count++;
    }
    this.#rows += count;
    return out;
  }

  /** Forget what the terminal shows (it was cleared or overdrawn): the next paint rewrites every row. Schedules it. */
  invalidate(): void {
    this.#painted.fill(undefined);
    this.schedule();
  }

  /** Moves or resizes the rectangle; the next (scheduled) paint rewrites all of it. */
  resize(rect: Rect): void {
    this.#rect = normalize(rect);
    this.#painted = new Array<string | undefined>(this.#rect.height);
    this.schedule();
  }

  /**
   * For the focused pane, the sequence that puts the real cursor where the program's cursor is and
   * shows it; otherwise — or when the program hid its cursor, or it falls outside the rectangle —
   * the sequence that hides it. `at`: another cursor to show instead (copy mode's), on the view.
   */
  cursorSequence(focused: boolean, at: Cursor = this.#screen.cursor()): string {
    if (!focused) return HIDE_CURSOR;
    const { visible } = at;
    const row = at.row - this.#cut();
    const col = at.col - this.#left();
    const { top, left, width, height } = this.#rect;
    if (!visible || row < 0 || row >= height || col < 0 || col >= width) return HIDE_CURSOR;
    return moveTo(top + row, left + col) + SHOW_CURSOR;
  }

  /**
   * The part of the screen the rectangle shows: the rows cut off above and the columns cut off on
   * the left. Both are 0 unless the screen is larger than the rectangle (a CLI kept at its minimum
   * size, a tmux or Herdr pane whose size relevo does not set).
   */
  get window(): { readonly top: number; readonly left: number } {
    return { top: this.#cut(), left: this.#left() };
  }

  /**
   * The screen's rows left out above the rectangle: none, unless the screen is taller and its text
   * or cursor reaches below the rectangle; then as many as it takes to show the last row in use,
   * where an agent's input box is.
   */
  #cut(): number {
    const over = this.#screen.rows - this.#rect.height;
    if (over <= 0) return 0;
    const key = `${this.#screen.version}:${this.#rect.height}`;
    if (this.#cutFor !== key) {
      const last = Math.max(
        this.#screen.cursorRow,
        this.#screen.snapshot().viewport.findLastIndex((row) => row !== ''),
      );
      this.#cutFor = key;
      this.#cutRows = Math.min(over, Math.max(0, last + 1 - this.#rect.height));
    }
    return this.#cutRows;
  }

  /**
   * The screen's columns left out on the left: none, unless the screen is wider and its cursor is
   * past the rectangle's right edge; then as many as it takes to show the cursor (as tmux pans a
   * window larger than its client).
   */
  #left(): number {
    const over = this.#screen.cols - this.#rect.width;
    if (over <= 0) return 0;
    return Math.min(over, Math.max(0, this.#screen.cursor().col + 1 - this.#rect.width));
  }

  /** Cancels a pending paint; later calls do nothing. Does not dispose the screen. */
  dispose(): void {
    this.#cancel();
    this.#disposed = true;
  }

  #cancel(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }
}

function normalize(rect: Rect): Rect {
  const int = (n: number) => Math.max(0, Math.floor(n));
  return { top: int(rect.top), left: int(rect.left), width: int(rect.width), height: int(rect.height) };
}
