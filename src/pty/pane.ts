import pty from 'node-pty';
import { Emitter } from './emitter.js';
import { Screen } from './screen.js';

export type PaneOptions = {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
  readonly osc?: readonly number[];
};

export type PaneExit = { readonly exitCode: number; readonly signal?: number };

/** A program in a pseudo-terminal, its output parsed into a headless screen. */
export class Pane {
  readonly screen: Screen;
  readonly #pty: pty.IPty;
  readonly #onUpdate = new Emitter<void>();
  readonly #onExit = new Emitter<PaneExit>();
  readonly onUpdate = this.#onUpdate.event;
  readonly onExit = this.#onExit.event;
  #lastChangeAt = Date.now();
  #exit: PaneExit | null = null;

  constructor(options: PaneOptions) {
    const [file, ...args] = options.argv;
    if (file === undefined) throw new Error('empty command');
    this.screen = new Screen({ cols: options.cols, rows: options.rows, osc: options.osc ?? [] });
    this.#pty = pty.spawn(file, [...args], {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: { ...options.env },
      encoding: null,
    });
    this.#pty.onData((data: string | Buffer) => {
      this.#lastChangeAt = Date.now();
      void this.screen.write(typeof data === 'string' ? data : new Uint8Array(data)).then(() => this.#onUpdate.fire());
    });
    this.#pty.onExit(({ exitCode, signal }) => {
      // Let the last output reach the screen before telling anyone.
      void this.screen.settled().then(() => {
        this.#exit = { exitCode, ...(signal ? { signal } : {}) };
        this.#onExit.fire(this.#exit);
      });
    });
  }

  get pid(): number {
    return this.#pty.pid;
  }

  get exited(): PaneExit | null {
    return this.#exit;
  }

  /** Milliseconds since the program last wrote anything. */
  quietFor(now = Date.now()): number {
    return now - this.#lastChangeAt;
  }

  write(data: string): void {
    if (this.#exit === null) this.#pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.#exit !== null) return;
    this.#pty.resize(cols, rows);
    this.screen.resize(cols, rows);
  }

  /** Ends the program: SIGTERM, then SIGKILL after `graceMs`. Resolves once it exited. */
  async kill(graceMs = 2000): Promise<void> {
    if (this.#exit !== null) return;
    const exited = new Promise<void>((resolve) => this.onExit(() => resolve()));
    try {
      this.#pty.kill('SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        this.#pty.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }

  dispose(): void {
    this.#onUpdate.dispose();
    this.#onExit.dispose();
    this.screen.dispose();
  }
}
