/**
 * A program in a pseudo-terminal (node-pty), for tests and the bench alike: typed into, its output
 * painted on a virtual screen (xterm's answers to the program's terminal queries written back, as a
 * real terminal would, unless `answerQueries: false`), waited on, and ended with everything it
 * started. Without a screen (`screen: false`, for a flood) only `watch` looks at the output.
 * Two ways to wait: `waitFor` polls any condition (a test's), `until` tests the screen after each
 * output and resolves with that output's arrival time, performance.now() (a measurement's).
 */
import pty from '@lydell/node-pty';
import { eventually, sleep } from '../until.js';
import { VirtualScreen } from './screen.js';
import { alive, descendants, signalAll } from './tree.js';
import { VisibleText } from './visible-text.js';

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Braille spinner glyphs both CLIs put in the window title while busy. */
export const BRAILLE = /[\u2800-\u28ff]/;

export type ProgramOptions = {
  readonly file: string;
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
  /** Whether to answer the program's terminal queries (DSR, DA, OSC 10/11 …). Default true. */
  readonly answerQueries?: boolean;
  /** Whether to paint the output on a screen. Default true. */
  readonly screen?: boolean;
};

type Watch = { readonly text: string; tail: string; resolve: (at: number) => void };

export class Program {
  readonly startedAt = Date.now();
  /** performance.now() when the program was spawned. */
  readonly started: number;
  /** Every window title, in order, with the time it was set. */
  readonly titles: { at: number; title: string }[] = [];
  /** Every OSC 7501 payload (Codex turn state), in order. */
  readonly osc7501: { at: number; data: string }[] = [];
  /** UTF-16 units the program wrote so far. */
  received = 0;
  /** Resolves with the exit code once the program exited. */
  readonly ended: Promise<number>;
  readonly #screen: VirtualScreen | undefined;
  readonly #pty: pty.IPty;
  readonly #visible = new VisibleText();
  readonly #watches = new Set<Watch>();
  readonly #waiters = new Set<(at: number) => void>();
  #exit: { exitCode: number; signal?: number } | null = null;
  #lastOutputAt = Date.now();

  constructor(options: ProgramOptions) {
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    if (options.screen !== false) {
      const screen = new VirtualScreen(cols, rows, 5000);
      screen.term.onTitleChange((title) => this.titles.push({ at: Date.now(), title }));
      screen.term.parser.registerOscHandler(7501, (data) => {
        this.osc7501.push({ at: Date.now(), data });
        return true;
      });
      if (options.answerQueries !== false) screen.term.onData((data) => this.write(data));
      this.#screen = screen;
    }
    this.started = performance.now();
    this.#pty = pty.spawn(options.file, [...(options.args ?? [])], {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd,
      env: options.env,
    });
    this.ended = new Promise<number>((resolve) =>
      this.#pty.onExit(({ exitCode, signal }) => {
        this.#exit = { exitCode, ...(signal ? { signal } : {}) };
        resolve(exitCode);
      }),
    );
    this.#pty.onData((data) => this.#read(data, performance.now()));
  }

  #read(data: string, at: number): void {
    this.received += data.length;
    this.#lastOutputAt = Date.now();
    const text = this.#visible.feed(data);
    for (const w of this.#watches) {
      const seen = w.tail + text;
      if (seen.includes(w.text)) {
        this.#watches.delete(w);
        w.resolve(at);
      } else w.tail = w.text.length > 1 ? seen.slice(1 - w.text.length) : '';
    }
    this.#screen?.write(data, () => {
      for (const w of [...this.#waiters]) w(at);
    });
  }

  get pid(): number {
    return this.#pty.pid;
  }

  get exited(): { exitCode: number; signal?: number } | null {
    return this.#exit;
  }

  get title(): string {
    return this.titles.at(-1)?.title ?? '';
  }

  /** The virtual screen the output is painted on. */
  get virtual(): VirtualScreen {
    if (!this.#screen) throw new Error('this program keeps no screen');
    return this.#screen;
  }

  quietFor(): number {
    return Date.now() - this.#lastOutputAt;
  }

  write(data: string): void {
    if (this.#exit === null) this.#pty.write(data);
  }

  /** Sends text as a bracketed paste. */
  paste(text: string): void {
    this.write(`${PASTE_START}${text}${PASTE_END}`);
  }

  /** Resolves once the screen parsed everything received so far. */
  flush(): Promise<void> {
    return this.#screen ? this.#screen.flush() : Promise.resolve();
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    return this.virtual.viewport();
  }

  /** The visible screen as text (trailing blank rows dropped). */
  screen(): string {
    return this.lines().join('\n').trimEnd();
  }

  /** Scrollback plus screen as text. */
  all(): string {
    return this.virtual.text();
  }

  /** Polls `check` (after the screen caught up) until it returns true; throws with the screen on timeout or exit. */
  async waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<number> {
    const held = async () => {
      await this.flush();
      if (check()) return true;
      if (this.#exit !== null) throw new Error(`${what}: the program exited (${JSON.stringify(this.#exit)})\n${this.screen()}`);
      return undefined;
    };
    await eventually(what, held, timeoutMs, { show: () => `title ${JSON.stringify(this.title)}; screen:\n${this.screen()}` });
    return Date.now();
  }

  /** Waits until `text` is on screen (or in the scrollback if `scrollback`). */
  waitForText(text: string | RegExp, timeoutMs = 10_000, scrollback = false): Promise<number> {
    const has = () => {
      const s = scrollback ? this.all() : this.screen();
      return typeof text === 'string' ? s.includes(text) : text.test(s);
    };
    return this.waitFor(`text ${String(text)}`, has, timeoutMs);
  }

  /** When `text` next shows in the printable output from now on: the time it arrived. Rejects after `ms`. */
  watch(text: string, ms: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#watches.delete(w);
        reject(new Error(`"${text}" was not painted within ${ms} ms`));
      }, ms);
      const w: Watch = {
        text,
        tail: '',
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      this.#watches.add(w);
    });
  }

  /** Resolves with the arrival time of the output after which `test` holds for the visible screen. */
  until(test: (screen: string) => boolean, timeoutMs: number, what: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let settled = false;
      const done = (fn: () => void) => {
        this.#waiters.delete(check);
        clearTimeout(timer);
        if (!settled) fn();
        settled = true;
      };
      const check = (at: number) => {
        if (test(this.screen())) done(() => resolve(at));
      };
      const exited = () => (this.#exit ? ` (exited ${this.#exit.exitCode})` : '');
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${exited()}`))),
        timeoutMs,
      );
      this.#waiters.add(check);
      void this.flush().then(() => (test(this.screen()) ? done(() => resolve(performance.now())) : undefined));
      void this.ended.then(() =>
        setTimeout(() => done(() => reject(new Error(`exited ${this.#exit?.exitCode} before ${what}: ${this.screen().slice(-300)}`))), 200),
      );
    });
  }

  /**
   * Ends the program and everything it started: `signal` to its process group and descendants,
   * then SIGKILL after `graceMs`. Safe to call twice.
   */
  async kill(graceMs = 1500, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const pids = [this.pid, ...descendants(this.pid)];
    signalAll(pids, signal);
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && pids.some(alive)) await sleep(20);
    const all = [...pids, ...descendants(this.pid)];
    signalAll(all, 'SIGKILL');
    const killDeadline = Date.now() + 1000;
    while (Date.now() < killDeadline && all.some(alive)) await sleep(20);
    this.killNow();
    this.#screen?.dispose();
  }

  /** SIGKILL to the program alone, now (synchronous: for an exit handler). */
  killNow(): void {
    try {
      this.#pty.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
}
