/** The tmux command line, here or on a host through ssh: one command at a time, or a control-mode client. */
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';
import { onHost, RemoteError, type SshHost, sshArgv } from './ssh.js';

/** A tmux command that failed, in tmux's own words (`can't find pane: %9`, `no server running on …`). */
export class TmuxError extends Error {}

/**
 * Which tmux server: the one `-L NAME` names, else the current one (`$TMUX`) or the default; on
 * `host` (through ssh) when one is given, else on this machine.
 */
export type TmuxServer = { readonly socket: string | null; readonly host?: SshHost | null };

/** How long one tmux command may take (over ssh: a dead master is noticed well before). */
const COMMAND_TIMEOUT_MS = 10_000;
const HOST_COMMAND_TIMEOUT_MS = 30_000;

/**
 * `tmux [-L socket] args…` as an argv, without the program's own path resolved (a host's PATH finds it).
 * On a host `-u`: an ssh session often has no UTF-8 locale, and tmux would print tabs and non-ASCII as `_`.
 */
export const tmuxWords = (server: TmuxServer, args: readonly string[]): string[] => [
  'tmux',
  ...(server.host ? ['-u'] : []),
  ...(server.socket ? ['-L', server.socket] : []),
  ...args,
];

/** What tmux says when the server itself is not there (never started, the host rebooted) or ended under a command. */
export const isServerGone = (message: string): boolean => /no server running|error connecting to|server exited unexpectedly/.test(message);

/**
 * Runs the rest of its words outside the ssh login's cgroup and session: on a systemd host a login's
 * scope is torn down at logout, killing a tmux server started in it (`systemd-run --user --scope`
 * puts it in the user's manager instead), elsewhere `setsid` leaves the login's session (`-w`: it
 * forks when the shell leads its group, and the command's output and status must still come back;
 * without setsid, tmux's own daemon is left to do it).
 */
export const DETACHED_SCRIPT = [
  'if systemd-run --user --scope --quiet true >/dev/null 2>&1; then exec systemd-run --user --scope --quiet -- "$@"',
  'elif command -v setsid >/dev/null 2>&1; then exec setsid -w "$@"',
  'else exec "$@"; fi',
].join('; ');

/** The tmux server's name on a host for the local user `user`: one per user, beside the person's own servers. */
export const hostTmuxSocket = (user: string): string => `relevo-${user}`;

/**
 * Runs `tmux [-L socket] args…` (no shell here; on a host, each word quoted for its shell),
 * resolving with stdout. tmux's failure throws TmuxError; on a host, ssh's own throws SshError.
 */
export async function tmux(server: TmuxServer, args: readonly string[], input?: string): Promise<string> {
  return run(server, args, input, false);
}

/** Like `tmux`, for a command that may start the server: on a host, started so it outlives the ssh session. */
export function tmuxStarting(server: TmuxServer, args: readonly string[]): Promise<string> {
  return run(server, args, undefined, true);
}

async function run(server: TmuxServer, args: readonly string[], input: string | undefined, detached: boolean): Promise<string> {
  const [file = 'tmux', ...argv] = tmuxWords(server, args);
  if (server.host) {
    const remote = detached ? ['sh', '-c', DETACHED_SCRIPT, 'sh', file, ...argv] : [file, ...argv];
    try {
      return await onHost(server.host, remote, input, { timeoutMs: HOST_COMMAND_TIMEOUT_MS });
    } catch (error) {
      if (!(error instanceof RemoteError)) throw error;
      if (error.exitCode === 127) throw new TmuxError(`tmux is not installed on ${server.host.destination} (or not on its PATH)`);
      throw new TmuxError(error.message);
    }
  }
  const r = await execa(file, argv, {
    reject: false,
    stripFinalNewline: false,
    timeout: COMMAND_TIMEOUT_MS,
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

/** A word for tmux's command parser (a control client's line): bare when plain, else double-quoted with every special character escaped. */
export function tmuxQuote(word: string): string {
  if (/^[\w%-]+$/.test(word)) return word;
  let out = '"';
  for (const c of word) {
    const code = c.codePointAt(0)!;
    if (c === '\\' || c === '"' || c === '$' || c === '~') out += `\\${c}`;
    else if (code < 0x20 || code === 0x7f) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

export const controlLine = (args: readonly string[]): string => args.map(tmuxQuote).join(' ');

export const CONTROL_ENDED = 'the tmux control client ended';

/** How the control-mode client runs: commands in, notifications out, never a rejection. */
type ControlOptions = { stdin: 'pipe'; stdout: 'pipe'; stderr: 'ignore'; buffer: false; reject: false };

/**
 * A tmux control-mode client (`tmux -C attach -f no-output,ignore-size`): commands go down its
 * stdin and their output comes back between `%begin`/`%end`, so looking at a pane many times a
 * second starts no process (on a host: its stdin and stdout are an ssh session's, no terminal).
 * It does not change the session's size and gets no pane output.
 * `session` is a session id (`$2`), never a pane or window: attaching to one of those makes it the
 * session's current window, and every client of the session (the person's) would switch to it.
 */
export class TmuxControl {
  readonly #child: ResultPromise<ControlOptions>;
  readonly #pending: { resolve: (out: string) => void; reject: (error: Error) => void }[] = [];
  #block: { lines: string[]; mine: boolean } | null = null;
  #closed = false;

  constructor(server: TmuxServer, session: string) {
    const words = tmuxWords(server, ['-C', 'attach-session', '-f', 'no-output,ignore-size', '-t', session]);
    const [file = 'tmux', ...argv] = server.host ? sshArgv(server.host, words) : words;
    const options: ControlOptions = { stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', buffer: false, reject: false };
    this.#child = execa(file, argv, options);
    createInterface({ input: this.#child.stdout! }).on('line', (line) => this.#line(line));
    void this.#child.finally(() => this.#fail(new TmuxError(CONTROL_ENDED)));
  }

  get alive(): boolean {
    return !this.#closed;
  }

  /** Runs one tmux command line (arguments already quoted for tmux's parser); resolves with its output. */
  run(command: string): Promise<string> {
    if (this.#closed) return Promise.reject(new TmuxError(CONTROL_ENDED));
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
