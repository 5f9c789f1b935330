// Test helper: an @xterm/headless terminal that records titles and reads back the screen.
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

export class VirtualScreen {
  readonly term: InstanceType<typeof Terminal>;
  readonly titles: string[] = [];

  constructor(cols: number, rows: number) {
    this.term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
    this.term.onTitleChange((title) => this.titles.push(title));
  }

  write(data: string | Uint8Array): void {
    this.term.write(data);
  }

  /** Resolves once everything written so far has been parsed. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  /** Every row, scrollback included, right-trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i += 1) out.push(buffer.getLine(i)?.translateToString(true) ?? '');
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
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

  get title(): string {
    return this.titles[this.titles.length - 1] ?? '';
  }
}

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  describe: () => string = () => '',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
