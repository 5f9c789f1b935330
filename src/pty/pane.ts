import type { AgentState } from '../protocol/index.js';
import { Emitter, type Event } from './emitter.js';
import { OutputHistory } from './output-history.js';
import { endProcesses, groupAlive, procStat, sessionOf } from './procs.js';
import { type IPty, ptyDriver } from './pty-driver.js';
import { Screen } from './screen.js';

export type PaneOptions = {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly cols: number;
  readonly rows: number;
  readonly osc?: readonly number[];
};

export type PaneExit = {
  readonly exitCode: number;
  readonly signal?: number;
  /** Why, in a line, when more is known than the code (`the tmux server on box is gone (…)`). */
  readonly reason?: string;
};

/**
 * An agent's terminal, wherever it runs: a pseudo-terminal of relevo's own (LocalPane), or a pane
 * of a tmux or Herdr session that relevo mirrors. The relay, persistence and the TUI see only this.
 */
export interface Pane {
  /** The terminal's screen as relevo reads it (for an attached pane: a mirror of it). */
  readonly screen: Screen;
  /** What the program printed, as sanitized text, fed with the same bytes as `screen`. */
  readonly history?: OutputHistory;
  readonly onUpdate: Event<void>;
  readonly onExit: Event<PaneExit>;
  readonly exited: PaneExit | null;
  /** Where the pane lives, for people: `local`, `tmux %3`, `herdr w1:p2`. */
  readonly where: string;
  /** The agent's working directory (for its transcript), when known. */
  readonly cwd: string | null;
  /** False when relevo mirrors a pane it does not own: it never resizes or kills it. */
  readonly owned: boolean;
  /** The program's pid, when relevo started it (its process group's and session's id too). */
  readonly pid?: number;
  /** While the pane's host cannot be reached: ssh's line (the pane is kept and looked at again), else null. */
  readonly unreachable?: string | null;
  /** While unreachable: when the next look is due (ms since the epoch). */
  readonly retryAt?: number | null;
  /** Sends whose ssh failed so far (what they typed may not have reached the pane); resolves once the sends queued now are done. */
  sent?(): Promise<number>;
  /** The agent's state as its multiplexer reports it (Herdr), combined with the profile's screen rules. */
  readonly reported?: AgentState | null;
  /** The pane's recent output, wrapped lines joined (Herdr's recent-unwrapped), for the turn's reply. */
  readRecent?(): Promise<string> | null;
  /** The pane's history and screen as its multiplexer keeps them (tmux), wrapped lines joined. */
  readHistory?(): Promise<string> | null;
  /** Milliseconds since the terminal last changed. */
  quietFor(now?: number): number;
  /** Raw bytes, as typed keys. */
  write(data: string): void;
  /** One paste: bracketed when the program asked for bracketed pastes, else with `newline` for each line break. */
  paste(text: string, newline: string): void;
  resize(cols: number, rows: number): void;
  /** Ends the program (an attached pane is only let go). Resolves once done. */
  kill(graceMs?: number): Promise<void>;
  dispose(): void;
}

/** A program in a pseudo-terminal of relevo's own, its output parsed into a headless screen. */
export class LocalPane implements Pane {
  readonly where = 'local';
  readonly owned = true;
  readonly cwd: string;
  readonly screen: Screen;
  readonly history = new OutputHistory();
  readonly #pty: IPty;
  readonly #onUpdate = new Emitter<void>();
  readonly #onExit = new Emitter<PaneExit>();
  readonly onUpdate = this.#onUpdate.event;
  readonly onExit = this.#onExit.event;
  #lastChangeAt = Date.now();
  #exit: PaneExit | null = null;
  /** The program's start time (`/proc/<pid>/stat`), or null without /proc. */
  readonly #started: string | null;

  constructor(options: PaneOptions) {
    const [file, ...args] = options.argv;
    if (file === undefined) throw new Error('empty command');
    this.cwd = options.cwd;
    this.screen = new Screen({ cols: options.cols, rows: options.rows, osc: options.osc ?? [] });
    this.#pty = ptyDriver().spawn(file, [...args], {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: { ...options.env },
      // node-pty decodes UTF-8 (split sequences too) natively as it reads, and sets IUTF8 on the
      // terminal: cheaper than a streaming TextDecoder on the main thread.
      encoding: 'utf8',
    });
    this.#started = procStat(this.#pty.pid)?.start ?? null;
    this.#pty.onData((data: string) => {
      this.#lastChangeAt = Date.now();
      const text = this.history.write(data);
      void this.screen.write(text, () => this.#onUpdate.fire());
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
    if (this.#exit !== null) return;
    this.#pty.write(data);
    // After the write (the echo cannot be read before this returns): the keys reach the program sooner.
    this.screen.typed();
  }

  paste(text: string, newline: string): void {
    this.write(this.screen.bracketedPaste ? `\x1b[200~${text}\x1b[201~` : text.replaceAll('\n', newline));
  }

  resize(cols: number, rows: number): void {
    if (this.#exit !== null) return;
    this.#pty.resize(cols, rows);
    this.screen.resize(cols, rows);
  }

  /**
   * Ends the program and everything it started in its terminal's session (its children, whatever
   * signals they ignore): SIGTERM, then SIGKILL after `graceMs`. Resolves once it exited.
   */
  async kill(graceMs = 2000): Promise<void> {
    const pid = this.#pty.pid;
    const exited = this.#exit !== null ? Promise.resolve() : new Promise<void>((resolve) => this.onExit(() => resolve()));
    if (this.#started !== null) {
      // Once it exited, its pid may be another program's: only a session still its own is ended.
      const leader = procStat(pid);
      if (leader === null || leader.start === this.#started) await endProcesses(() => sessionOf(pid) ?? [], graceMs);
    } else if (this.#exit === null || groupAlive(pid)) {
      this.#signal('SIGTERM');
      const timer = setTimeout(() => this.#signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  }

  /** Signals the program's process group, or the program alone where that fails. */
  #signal(sig: NodeJS.Signals): void {
    try {
      process.kill(-this.#pty.pid, sig);
    } catch {
      try {
        this.#pty.kill(sig);
      } catch {
        /* already gone */
      }
    }
  }

  dispose(): void {
    this.#onUpdate.dispose();
    this.#onExit.dispose();
    this.screen.dispose();
  }
}
