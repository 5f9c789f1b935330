/**
 * The bench's own terminals: a program (relevo's TUI, a tmux client, a stand-in agent) started in a
 * pseudo-terminal the bench owns, with the arrival time (performance.now()) of the output that
 * showed what the bench waits for. Two ways to look: `watch` finds a text in the output's printable
 * characters from now on (cheap: for echoed keys and flood markers), and `until` tests the painted
 * screen, read through a headless terminal (whatever escapes and cursor moves drew it) — the screen
 * is kept unless `screen: false` (a flood would spend the bench's CPU on it). Killed on cleanup.
 */
import { fileURLToPath } from 'node:url';
import { type IPty, ptyDriver } from '../pty/pty-driver.js';
import { Screen } from '../pty/screen.js';
import { onCleanup, sleep } from './cleanup.js';
import { VisibleText } from './visible-text.js';

/** The built command (`npm run build` first); the same path from src/bench and dist/bench. */
export const BIN = fileURLToPath(new URL('../../bin/relevo-tui.js', import.meta.url));
/** The size of the bench's terminals. */
export const COLS = 160;
export const ROWS = 40;

export type TerminalOptions = { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly screen?: boolean };

type Watch = { readonly text: string; tail: string; resolve: (at: number) => void };

export class BenchTerminal {
  readonly pid: number;
  /** performance.now() when the program was spawned. */
  readonly started: number;
  readonly exited: Promise<number>;
  /** UTF-16 units the program wrote to this terminal so far. */
  received = 0;
  readonly #pty: IPty;
  readonly #screen: Screen | undefined;
  readonly #visible = new VisibleText();
  readonly #watches = new Set<Watch>();
  readonly #waiters = new Set<(at: number) => void>();
  readonly #kill: () => void;
  #parsed = Promise.resolve();
  #exit = -1;

  constructor(argv: readonly string[], o: TerminalOptions) {
    const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C.UTF-8', TERM: 'xterm-256color', COLORTERM: 'truecolor', ...o.env };
    delete env.TMUX;
    delete env.NO_COLOR;
    this.#screen = o.screen === false ? undefined : new Screen({ cols: COLS, rows: ROWS });
    this.started = performance.now();
    this.#pty = ptyDriver().spawn(argv[0]!, argv.slice(1), { name: 'xterm-256color', cols: COLS, rows: ROWS, cwd: o.cwd, env });
    this.pid = this.#pty.pid;
    this.#kill = onCleanup(() => this.#pty.kill('SIGKILL'));
    this.exited = new Promise<number>((resolve) =>
      this.#pty.onExit(({ exitCode }) => {
        this.#exit = exitCode;
        resolve(exitCode);
      }),
    );
    this.#pty.onData((data) => this.#read(data, performance.now()));
  }

  #read(data: string, at: number): void {
    this.received += data.length;
    const text = this.#visible.feed(data);
    for (const w of this.#watches) {
      const seen = w.tail + text;
      if (seen.includes(w.text)) {
        this.#watches.delete(w);
        w.resolve(at);
      } else w.tail = w.text.length > 1 ? seen.slice(1 - w.text.length) : '';
    }
    const screen = this.#screen;
    if (screen)
      this.#parsed = screen.write(data).then(() => {
        for (const w of [...this.#waiters]) w(at);
      });
  }

  /** The headless screen the output is painted on. */
  get screen(): Screen {
    if (!this.#screen) throw new Error('this bench terminal keeps no screen');
    return this.#screen;
  }

  /** The painted screen's text, rows joined by newlines. */
  text(): string {
    return this.screen.snapshot().viewport.join('\n');
  }

  write(data: string): void {
    this.#pty.write(data);
  }

  /** When `text` is next shown in the output received from now on: the time it arrived. Rejects after `ms`. */
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

  /** Resolves with the arrival time of the output after which `test` holds for the painted screen. */
  until(test: (text: string) => boolean, timeoutMs: number, what: string): Promise<number> {
    const text = () => this.text();
    return new Promise<number>((resolve, reject) => {
      const done = (fn: () => void) => {
        this.#waiters.delete(check);
        clearTimeout(timer);
        fn();
      };
      const check = (at: number) => {
        if (test(text())) done(() => resolve(at));
      };
      const exited = () => (this.#exit >= 0 ? ` (exited ${this.#exit})` : '');
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${exited()}`))),
        timeoutMs,
      );
      this.#waiters.add(check);
      void this.#parsed.then(() => (test(text()) ? done(() => resolve(performance.now())) : undefined));
      void this.exited.then(() =>
        setTimeout(() => done(() => reject(new Error(`exited ${this.#exit} before ${what}: ${text().trim().slice(-300)}`))), 200),
      );
    });
  }

  /** Ends the program with `signal` (relevo ends its agents on SIGTERM and SIGHUP), SIGKILL after `graceMs`. */
  async stop(graceMs = 1000, signal: 'SIGTERM' | 'SIGHUP' = 'SIGTERM'): Promise<void> {
    if (this.#exit < 0) {
      try {
        this.#pty.kill(signal);
      } catch {
        // gone
      }
      await Promise.race([this.exited, sleep(graceMs)]);
    }
    this.#kill();
    await Promise.race([this.exited, sleep(2000)]);
    this.#screen?.dispose();
  }
}
