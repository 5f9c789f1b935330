import xtermHeadless from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import type { ScreenRow } from '../protocol/index.js';

const { Terminal } = xtermHeadless;
type XTerminal = InstanceType<typeof Terminal>;
type XMarker = ReturnType<XTerminal['registerMarker']>;

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

/** A point in the buffer that follows scrolling; `line` is -1 once it was trimmed off the scrollback. */
export type Mark = { readonly line: number; dispose(): void };

/**
 * A headless xterm fed with an agent's output bytes (UTF-8 decoded as a stream by xterm),
 * Unicode 11 widths, ≥ 10,000 lines of scrollback. The only place that knows @xterm/headless.
 */
export class Screen {
  readonly #term: XTerminal;
  readonly #osc = new Map<number, string>();
  #title = '';
  #version = 0;
  #pending = Promise.resolve();

  constructor(options: ScreenOptions) {
    this.#term = new Terminal({
      cols: options.cols,
      rows: options.rows,
      scrollback: Math.max(options.scrollback ?? 10_000, 10_000),
      allowProposedApi: true,
    });
    this.#term.loadAddon(new unicode11.Unicode11Addon());
    this.#term.unicode.activeVersion = '11';
    this.#term.onTitleChange((title) => {
      this.#title = title;
    });
    for (const code of options.osc ?? []) {
      this.#term.parser.registerOscHandler(code, (data) => {
        this.#osc.set(code, data);
        return true;
      });
    }
  }

  /** Feeds bytes; resolves once xterm has parsed them. */
  write(data: Uint8Array | string): Promise<void> {
    this.#version++;
    const done = new Promise<void>((resolve) => this.#term.write(data, resolve));
    this.#pending = done;
    return done;
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

  get title(): string {
    return this.#title;
  }

  /** DECSET 2004: the program wants pastes wrapped in `ESC[200~ … ESC[201~`. */
  get bracketedPaste(): boolean {
    return this.#term.modes.bracketedPasteMode;
  }

  get altScreen(): boolean {
    return this.#term.buffer.active.type === 'alternate';
  }

  snapshot(): Snapshot {
    const buf = this.#term.buffer.active;
    const viewport: string[] = [];
    for (let y = 0; y < this.#term.rows; y++) viewport.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
    return { viewport, title: this.#title, osc: new Map(this.#osc) };
  }

  /** Rows from absolute line `from` to the end of the screen, with soft-wrap flags. */
  rowsFrom(from: number): ScreenRow[] {
    const buf = this.#term.buffer.active;
    const end = buf.baseY + this.#term.rows;
    const rows: ScreenRow[] = [];
    for (let i = Math.max(0, from); i < end; i++) {
      const line = buf.getLine(i);
      if (!line) continue;
      // Keep the trailing spaces of a row that wraps on, or the space at the wrap point is lost.
      const continues = buf.getLine(i + 1)?.isWrapped ?? false;
      rows.push({ text: line.translateToString(!continues), wrapped: line.isWrapped });
    }
    return rows;
  }

  /** Row of the cursor on the visible screen. */
  get cursorRow(): number {
    return this.#term.buffer.active.cursorY;
  }

  /** A mark on row `row` of the visible screen, following it as the screen scrolls. */
  markRow(row: number): Mark {
    const marker: XMarker | undefined = this.#term.registerMarker(row - this.#term.buffer.active.cursorY);
    return {
      get line() {
        return marker && !marker.isDisposed ? marker.line : -1;
      },
      dispose: () => marker?.dispose(),
    };
  }

  resize(cols: number, rows: number): void {
    this.#term.resize(cols, rows);
  }

  dispose(): void {
    this.#term.dispose();
  }
}
