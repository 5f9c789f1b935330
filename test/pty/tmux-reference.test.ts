/**
 * A relevo screen against a real tmux pane, tmux being the reference: the same bytes and the same
 * resizes go to both, and after every step the visible rows are the same. Above all, a pane that
 * shrinks and grows again shows the lines that left its top, as tmux pulls them back from its history.
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Screen } from '../../src/pty/screen.js';
import { LiveDisplay } from '../../src/sim/display.js';
import type { RegionView } from '../../src/sim/screen.js';
import { tempDir } from '../helpers/cli.js';
import { rng } from '../helpers/random-output.js';
import { capture, freshTmuxServers, tmux } from '../helpers/tui-tmux.js';
import { eventually } from '../helpers/until.js';

freshTmuxServers();

let dir = '';
beforeAll(() => {
  dir = tempDir('relevo-tmux-reference-');
  vi.stubEnv('TMUX_TMPDIR', dir);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** One program's output twice: in a tmux pane (`cat` of a fifo, the tty in raw mode) and in a relevo screen. */
class Twin {
  readonly screen: Screen;
  readonly #fd: number;
  #step = 0;
  /** What was done so far, for a failure's message. */
  readonly #done: string[] = [];

  private constructor(screen: Screen, fd: number) {
    this.screen = screen;
    this.#fd = fd;
  }

  static async open(cols: number, rows: number): Promise<Twin> {
    const fifo = join(tempDir('relevo-twin-'), 'bytes');
    await execa('mkfifo', [fifo]);
    // Read-write: opening never waits for cat, and cat never sees an end of file.
    const fd = openSync(fifo, 'r+');
    const line = `stty raw -echo; exec cat <> ${quote([fifo])}`;
    const r = await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'relevo', '-x', String(cols), '-y', String(rows), line);
    expect(r.exitCode, r.stderr).toBe(0);
    await tmux('set-option', '-w', '-t', 'relevo', 'window-size', 'manual');
    await eventually('cat in the tmux pane', async () =>
      (await tmux('display', '-p', '-t', 'relevo', '#{pane_current_command}')).stdout === 'cat' ? true : undefined,
    );
    return new Twin(new Screen({ cols, rows }), fd);
  }

  /** Writes `bytes` to both; resolves once tmux has parsed them (a title set after them has arrived). */
  async write(bytes: string, what = `${JSON.stringify(bytes).slice(0, 60)}`): Promise<void> {
    const title = `relevo step ${++this.#step}`;
    const data = `${bytes}\x1b]2;${title}\x07`;
    this.#done.push(`write ${what}`);
    writeSync(this.#fd, data);
    await this.screen.write(data);
    await eventually(`tmux to parse step ${this.#step}`, async () =>
      (await tmux('display', '-p', '-t', 'relevo', '#{pane_title}')).stdout === title ? true : undefined,
    );
  }

  /** Resizes both, checking that tmux's pane took the size. */
  async resize(cols: number, rows: number): Promise<void> {
    this.#done.push(`resize ${cols}×${rows}`);
    const r = await tmux('resize-window', '-t', 'relevo', '-x', String(cols), '-y', String(rows));
    expect(r.exitCode, r.stderr).toBe(0);
    expect((await tmux('display', '-p', '-t', 'relevo', '#{pane_width}x#{pane_height}')).stdout).toBe(`${cols}x${rows}`);
    this.screen.resize(cols, rows);
  }

  /** tmux's visible rows and the screen's, trailing spaces trimmed (capture-pane trims them). */
  async rows(): Promise<{ readonly tmux: string[]; readonly relevo: string[] }> {
    const shown = (await capture()).split('\n');
    const tmuxRows = Array.from({ length: this.screen.rows }, (_, y) => (shown[y] ?? '').trimEnd());
    return { tmux: tmuxRows, relevo: this.screen.snapshot().viewport.map((row) => row.trimEnd()) };
  }

  /** Both show the same rows. */
  async same(): Promise<void> {
    const { tmux: expected, relevo } = await this.rows();
    expect(relevo, `after: ${this.#done.join(', ')}`).toEqual(expected);
  }

  close(): void {
    closeSync(this.#fd);
    this.screen.dispose();
  }
}

let twin: Twin | undefined;
afterEach(() => {
  twin?.close();
  twin = undefined;
});

async function open(cols: number, rows: number): Promise<Twin> {
  twin = await Twin.open(cols, rows);
  return twin;
}

/** `count` numbered lines of a program's output, as it writes them (CRLF: the tty does not translate). */
const numbered = (count: number, width: number) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1} ${'abcdefghij'.repeat(10)}`.slice(0, width)).join('\r\n');

describe('a relevo screen against tmux', () => {
  it('shows again the lines that left its top when it grows back', async () => {
    const t = await open(100, 40);
    await t.write(`${numbered(60, 90)}\r\n`);
    await t.same();
    await t.resize(80, 8);
    await t.same();
    await t.resize(100, 40);
    await t.same();
    expect(t.screen.snapshot().viewport[0]).toMatch(/^line 22 /);
  });

  it('rewraps the lines when it narrows and widens again', async () => {
    const t = await open(100, 40);
    await t.write(`${numbered(60, 95)}\r\n`);
    await t.resize(30, 8);
    await t.same();
    await t.resize(70, 20);
    await t.same();
    await t.resize(100, 40);
    await t.same();
  });

  it.each([
    ['2J', '\x1b[2J\x1b[H'],
    ['J from the top left corner', '\x1b[H\x1b[J'],
  ])('brings back no line from before a clear of the whole screen (%s), only those that scrolled out after it', async (_, clear) => {
    const t = await open(100, 20);
    await t.write(`${numbered(60, 90)}\r\n${clear}${numbered(25, 30)}\r\nafter\x1b[A`);
    await t.resize(100, 5);
    await t.same();
    await t.resize(100, 40);
    await t.same();
  });

  it('an inline program whose live region is redrawn at every size (the sim agent) shows its transcript again', async () => {
    const t = await open(100, 40);
    const out = { columns: 100, write: (text: string) => void pending.push(text) };
    const pending: string[] = [];
    const flush = async (what: string) => t.write(pending.splice(0).join(''), what);
    const display = new LiveDisplay(out, { name: 'sim', role: 'planner' });
    const idle: RegionView = { kind: 'idle', input: '', pasteId: 0 };
    const busy: RegionView = { kind: 'busy', input: '', pasteId: 0, frame: 3, elapsedMs: 4000 };
    display.start();
    display.draw(idle, null, ['✻ relevo sim-agent · planner', '']);
    await flush('the banner and the input box');
    const transcript = Array.from({ length: 30 }, (_, i) => `● step ${i + 1}: ${'the plan goes on '.repeat(1 + (i % 5))}`.trimEnd());
    display.draw(busy, 3, transcript);
    await flush('30 transcript lines, busy');
    display.draw(idle, null, ['✻ Worked for 4s', '']);
    await flush('idle again');
    await t.same();
    for (const [cols, rows] of [
      [60, 12],
      [100, 40],
      [40, 6],
      [100, 40],
    ] as const) {
      await t.resize(cols, rows);
      out.columns = cols;
      display.resize();
      display.draw(idle, null);
      await flush(`redrawn at ${cols}×${rows}`);
      await t.same();
    }
  });

  // The program fills more than the tallest screen first, parks its cursor only in an input box of
  // lines narrower than the narrowest screen, and leaves the box before it writes on: tmux and xterm
  // keep the rows of a screen with no scrollback, and a soft wrap a line feed ends, by rules of their
  // own (xterm's Buffer._reflowSmaller; tmux's screen_write_linefeed keeps GRID_LINE_WRAPPED), not this walk's subject.
  it.each([1, 7, 9])('seed %i: printed lines and resizes at random, compared after every step', async (seed) => {
    const r = rng(seed);
    const size = (): [number, number] => [20 + r(181), 5 + r(56)];
    const [cols, rows] = size();
    const t = await open(cols, rows);
    const word = () => ['alpha', 'beta', 'gamma', '日本語', 'x'.repeat(1 + r(30)), String(r(1000))][r(6)]!;
    const line = () => Array.from({ length: 1 + r(r(4) === 0 ? 60 : 8) }, word).join(' ');
    const lines = (n: number) => Array.from({ length: n }, line).join('\r\n');
    await t.write(`${lines(80)}\r\n`, '80 lines');
    let boxed = false;
    for (let step = 0; step < 16; step++) {
      if (r(2) === 0) await t.resize(...size());
      else {
        // Below the input box, if one is drawn, then lines; now and then a box again, the cursor on its prompt.
        const below = boxed ? '\x1b[2B\r\n' : '';
        boxed = r(3) === 0;
        const box = boxed ? `${'─'.repeat(18)}\r\n❯ ${'ab'.repeat(r(8))}\r\n${'─'.repeat(18)}\r\n  ? for help\x1b[2A\r` : '';
        await t.write(`${below}${lines(1 + r(25))}\r\n${box}`, boxed ? 'lines and an input box' : 'lines');
      }
      await t.same();
    }
  });
});
