import unicode11 from '@xterm/addon-unicode11';
import xtermHeadless from '@xterm/headless';
import type { ScreenRow } from '../protocol/index.js';
import { DamageTracker, type RowRange } from './damage.js';
import { type BufferText, type MouseMode, trackCursorVisible, trackMouse } from './screen-buffer.js';
import { type Mark, ScreenLines } from './screen-lines.js';
import { DEFAULT_SGR, type Sgr } from './sgr.js';
import { renderRow, type Span } from './styled-row.js';
import { xtermInternals } from './xterm-internals.js';

export type { RowRange } from './damage.js';
export type { BufferText, MouseMode } from './screen-buffer.js';
export type { Mark } from './screen-lines.js';

const { Terminal } = xtermHeadless;
type XTerminal = InstanceType<typeof Terminal>;
type XCell = ReturnType<XTerminal['buffer']['active']['getNullCell']>;

export type ScreenOptions = {
  readonly cols: number;
  readonly rows: number;
  readonly scrollback?: number;
  /** OSC numbers (besides the title) whose last payload is kept. */
  readonly osc?: readonly number[];
};

/** What the detector reads: the visible screen, trailing spaces trimmed, and the OSC state. */
export type Snapshot = {
  readonly viewport: readonly string[];
  readonly title: string;
  readonly osc: ReadonlyMap<number, string>;
};

export type { Span } from './styled-row.js';

/** The program's cursor on the visible screen; `visible` is DECTCEM (`CSI ? 25 h/l`) and on-screen. */
export type Cursor = { readonly row: number; readonly col: number; readonly visible: boolean };

/** Scrollback lines xterm itself holds (and rewraps on a resize); older ones are kept compactly (scrollback.ts). */
const XTERM_SCROLLBACK = 500;

/**
 * A headless xterm fed with an agent's output bytes (xterm decodes UTF-8 as a stream), Unicode 11
 * widths, at least 10,000 lines of scrollback (the newest in xterm, the rest compactly:
 * screen-lines.ts). The only module that imports @xterm/headless; its helpers see it by shape,
 * its internals through xterm-internals.ts.
 */
export class Screen {
  readonly #term: XTerminal;
  readonly #osc = new Map<number, string>();
  #title = '';
  #version = 0;
  /** Keys were typed and no output has come since. */
  #typed = false;
  #echoVersion = 0;
  #pending = Promise.resolve();
  /** DECTCEM, followed through parser hooks (xterm's own flag is not public API). */
  readonly #cursorVisible: () => boolean;
  #cell: XCell | undefined;
  readonly #sgr: Sgr = { ...DEFAULT_SGR };
  readonly #mouse: () => MouseMode;
  readonly #lines: ScreenLines<XCell>;
  /** xterm's buffers (its getter checks the proposed-API option on every call: read once). */
  readonly #buffers: XTerminal['buffer'];
  /** The whole buffer's lines (scrollback and live screen), for copy mode. */
  readonly text: BufferText;
  readonly #damage: DamageTracker;

  constructor(options: ScreenOptions) {
    const keep = Math.max(options.scrollback ?? 10_000, 10_000);
    this.#term = new Terminal({ cols: options.cols, rows: options.rows, scrollback: XTERM_SCROLLBACK, allowProposedApi: true });
    this.#buffers = this.#term.buffer;
    this.#term.loadAddon(new unicode11.Unicode11Addon());
    this.#term.unicode.activeVersion = '11';
    this.#term.onTitleChange((title) => {
      this.#title = title;
    });
    this.#cursorVisible = trackCursorVisible(this.#term);
    this.#mouse = trackMouse(this.#term);
    const internals = xtermInternals(this.#term);
    this.#lines = new ScreenLines<XCell>(this.#term, keep, XTERM_SCROLLBACK, internals.scrollback, internals.position);
    this.text = this.#lines.bufferText();
    this.#damage = new DamageTracker(this.#term, internals.onRefreshRows);
    for (const code of options.osc ?? []) {
      this.#term.parser.registerOscHandler(code, (data) => {
        this.#osc.set(code, data);
        return true;
      });
    }
  }

  /**
   * Feeds bytes; resolves once parsed. Parsed in this call (unless earlier writes wait behind an
   * async handler) through xterm's user-input path: xterm would start it on a timeout, and a flood's
   * batches piled up into slices a keystroke's echo waited behind. A throw in `parsed` is rethrown
   * on its own, never into xterm's write loop.
   */
  write(data: Uint8Array | string, parsed?: () => void): Promise<void> {
    this.#version++;
    if (this.#typed) this.#echoVersion = this.#version;
    this.#typed = false;
    this.#term.input('', true);
    const done = new Promise<void>((resolve) =>
      this.#term.write(data, () => {
        try {
          parsed?.();
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
        resolve();
      }),
    );
    this.#pending = done;
    return done;
  }

  /** Keys were just typed: the program's next output is their echo (see `echoVersion`). */
  typed(): void {
    this.#typed = true;
  }

  /**
   * The version of the first write after keys were typed (the echo): a painter shows it without
   * waiting for its frame slot — at most one early frame per keystroke, so a flood keeps its cap.
   */
  get echoVersion(): number {
    return this.#echoVersion;
  }

  /** Resolves when everything written so far is parsed. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /** Increments on every write: a cheap "did anything change" check. */
  get version(): number {
    return this.#version;
  }

  get cols(): number {
    return this.#term.cols;
  }

  get rows(): number {
    return this.#term.rows;
  }

  /** The live screen's rows changed since the last call (a painter's; see DamageTracker). */
  takeDamage(): RowRange {
    return this.#damage.take();
  }

  get title(): string {
    return this.#title;
  }

  /** DECSET 2004: the program wants pastes wrapped in `ESC[200~ … ESC[201~`. */
  get bracketedPaste(): boolean {
    return this.#term.modes.bracketedPasteMode;
  }

  /** The mouse reporting the program asked for (DECSET 9/1000/1002/1003, encoded as 1005/1006/1015 say). */
  get mouse(): MouseMode {
    return this.#mouse();
  }

  get altScreen(): boolean {
    return this.#buffers.active.type === 'alternate';
  }

  snapshot(): Snapshot {
    const buf = this.#buffers.active;
    const viewport: string[] = [];
    // The live screen (the bottom of the buffer), wherever a person has scrolled the view.
    for (let y = 0; y < this.#term.rows; y++) viewport.push(buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
    return { viewport, title: this.#title, osc: new Map(this.#osc) };
  }

  /** Rows from absolute line `from` to the end of the screen, with soft-wrap flags. */
  rowsFrom(from: number): ScreenRow[] {
    const end = this.#lines.liveTop + this.#term.rows;
    const rows: ScreenRow[] = [];
    for (let i = Math.max(0, from); i < end; i++) {
      const line = this.#lines.line(i);
      if (!line) continue;
      // Keep the trailing spaces of a row that wraps on, or the space at the wrap point is lost.
      const continues = this.#lines.line(i + 1)?.isWrapped ?? false;
      rows.push({ text: line.translateToString(!continues), wrapped: line.isWrapped });
    }
    return rows;
  }

  /** Row of the cursor on the visible screen. */
  get cursorRow(): number {
    return this.#buffers.active.cursorY;
  }

  /** A mark on row `row` of the visible screen, following it as the screen scrolls (a line of `text`). */
  markRow(row: number): Mark {
    return this.#lines.markRow(row, this.#buffers.active.cursorY);
  }

  /**
   * The program's cursor on the visible screen (0-based). `col` is clamped to the last column
   * (xterm parks it one past the edge after a write to the last column, until the wrap).
   * `visible` is false when the program hid it (DECTCEM) or the viewport does not show its row.
   */
  cursor(): Cursor {
    const buf = this.#buffers.active;
    const row = this.#lines.liveTop + buf.cursorY - this.#lines.viewTop;
    const col = Math.min(buf.cursorX, this.#term.cols - 1);
    return { row, col, visible: this.#cursorVisible() && row >= 0 && row < this.#term.rows };
  }

  /**
   * Row `y` of the visible screen as `width` columns from `from`, for a real terminal: text with SGR
   * sequences where the rendition changes (from default attributes, ending with `ESC[0m`); a wide
   * character cut by an edge, and columns past the screen, are spaces. Underline styles and
   * hyperlinks are not rendered (not in xterm's public cell API). `anchor`: the real terminal's
   * column of the row, to re-sync the cursor after each character it may measure otherwise than
   * xterm (see styled-row.ts). `invert`: columns drawn in reverse video (copy mode's selection).
   */
  styledRow(y: number, width: number, from = 0, anchor?: number, invert?: readonly Span[]): string {
    const line = y >= 0 && y < this.#term.rows ? this.#lines.line(this.#lines.viewTop + y) : undefined;
    this.#cell ??= this.#buffers.active.getNullCell();
    return renderRow(line, this.#cell, this.#sgr, { width, from, anchor, invert });
  }

  /** Moves the painted view into the scrollback (negative = up); the live screen read by detection is unaffected. */
  scrollView(lines: number): void {
    this.#lines.scrollView(lines);
    this.#damage.all();
  }

  /** Scrolls the painted view so that its first row is buffer line `line` (see `text`). */
  scrollViewTo(line: number): void {
    this.#lines.scrollViewTo(line);
    this.#damage.all();
  }

  /** Back to the live screen. */
  scrollViewToBottom(): void {
    this.#lines.scrollViewToBottom();
    this.#damage.all();
  }

  /** How many lines the painted view is above the live screen. */
  get scrolledBack(): number {
    return this.#lines.scrolledBack;
  }

  resize(cols: number, rows: number): void {
    this.#lines.resize(cols, rows);
  }

  dispose(): void {
    this.#term.dispose();
  }
}
