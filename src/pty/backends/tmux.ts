import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import type { Capture, MirrorSource } from './mirror.js';

/** A tmux command that failed, in tmux's own words (`can't find pane: %9`, `no server running on …`). */
export class TmuxError extends Error {}

/** Which tmux server: the one `-L NAME` names, else the current one (`$TMUX`) or the default. */
export type TmuxServer = { readonly socket: string | null };

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'fish', 'ksh', 'tcsh', 'csh', 'ash', 'nu', 'elvish']);
const FIELDS = [
  '#{pane_id}',
  '#{pane_width}',
  '#{pane_height}',
  '#{cursor_x}',
  '#{cursor_y}',
  '#{history_size}',
  '#{pane_dead}',
  '#{pane_dead_status}',
  '#{pane_pid}',
  '#{pane_current_command}',
  '#{pane_current_path}',
  '#{session_id}',
  '#{pane_title}',
].join('\t');
/** Lines of history pulled into the mirror at most per look. */
const MAX_SCROLLED = 2000;

/** Runs `tmux [-L socket] args…` (no shell), resolving with stdout; a failure throws TmuxError. */
export async function tmux(server: TmuxServer, args: readonly string[], input?: string): Promise<string> {
  const argv = [...(server.socket ? ['-L', server.socket] : []), ...args];
  const r = await execa('tmux', argv, {
    reject: false,
    stripFinalNewline: false,
    timeout: 10_000,
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
  }).catch((error: unknown) => {
    throw new TmuxError(`cannot run tmux: ${(error as Error).message}`);
  });
  if ((r as { code?: string }).code === 'ENOENT' || (r.failed && r.exitCode === undefined)) {
    throw new TmuxError('tmux is not installed (or not on PATH)');
  }
  if (r.exitCode !== 0) throw new TmuxError(String(r.stderr).trim().split('\n')[0] || `tmux ${args[0]} failed (exit ${r.exitCode})`);
  return String(r.stdout);
}

/** The pane's state, as tmux formats it. */
export type TmuxPaneInfo = {
  readonly id: string;
  readonly cols: number;
  readonly rows: number;
  readonly cursor: { readonly x: number; readonly y: number };
  readonly history: number;
  readonly dead: boolean;
  readonly deadStatus: number;
  readonly pid: number;
  readonly command: string;
  readonly cwd: string;
  /** The session the pane is in (`$2`): the one the control client attaches to. */
  readonly session: string;
  readonly title: string;
};

function parseInfo(line: string): TmuxPaneInfo {
  const [id, w, h, x, y, hist, dead, status, pid, command, cwd, session, ...title] = line.split('\t');
  return {
    id: id ?? '',
    cols: Number(w),
    rows: Number(h),
    cursor: { x: Number(x), y: Number(y) },
    history: Number(hist),
    dead: dead === '1',
    deadStatus: Number(status) || 0,
    pid: Number(pid),
    command: command ?? '',
    cwd: cwd ?? '',
    session: session ?? '',
    title: title.join('\t'),
  };
}

export async function paneInfo(server: TmuxServer, target: string): Promise<TmuxPaneInfo> {
  const info = parseInfo((await tmux(server, ['display-message', '-p', '-t', target, FIELDS])).replace(/\n$/, ''));
  // tmux 3.3's display-message prints an empty line, exit 0, for a pane that does not exist.
  if (!info.id.startsWith('%')) throw new TmuxError(`can't find pane: ${target}`);
  return info;
}

export const isShell = (command: string): boolean => SHELLS.has(command.replace(/^-/, ''));

/** The argv of the pane's foreground process (Linux /proc), else just its command name. */
export function foregroundArgv(info: TmuxPaneInfo): string[] {
  try {
    const stat = readFileSync(`/proc/${info.pid}/stat`, 'utf8');
    const tpgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[5]);
    const cmdline = readFileSync(`/proc/${tpgid > 0 ? tpgid : info.pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
    if (cmdline.length > 0) return cmdline;
  } catch {
    /* not Linux, or the process is gone */
  }
  return [info.command];
}

/** How the control-mode client runs: commands in, notifications out, never a rejection. */
type ControlOptions = { stdin: 'pipe'; stdout: 'pipe'; stderr: 'ignore'; buffer: false; reject: false };

/**
 * A tmux control-mode client (`tmux -C attach -f no-output,ignore-size`): commands go down its
 * stdin and their output comes back between `%begin`/`%end`, so looking at a pane many times a
 * second starts no process. It does not change the session's size and gets no pane output.
 * `session` is a session id (`$2`), never a pane or window: attaching to one of those makes it the
 * session's current window, and every client of the session (the person's) would switch to it.
 */
export class TmuxControl {
  readonly #child: ResultPromise<ControlOptions>;
  readonly #pending: { resolve: (out: string) => void; reject: (error: Error) => void }[] = [];
  #block: { lines: string[]; mine: boolean } | null = null;
  #closed = false;

  constructor(server: TmuxServer, session: string) {
    const argv = [...(server.socket ? ['-L', server.socket] : []), '-C', 'attach-session', '-f', 'no-output,ignore-size', '-t', session];
    const options: ControlOptions = { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', buffer: false, reject: false };
    this.#child = execa('tmux', argv, options);
    createInterface({ input: this.#child.stdout! }).on('line', (line) => this.#line(line));
    void this.#child.finally(() => this.#fail(new TmuxError('the tmux control client ended')));
  }

  get alive(): boolean {
    return !this.#closed;
  }

  /** Runs one tmux command line (arguments already quoted for tmux's parser); resolves with its output. */
  run(command: string): Promise<string> {
    if (this.#closed) return Promise.reject(new TmuxError('the tmux control client ended'));
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#child.stdin!.write(`${command}\n`);
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#child.stdin?.end();
    this.#child.kill();
  }

  #line(line: string): void {
    const block = this.#block;
    if (block === null) {
      const begin = /^%begin \d+ \d+ (\d+)$/.exec(line);
      if (begin) this.#block = { lines: [], mine: begin[1] === '1' };
      return; // a notification
    }
    const end = /^%(end|error) \d+ \d+ \d+$/.exec(line);
    if (!end) {
      block.lines.push(line);
      return;
    }
    this.#block = null;
    if (!block.mine) return;
    const waiter = this.#pending.shift();
    if (end[1] === 'end') waiter?.resolve(block.lines.join('\n'));
    else waiter?.reject(new TmuxError(block.lines[0] ?? 'tmux command failed'));
  }

  #fail(error: Error): void {
    this.#closed = true;
    for (const waiter of this.#pending.splice(0)) waiter.reject(error);
  }
}

/**
 * A tmux pane as a mirror source: one `display-message ; capture-pane -e -J` per look (colors kept,
 * wrapped lines joined),
 * the lines that scrolled into tmux's history fetched as they appear, keys as `send-keys -H`
 * (exact bytes), pastes as `load-buffer` + `paste-buffer -p` (bracketed when the program asked).
 */
export class TmuxSource implements MirrorSource {
  readonly where: string;
  #history: number | null = null;
  /** Started at the first look, on the pane's session (a pane id is the only target it gets). */
  #control: TmuxControl | null = null;
  #closed = false;

  constructor(
    readonly server: TmuxServer,
    readonly paneId: string,
  ) {
    this.where = `tmux ${paneId}`;
  }

  /** The control client when it runs, else one tmux process per command. */
  async #query(args: readonly string[]): Promise<string> {
    if (this.#control?.alive) {
      try {
        return `${await this.#control.run(args.map((a) => (/^[\w%-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' '))}\n`;
      } catch {
        /* the pane or its session went away, or the client did: ask tmux directly */
      }
    }
    return tmux(this.server, args);
  }

  close(): void {
    this.#closed = true;
    this.#control?.close();
  }

  async capture(): Promise<Capture> {
    const info0 = await this.#query(['display-message', '-p', '-t', this.paneId, FIELDS]);
    if (!info0.startsWith('%')) throw new TmuxError(`can't find pane: ${this.paneId}`);
    const out = `${info0}${await this.#query(['capture-pane', '-p', '-e', '-J', '-t', this.paneId])}`;
    const [first = '', ...rest] = out.replace(/\n$/, '').split('\n');
    const info = parseInfo(first);
    if (this.#control === null && !this.#closed && /^%\d+$/.test(this.paneId) && /^\$\d+$/.test(info.session))
      this.#control = new TmuxControl(this.server, info.session);
    const lines = rest.slice(0, info.rows).map((l) => l.replace(/ +$/, ''));
    const grown = this.#history === null ? 0 : Math.min(info.history - this.#history, MAX_SCROLLED);
    this.#history = info.history;
    let scrolled: string[] = [];
    if (grown > 0) {
      const past = await this.#query(['capture-pane', '-p', '-e', '-J', '-t', this.paneId, '-S', String(-grown), '-E', '-1']);
      scrolled = past
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => l.replace(/ +$/, ''));
    }
    // The agent is gone when its pane died, or when the pane is back at a shell prompt.
    const exit = info.dead ? { exitCode: info.deadStatus } : isShell(info.command) ? { exitCode: 0 } : null;
    return { cols: info.cols, rows: info.rows, lines, scrolled, cursor: info.cursor, title: info.title, cwd: info.cwd || null, exit };
  }

  async send(bytes: string): Promise<void> {
    const hex = [...Buffer.from(bytes, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
    for (let i = 0; i < hex.length; i += 512) await tmux(this.server, ['send-keys', '-t', this.paneId, '-H', ...hex.slice(i, i + 512)]);
  }

  /** tmux knows whether the program asked for bracketed pastes (`-p`), so `newline` is not needed. */
  async paste(text: string): Promise<void> {
    const buffer = `relevo-${randomBytes(6).toString('hex')}`;
    // -p: bracketed only if the program asked for it; -r: line breaks as they are (else LF becomes CR).
    await tmux(this.server, ['load-buffer', '-b', buffer, '-'], text);
    await tmux(this.server, ['paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', this.paneId]);
  }
}

export type TmuxLaunch = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The size of relevo's box for this agent: the pane gets it where tmux lets relevo choose. */
  readonly cols: number;
  readonly rows: number;
};

/**
 * `--tmux-launch`: the planner in a new window of the current session (inside tmux, opened in the
 * background), or of a new detached session `name` sized to relevo's two boxes (outside), the
 * builder split to its right. Resolves with their pane ids.
 */
export async function launchInTmux(
  server: TmuxServer,
  inside: boolean,
  name: string,
  planner: TmuxLaunch,
  builder: TmuxLaunch,
): Promise<{ planner: string; builder: string }> {
  const envArgs = (l: TmuxLaunch) => Object.entries(l.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const size = ['-x', String(planner.cols + 1 + builder.cols), '-y', String(Math.max(planner.rows, builder.rows))];
  const where = inside ? ['new-window', '-d', '-n', name] : ['new-session', '-d', '-s', name, ...size];
  const first = [...where, '-P', '-F', '#{pane_id}', '-c', planner.cwd, ...envArgs(planner), '--', ...planner.argv];
  const plannerPane = (await tmux(server, first)).trim();
  const builderPane = (
    await tmux(server, [
      'split-window',
      '-h',
      ...(inside ? ['-d'] : ['-l', String(builder.cols)]),
      '-P',
      '-F',
      '#{pane_id}',
      '-t',
      plannerPane,
      '-c',
      builder.cwd,
      ...envArgs(builder),
      '--',
      ...builder.argv,
    ])
  ).trim();
  return { planner: plannerPane, builder: builderPane };
}
