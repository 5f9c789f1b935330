/**
 * A real CLI in a pseudo-terminal (node-pty) rendered by a headless xterm, for tests.
 * xterm's answers to terminal queries (cursor position, device attributes, colours) are
 * written back to the program, as a real terminal would.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Braille spinner glyphs both CLIs put in the window title while busy. */
export const BRAILLE = /[\u2800-\u28ff]/;

export type TermOptions = {
  readonly file: string;
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly cols?: number;
  readonly rows?: number;
  /** Whether to answer the program's terminal queries (DSR, DA, OSC 10/11 …). Default true. */
  readonly answerQueries?: boolean;
};

export class AgentTerminal {
  readonly startedAt = Date.now();
  /** Every window title, in order, with the time it was set. */
  readonly titles: { at: number; title: string }[] = [];
  /** Every OSC 7501 payload (Codex turn state), in order. */
  readonly osc7501: { at: number; data: string }[] = [];
  readonly #term: InstanceType<typeof Terminal>;
  readonly #pty: pty.IPty;
  #raw = '';
  #exit: { exitCode: number; signal?: number } | null = null;
  #lastOutputAt = Date.now();

  constructor(options: TermOptions) {
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    this.#term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    this.#term.onTitleChange((title) => this.titles.push({ at: Date.now(), title }));
    this.#term.parser.registerOscHandler(7501, (data) => {
      this.osc7501.push({ at: Date.now(), data });
      return true;
    });
    this.#pty = pty.spawn(options.file, [...(options.args ?? [])], {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd,
      env: options.env,
    });
    if (options.answerQueries !== false) this.#term.onData((data) => this.write(data));
    this.#pty.onData((data) => {
      this.#raw += data;
      this.#lastOutputAt = Date.now();
      this.#term.write(data);
    });
    this.#pty.onExit(({ exitCode, signal }) => {
      this.#exit = { exitCode, ...(signal ? { signal } : {}) };
    });
  }

  get pid(): number {
    return this.#pty.pid;
  }

  get exited(): { exitCode: number; signal?: number } | null {
    return this.#exit;
  }

  /** Everything the program wrote, escapes included. */
  get raw(): string {
    return this.#raw;
  }

  get title(): string {
    return this.titles.at(-1)?.title ?? '';
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

  /** Resolves once xterm parsed everything received so far. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.#term.write('', resolve));
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.#term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < this.#term.rows; y++) out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return out;
  }

  /** The visible screen as text (trailing blank rows dropped). */
  screen(): string {
    return this.lines().join('\n').trimEnd();
  }

  /** Scrollback plus screen as text. */
  all(): string {
    const buffer = this.#term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) out.push(buffer.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n').trimEnd();
  }

  /** Polls `check` (after letting xterm catch up) until it returns true; throws with the screen on timeout. */
  async waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.flush();
      if (check()) return Date.now();
      if (this.#exit !== null) throw new Error(`${what}: the program exited (${JSON.stringify(this.#exit)})\n${this.screen()}`);
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; title ${JSON.stringify(this.title)}; screen:\n${this.screen()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Waits until `text` is on screen (or in the scrollback if `scrollback`). */
  waitForText(text: string | RegExp, timeoutMs = 10_000, scrollback = false): Promise<number> {
    const has = () => {
      const s = scrollback ? this.all() : this.screen();
      return typeof text === 'string' ? s.includes(text) : text.test(s);
    };
    return this.waitFor(`text ${String(text)}`, has, timeoutMs);
  }

  /**
   * Ends the program and everything it started: SIGTERM to its process group and descendants,
   * then SIGKILL after `graceMs`. Safe to call twice.
   */
  async kill(graceMs = 1500): Promise<void> {
    const pids = [this.pid, ...descendants(this.pid)];
    signalAll(pids, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && pids.some(alive)) await new Promise((r) => setTimeout(r, 50));
    const all = [...pids, ...descendants(this.pid)];
    signalAll(all, 'SIGKILL');
    const killDeadline = Date.now() + 1000;
    while (Date.now() < killDeadline && all.some(alive)) await new Promise((r) => setTimeout(r, 20));
    try {
      this.#pty.kill('SIGKILL');
    } catch {
      /* gone */
    }
    this.#term.dispose();
  }
}

/** Alive and not a zombie (a zombie waits for a parent that may never reap it). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, signal);
      } catch {
        /* not a group leader, or gone */
      }
    }
  }
}

/** The pids below `root` in the process tree (Linux /proc). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* exited meanwhile */
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Pids of live processes whose environment mentions `marker` (e.g. a throwaway HOME path): leftovers to report and kill. */
export function processesWithEnv(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes(marker)) out.push(Number(entry));
    } catch {
      /* not ours or gone */
    }
  }
  return out;
}
