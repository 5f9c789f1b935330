/**
 * A virtual screen: an @xterm/headless terminal that output is written to, read back as text (the
 * viewport, or with the scrollback), with the window titles it was given and its cursor. The one
 * module of the test tree and the bench that imports @xterm/headless for that.
 */
import xtermHeadless from '@xterm/headless';
import { until } from '../until.js';

const { Terminal } = xtermHeadless;

export class VirtualScreen {
  readonly term: InstanceType<typeof Terminal>;
  /** Every window title, in order. */
  readonly titles: string[] = [];
  /** Writes parsed so far: changes whenever the screen may have. */
  version = 0;

  constructor(cols: number, rows: number, scrollback = 1000) {
    this.term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.term.onTitleChange((title) => this.titles.push(title));
  }

  get rows(): number {
    return this.term.rows;
  }

  /** Writes output to the screen; `parsed` runs once xterm has parsed it. */
  write(data: string | Uint8Array, parsed?: () => void): void {
    this.term.write(data, () => {
      this.version++;
      parsed?.();
    });
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** Every row, scrollback included, right-trimmed, trailing blank rows dropped. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i += 1) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
  }

  /** The visible rows, one string per row, right-trimmed. */
  viewport(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  text(): string {
    return this.lines().join('\n');
  }

  /** The cursor's row (absolute, scrollback included), column and the text of its row. */
  cursor(): { row: number; col: number; line: string } {
    const buffer = this.term.buffer.active;
    const row = buffer.baseY + buffer.cursorY;
    return { row, col: buffer.cursorX, line: buffer.getLine(row)?.translateToString(true) ?? '' };
  }

  /** Waits until `text` is on the screen (scrollback included); the error on timeout shows the screen. */
  async waitForText(text: string | RegExp, ms = 10_000): Promise<void> {
    const shown = () => (typeof text === 'string' ? this.text().includes(text) : text.test(this.text()));
    try {
      await until(`text ${String(text)}`, shown, ms);
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; screen:\n${this.text()}`);
    }
  }

  get title(): string {
    return this.titles[this.titles.length - 1] ?? '';
  }

  dispose(): void {
    this.term.dispose();
  }
}
