/**
 * The bench's own terminals: a program (relevo's TUI, a tmux client) started in a pseudo-terminal
 * the bench owns, its output read through a headless screen so a marker is found in what it painted
 * (whatever escapes and cursor moves drew it), and the arrival time of the bytes that painted it.
 * Also a private tmux server per measurement, and a cleanup list that runs however the bench ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { type IPty, ptyDriver } from '../pty/pty-driver.js';
import { Screen } from '../pty/screen.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const cleanups = new Set<() => void>();
/** Runs `undo` when the bench exits (also on Ctrl-C) unless it was run before; returns a function that runs it now. */
export function onCleanup(undo: () => void): () => void {
  const once = () => {
    if (!cleanups.delete(once)) return;
    try {
      undo();
    } catch {
      // cleaning up what is already gone
    }
  };
  cleanups.add(once);
  return once;
}
export function cleanupAll(): void {
  for (const c of [...cleanups]) c();
}
process.once('exit', cleanupAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    cleanupAll();
    process.exit(130);
  });
}

/** A temporary directory, removed on cleanup (or by the function returned). */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: onCleanup(() => rmSync(path, { recursive: true, force: true })) };
}

export type Painted = {
  readonly pid: number;
  /** performance.now() when the program was spawned. */
  readonly started: number;
  readonly screen: Screen;
  /** Resolves with the arrival time (performance.now()) of the output after which `test` holds for the painted screen. */
  until(test: (text: string) => boolean, timeoutMs: number, what: string): Promise<number>;
  /** The painted screen's text, rows joined by newlines. */
  text(): string;
  write(data: string): void;
  readonly exited: Promise<number>;
  /** Kills the program (SIGKILL after `graceMs`) and waits for it. */
  stop(graceMs?: number): Promise<void>;
};

export type PtyOptions = { cols: number; rows: number; cwd: string; env?: NodeJS.ProcessEnv };

/** Starts `argv` in a pseudo-terminal of the bench's own, reading what it paints. */
export function paint(argv: readonly string[], o: PtyOptions): Painted {
  const screen = new Screen({ cols: o.cols, rows: o.rows });
  const env = { ...process.env, TERM: 'xterm-256color', COLORTERM: 'truecolor', ...o.env };
  const started = performance.now();
  const pty: IPty = ptyDriver().spawn(argv[0]!, argv.slice(1), { name: 'xterm-256color', cols: o.cols, rows: o.rows, cwd: o.cwd, env });
  const text = () => screen.snapshot().viewport.join('\n');
  const waiters = new Set<(at: number) => void>();
  let parsed = Promise.resolve();
  pty.onData((data) => {
    const at = performance.now();
    parsed = screen.write(data).then(() => {
      for (const w of [...waiters]) w(at);
    });
  });
  let exit = -1;
  const exited = new Promise<number>((resolve) =>
    pty.onExit(({ exitCode }) => {
      exit = exitCode;
      resolve(exitCode);
    }),
  );
  const kill = onCleanup(() => pty.kill('SIGKILL'));
  return {
    pid: pty.pid,
    started,
    screen,
    text,
    write: (data) => pty.write(data),
    exited,
    until: (test, timeoutMs, what) =>
      new Promise<number>((resolve, reject) => {
        const done = (fn: () => void) => {
          waiters.delete(check);
          clearTimeout(timer);
          fn();
        };
        const check = (at: number) => {
          if (test(text())) done(() => resolve(at));
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${exit >= 0 ? ` (exited ${exit})` : ''}`))),
          timeoutMs,
        );
        waiters.add(check);
        void parsed.then(() => (test(text()) ? done(() => resolve(performance.now())) : undefined));
        void exited.then(() =>
          setTimeout(() => done(() => reject(new Error(`exited ${exit} before ${what}: ${text().trim().slice(-300)}`))), 200),
        );
      }),
    stop: async (graceMs = 1000) => {
      if (exit < 0) {
        pty.kill('SIGTERM');
        const grace = sleep(graceMs).then(() => 'late');
        if ((await Promise.race([exited, grace])) === 'late') kill();
        await exited;
      }
      kill();
      screen.dispose();
    },
  };
}

/** A private tmux server (its own socket in a temporary directory, no config file), killed on cleanup. */
export class TmuxServer {
  readonly #dir = tempDir('relevo-bench-tmux-');
  readonly socket = join(this.#dir.path, 'tmux.sock');
  readonly #kill = onCleanup(() => {
    execaSync('tmux', ['-S', this.socket, 'kill-server'], { reject: false });
    this.#dir.remove();
  });

  /** The argv of a client that starts the server with a session attached, e.g. for `paint`. */
  newSession(session: string, command: readonly string[], ...options: string[]): string[] {
    return ['tmux', '-S', this.socket, '-f', '/dev/null', 'new-session', '-s', session, ...options, '--', ...command];
  }

  run(...args: string[]) {
    return execa('tmux', ['-S', this.socket, ...args], { reject: false });
  }

  async pid(): Promise<number> {
    const r = await this.run('display-message', '-p', '#{pid}');
    const pid = Number(r.stdout.trim());
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`tmux: no server pid (${r.stderr.trim() || r.stdout.trim()})`);
    return pid;
  }

  /** Kills the server and removes its socket. */
  kill(): void {
    this.#kill();
  }
}

/** `tmux 3.3a`, or null when tmux is not installed. */
export async function tmuxVersion(): Promise<string | null> {
  const r = await execa('tmux', ['-V'], { reject: false });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}
