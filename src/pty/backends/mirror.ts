import type { AgentState } from '../../protocol/index.js';
import { Emitter } from '../emitter.js';
import { OutputHistory } from '../output-history.js';
import type { Pane, PaneExit } from '../pane.js';
import { Screen } from '../screen.js';
import { retryDelayMs, SshError } from './ssh.js';

/** One look at a pane that relevo does not own. */
export type Capture = {
  readonly cols: number;
  readonly rows: number;
  /**
   * The visible screen, top to bottom, a line per line of text: a line the program's output wrapped
   * over several rows comes joined, so the mirror wraps it again (and knows it was one line).
   * SGR escapes (colors, bold…) may be kept in them.
   */
  readonly lines: readonly string[];
  /** Lines that scrolled off the top since the previous capture, oldest first. */
  readonly scrolled: readonly string[];
  readonly cursor: { readonly x: number; readonly y: number };
  readonly title: string;
  readonly cwd: string | null;
  /** Set once the program in the pane is gone. */
  readonly exit: PaneExit | null;
  /** The agent's state as the multiplexer itself sees it (Herdr's agent_status), when it says. */
  readonly status?: AgentState;
};

/** How a multiplexer's pane is read and typed into (tmux, Herdr). */
export interface MirrorSource {
  readonly where: string;
  capture(): Promise<Capture>;
  send(bytes: string): Promise<void>;
  paste(text: string, newline: string): Promise<void>;
  /** The pane's recent output with wrapped lines joined, when the multiplexer offers it. */
  recent?(): Promise<string>;
  /** The pane's history and screen, wrapped lines joined (tmux keeps it). */
  history?(): Promise<string>;
  /** Frees what the source holds (a control connection). */
  close?(): void;
  /** Resolves once keys sent without waiting (a control client) got there; rejects when one may not have. */
  typed?(): Promise<void>;
}

/** Polling: fast while the pane changes or was just typed into, slower while it rests. */
const FAST_MS = 50;
const SLOW_MS = 250;
const FAST_FOR_MS = 3000;
/** Looks under way at once at most (a slow link). */
const MAX_LOOKS = 3;

/**
 * A pane of a tmux or Herdr session, mirrored into a local headless screen so detection, turn
 * tracking and the TUI work on it as on a local one. Lines that scroll off the pane are pushed
 * into the mirror's scrollback, so a long reply can still be read whole.
 */
export class MirrorPane implements Pane {
  readonly owned = false;
  readonly screen: Screen;
  readonly history = new OutputHistory();
  readonly #onUpdate = new Emitter<void>();
  readonly #onExit = new Emitter<PaneExit>();
  readonly onUpdate = this.#onUpdate.event;
  readonly onExit = this.#onExit.event;
  #lines: readonly string[] = [];
  #title = '';
  #cwd: string | null = null;
  #status: AgentState | null = null;
  #lastChangeAt = Date.now();
  #busyUntil = 0;
  #exit: PaneExit | null = null;
  #unreachable: string | null = null;
  #failures = 0;
  #lost = 0;
  #retryAt: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #disposed = false;
  /** Sends, in order. */
  #queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly source: MirrorSource,
    first: Capture,
    osc: readonly number[],
  ) {
    this.screen = new Screen({ cols: first.cols, rows: first.rows, osc });
  }

  /** Attaches: the first capture must succeed (else the source's error is thrown). */
  static async attach(source: MirrorSource, osc: readonly number[] = []): Promise<MirrorPane> {
    const first = await source.capture();
    const pane = new MirrorPane(source, first, osc);
    await pane.#apply(first);
    pane.#schedule();
    return pane;
  }

  get where(): string {
    return this.source.where;
  }

  get cwd(): string | null {
    return this.#cwd;
  }

  get exited(): PaneExit | null {
    return this.#exit;
  }

  /** Why the pane is out of reach (ssh's line) while its host cannot be reached, else null; the last screen stays. */
  get unreachable(): string | null {
    return this.#unreachable;
  }

  /** When the next look at an unreachable pane is due (ms since the epoch), else null. */
  get retryAt(): number | null {
    return this.#retryAt;
  }

  get reported(): AgentState | null {
    return this.#status;
  }

  readHistory(): Promise<string> | null {
    return this.source.history ? this.source.history() : null;
  }

  readRecent(): Promise<string> | null {
    return this.source.recent ? this.source.recent() : null;
  }

  quietFor(now = Date.now()): number {
    return now - this.#lastChangeAt;
  }

  write(data: string): void {
    this.#send(() => this.source.send(data));
  }

  paste(text: string, newline: string): void {
    this.#send(() => this.source.paste(text, newline));
  }

  /** The pane belongs to its multiplexer: its size is the multiplexer's to set. */
  resize(_cols: number, _rows: number): void {}

  /** Lets the pane go; the agent in it keeps running. */
  async kill(): Promise<void> {
    this.#stop();
    await this.#queue;
  }

  dispose(): void {
    this.#stop();
    this.#onUpdate.dispose();
    this.#onExit.dispose();
    this.screen.dispose();
  }

  #send(action: () => Promise<void>): void {
    if (this.#exit !== null || this.#disposed) return;
    this.#busyUntil = Date.now() + FAST_FOR_MS;
    // Look once it is typed: typing shows. Not typed (or not known to be): counted, so a delivery
    // looks at the screen before it types again; ssh failed: out of reach, looked at on the back-off.
    this.#queue = this.#queue.then(action).then(
      () => {
        if (this.#unreachable === null) this.#poll(true);
      },
      (error: unknown) => {
        this.#lost++;
        if (error instanceof SshError) this.#reached(error.message);
        else this.#poll(true);
      },
    );
  }

  /** Sends that failed so far, once the sends queued now are done. */
  async sent(): Promise<number> {
    await this.#queue;
    await this.source.typed?.().catch((error: unknown) => {
      this.#lost++;
      if (error instanceof SshError) this.#reached(error.message);
    });
    return this.#lost;
  }

  #stop(): void {
    if (!this.#disposed) this.source.close?.();
    this.#disposed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    if (this.#disposed || this.#exit !== null) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const ms = this.#unreachable !== null ? retryDelayMs(this.#failures) : Date.now() < this.#busyUntil ? FAST_MS : SLOW_MS;
    this.#retryAt = this.#unreachable !== null ? Date.now() + ms : null;
    this.#timer = setTimeout(() => this.#poll(), ms);
  }

  /** Looks under way; their screens are applied in the order they were asked for. */
  #looks = 0;
  #applied: Promise<void> = Promise.resolve();
  /**
   * Looks at the pane, unless a look is under way; `now`: at once all the same (after typing, a look
   * asked before the keys went in cannot show them).
   */
  #poll(now = false): void {
    if (this.#disposed || (this.#looks > 0 && !now)) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#looks++;
    const look = this.source.capture();
    // Handled in turn below, after the looks before it: not an unhandled rejection meanwhile.
    look.catch(() => undefined);
    // While the pane moves, the next look goes FAST_MS after this one went, not after its answer:
    // over a slow link a few looks are under way at once, and a change shows a round trip sooner.
    if (this.#unreachable === null && Date.now() < this.#busyUntil && this.#looks < MAX_LOOKS)
      this.#timer = setTimeout(() => this.#poll(true), FAST_MS);
    this.#applied = this.#applied
      .then(() => look)
      // The screen first: once the pane is reachable again, what it shows is fresh.
      .then(async (c) => {
        await this.#apply(c);
        this.#reached(null);
      })
      // ssh failed: the pane is out of reach, not gone. Anything else (the pane or its server gone) ends it.
      .catch((error: unknown) =>
        error instanceof SshError
          ? this.#reached(error.message)
          : this.#gone({ exitCode: -1, reason: String((error as Error)?.message ?? error) }),
      )
      .finally(() => {
        if (--this.#looks === 0) this.#schedule();
      });
  }

  #reached(unreachable: string | null): void {
    this.#failures = unreachable === null ? 0 : this.#failures + 1;
    if (unreachable === this.#unreachable || this.#disposed) return;
    this.#unreachable = unreachable;
    this.#onUpdate.fire();
  }

  #gone(exit: PaneExit): void {
    if (this.#exit !== null || this.#disposed) return;
    this.#exit = exit;
    this.#onExit.fire(exit);
  }

  async #apply(c: Capture): Promise<void> {
    if (this.#disposed) return;
    this.#cwd = c.cwd;
    let data = '';
    const resized = c.cols !== this.screen.cols || c.rows !== this.screen.rows;
    if (resized) this.screen.resize(c.cols, c.rows);
    if (c.title !== this.#title) data += `\x1b]0;${c.title.replace(/[\x00-\x1f\x7f]/g, '')}\x07`;
    const same = c.lines.length === this.#lines.length && c.lines.every((l, i) => l === this.#lines[i]);
    if (c.scrolled.length > 0 || resized || !same) {
      // Redrawn from the top: the scrolled lines first, so they go on into the scrollback, then the
      // screen; long lines wrap as they did in the pane.
      data += `\x1b[H\x1b[J${[...c.scrolled, ...c.lines].map((l) => `\x1b[0m${l}`).join('\r\n')}`;
    }
    const at = this.screen.cursor();
    const status = c.status ?? null;
    const changed = data !== '' || c.cursor.x !== at.col || c.cursor.y !== at.row || status !== this.#status;
    this.#status = status;
    if (!changed) {
      if (c.exit) this.#gone(c.exit);
      return;
    }
    this.#lines = c.lines;
    this.#title = c.title;
    data += `\x1b[0m\x1b[${c.cursor.y + 1};${c.cursor.x + 1}H`;
    await this.screen.write(this.history.write(data));
    this.#lastChangeAt = Date.now();
    this.#busyUntil = Date.now() + FAST_FOR_MS;
    this.#onUpdate.fire();
    if (c.exit) this.#gone(c.exit);
  }
}
