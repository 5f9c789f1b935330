import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Capture, MirrorSource } from './mirror.js';
import { SshError } from './ssh.js';
import { CONTROL_ENDED, controlLine, isServerGone, TmuxControl, TmuxError, type TmuxServer, tmux } from './tmux-control.js';
import { scrolledLines } from './tmux-tail.js';

export { hostTmuxSocket, isServerGone, TmuxControl, TmuxError, type TmuxServer, tmux, tmuxQuote } from './tmux-control.js';
export { launchInTmux, launchOnHost, type TmuxLaunch } from './tmux-launch.js';

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
/** How long tmux holds the commands after keys typed through the control client (`run-shell -d`), in seconds. */
const TYPED_PAUSE_S = '0.03';
/** For this long after typing, each look through the control client also brings the last AHEAD_ROWS rows of history. */
const FAST_AFTER_TYPING_MS = 3000;
const AHEAD_ROWS = 20;
/** Lines of history pulled into the mirror at most per look. */
const MAX_SCROLLED = 2000;
/** Rows of history a look back at the pane's recent output reads. */
const RECENT_ROWS = 2000;

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

/** The argv of the pane's foreground process (this machine's /proc), else just its command name (always on a host). */
export function foregroundArgv(info: TmuxPaneInfo, server?: TmuxServer): string[] {
  if (server?.host) return [info.command];
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
  #typedAt = 0;
  /** Keys written to the control client and not yet known to be in. */
  #typing: Promise<unknown>[] = [];

  constructor(
    readonly server: TmuxServer,
    readonly paneId: string,
  ) {
    this.where = server.host ? `tmux ${paneId} on ${server.host.destination}` : `tmux ${paneId}`;
  }

  /** The control client when it runs, else one tmux process per command. */
  async #query(args: readonly string[]): Promise<string> {
    if (this.#control?.alive) {
      try {
        return `${await this.#control.run(controlLine(args))}\n`;
      } catch {
        /* the pane or its session went away, or the client did: ask tmux directly */
      }
    }
    return tmux(this.server, args);
  }

  /**
   * The pane's state line and its screen in one round trip: both commands written to the control
   * client at once, else one tmux process running both (`;`); over ssh each round trip is the link's.
   * With `ahead`, the control client also brings the last `ahead` rows of history (`tail`).
   */
  async #look(info: readonly string[], screen: readonly string[], ahead: number): Promise<{ out: string; tail: string | null }> {
    const control = this.#control;
    if (control?.alive) {
      try {
        const tail = ['capture-pane', '-p', '-e', '-J', '-t', this.paneId, '-S', String(-ahead), '-E', '-1'];
        const commands = ahead > 0 ? [info, screen, tail] : [info, screen];
        const [a, b, c] = await Promise.all(commands.map((command) => control.run(controlLine(command))));
        return { out: `${a}\n${b}\n`, tail: c ?? null };
      } catch {
        /* as in #query */
      }
    }
    return { out: await tmux(this.server, [...info, ';', ...screen]), tail: null };
  }

  /**
   * Commands that type into the pane. Through the control client when it runs: written in order and
   * not waited for (no process, no ssh session; a failure is the pane's next look to show), then a
   * pause on tmux's side, so the look written next sees the program's answer in the same round trip.
   * Else one tmux process per command.
   */
  async #type(...commands: (readonly string[])[]): Promise<void> {
    const control = this.#control;
    this.#typedAt = Date.now();
    if (control?.alive) {
      for (const c of commands) {
        const run = control.run(controlLine(c));
        run.catch(() => {}); // seen by typed()
        this.#typing.push(run);
      }
      control.run(controlLine(['run-shell', '-d', TYPED_PAUSE_S])).catch(() => {}); // older tmux lacks -d: only the speed-up is lost
      return;
    }
    for (const c of commands) await tmux(this.server, c);
  }

  /** The keys written so far got there; else, on a host, the link is taken for lost (an SshError). */
  async typed(): Promise<void> {
    const typing = this.#typing.splice(0);
    try {
      await Promise.all(typing);
    } catch (error) {
      const host = this.server.host;
      if (host && error instanceof TmuxError && error.message === CONTROL_ENDED)
        throw new SshError(`${host.destination}: the link dropped while typing (${(error as Error).message})`);
      throw error;
    }
  }

  close(): void {
    this.#closed = true;
    this.#control?.close();
  }

  /** ssh's failure goes on as it is (the pane is out of reach, not gone); a server that is gone says so. */
  async capture(): Promise<Capture> {
    try {
      return await this.#capture();
    } catch (error) {
      if (!(error instanceof TmuxError) || !isServerGone(error.message)) throw error;
      const where = this.server.host ? ` on ${this.server.host.destination}` : '';
      throw new TmuxError(`the tmux server${where} is gone (${error.message})`);
    }
  }

  async #capture(): Promise<Capture> {
    // Typed into lately: what scrolls off is likely, and fetched with the look rather than after it.
    const aheadRows = this.#history !== null && Date.now() - this.#typedAt < FAST_AFTER_TYPING_MS ? AHEAD_ROWS : 0;
    const { out, tail } = await this.#look(
      ['display-message', '-p', '-t', this.paneId, FIELDS],
      ['capture-pane', '-p', '-e', '-J', '-t', this.paneId],
      aheadRows,
    );
    if (!out.startsWith('%')) throw new TmuxError(`can't find pane: ${this.paneId}`);
    const [first = '', ...rest] = out.replace(/\n$/, '').split('\n');
    const info = parseInfo(first);
    // Started again after it ended (a master connection closed, a link that came back).
    if (!this.#control?.alive && !this.#closed && /^%\d+$/.test(this.paneId) && /^\$\d+$/.test(info.session))
      this.#control = new TmuxControl(this.server, info.session);
    const lines = rest.slice(0, info.rows).map((l) => l.replace(/ +$/, ''));
    const grown = this.#history === null ? 0 : Math.min(info.history - this.#history, MAX_SCROLLED);
    this.#history = info.history;
    let scrolled: string[] = [];
    // The history tail came with the look (fewer rows while the history is short).
    const ahead = tail === null ? null : scrolledLines(tail.split('\n'), Math.min(aheadRows, info.history), grown, info.cols);
    if (ahead !== null) scrolled = ahead.map((l) => l.replace(/ +$/, ''));
    else if (grown > 0) {
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

  /** The pane's history and screen, wrapped lines joined: where a message typed before relevo stopped may show. */
  history(): Promise<string> {
    return this.#query(['capture-pane', '-p', '-J', '-S', `-${RECENT_ROWS}`, '-t', this.paneId]);
  }

  async send(bytes: string): Promise<void> {
    const hex = [...Buffer.from(bytes, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
    const chunks: string[][] = [];
    for (let i = 0; i < hex.length; i += 512) chunks.push(['send-keys', '-t', this.paneId, '-H', ...hex.slice(i, i + 512)]);
    await this.#type(...chunks);
  }

  /** tmux knows whether the program asked for bracketed pastes (`-p`), so `newline` is not needed. */
  async paste(text: string): Promise<void> {
    const buffer = `relevo-${randomBytes(6).toString('hex')}`;
    // -p: bracketed only if the program asked for it; -r: line breaks as they are (else LF becomes CR).
    const pasted = ['paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', this.paneId];
    if (this.#control?.alive) return this.#type(['set-buffer', '-b', buffer, '--', text], pasted);
    await tmux(this.server, ['load-buffer', '-b', buffer, '-'], text);
    await tmux(this.server, pasted);
  }
}
