/**
 * What the echo and throughput benches share: a pseudo-terminal of the bench's own with relevo's
 * TUI or an attached tmux client in it, the text it paints (escape sequences stripped) watched for
 * a key or a marker, and cleanup of every process, tmux server and temp dir — on error and on
 * Ctrl-C too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, execaSync } from 'execa';
import { quote } from 'shell-quote';
import { type IPty, ptyDriver } from '../pty/pty-driver.js';
import { readyLine } from './flood-text.js';

// From src/bench (tests) and dist/bench alike: the built command and agent program (`npm run build` first).
export const BIN = fileURLToPath(new URL('../../bin/relevo-tui.js', import.meta.url));
export const AGENT = fileURLToPath(new URL('../../dist/bench/bench-agent.js', import.meta.url));
export const COLS = 160;
export const ROWS = 40;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- cleanup, also when the bench is interrupted --------------------------------------------
const cleanups = new Set<() => void>();
const onSignal = (signal: NodeJS.Signals) => {
  for (const c of [...cleanups]) c();
  process.exit(signal === 'SIGINT' ? 130 : 143);
};
const onExit = () => {
  for (const c of [...cleanups]) c();
};

/** Runs `fn` (synchronous, idempotent) on release, or when the process is interrupted or exits first. */
function hold(fn: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cleanups.delete(once);
    if (cleanups.size === 0) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', onExit);
    }
    fn();
  };
  if (cleanups.size === 0) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('exit', onExit);
  }
  cleanups.add(once);
  return once;
}

/** A temp dir for one session: the agents' pid files and relevo's state; removed with every agent it names. */
export class Workdir {
  readonly path = mkdtempSync(join(tmpdir(), 'relevo-bench-'));
  readonly release = hold(() => {
    for (const f of readdirSync(this.path).filter((f) => f.endsWith('.pid'))) {
      try {
        process.kill(Number(readFileSync(join(this.path, f), 'utf8')), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(this.path, { recursive: true, force: true });
  });

  /** The argv of a bench agent (`echo` or `flood`) that writes its pid here. */
  agent(mode: 'echo' | 'flood', tag: string, bytes?: number): string[] {
    return [process.execPath, AGENT, mode, tag, join(this.path, `${tag}.pid`), ...(bytes === undefined ? [] : [String(bytes)])];
  }

  /** The pid an agent wrote, once it has. */
  async pid(tag: string, ms = 15_000): Promise<number> {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      try {
        const pid = Number(readFileSync(join(this.path, `${tag}.pid`), 'utf8'));
        if (pid > 0) return pid;
      } catch {
        // not yet
      }
      await sleep(20);
    }
    throw new Error(`bench agent ${tag} did not start`);
  }
}

// ---- the bench's own terminal ---------------------------------------------------------------
type Watch = { text: string; tail: string; resolve: (at: number) => void };

/**
 * The printable text of a terminal output stream: escape sequences (CSI, OSC, DCS and the like)
 * and control characters dropped, the parser's state kept across chunks.
 */
export class VisibleText {
  #state: 'ground' | 'esc' | 'inter' | 'csi' | 'str' | 'str-esc' = 'ground';

  feed(chunk: string): string {
    let out = '';
    let run = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      switch (this.#state) {
        case 'ground':
          if (c >= 0x20 && c !== 0x7f) {
            if (run < 0) run = i;
            continue;
          }
          if (run >= 0) out += chunk.slice(run, i);
          run = -1;
          if (c === 0x1b) this.#state = 'esc';
          break;
        case 'esc':
          if (c === 0x5b) this.#state = 'csi';
          else if (c === 0x5d || c === 0x50 || c === 0x5f || c === 0x5e || c === 0x58) this.#state = 'str';
          else if (c >= 0x20 && c <= 0x2f) this.#state = 'inter';
          else this.#state = 'ground';
          break;
        case 'inter':
          if (c < 0x20 || c > 0x2f) this.#state = 'ground';
          break;
        case 'csi':
          if (c >= 0x40 && c <= 0x7e) this.#state = 'ground';
          break;
        case 'str':
          if (c === 0x07) this.#state = 'ground';
          else if (c === 0x1b) this.#state = 'str-esc';
          break;
        case 'str-esc':
          this.#state = c === 0x5c ? 'ground' : 'str';
          break;
      }
    }
    if (run >= 0) out += chunk.slice(run);
    return out;
  }
}

/** A program in a `COLS`×`ROWS` pseudo-terminal of the bench's own, its painted text watched. */
export class OuterTerminal {
  readonly #pty: IPty;
  readonly #text = new VisibleText();
  readonly #watches = new Set<Watch>();
  readonly #exited: Promise<void>;
  readonly #release: () => void;
  /** Bytes (UTF-16 units) the program wrote to this terminal so far. */
  received = 0;

  constructor(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
    const base = { ...process.env };
    delete base.TMUX;
    delete base.NO_COLOR;
    this.#pty = ptyDriver().spawn(file, [...args], {
      name: 'xterm-256color',
      cols: COLS,
      rows: ROWS,
      cwd,
      env: { ...base, LANG: 'C.UTF-8', TERM: 'xterm-256color', ...env } as Record<string, string>,
    });
    this.#exited = new Promise((resolve) => this.#pty.onExit(() => resolve()));
    this.#release = hold(() => {
      try {
        process.kill(this.#pty.pid, 'SIGKILL');
      } catch {
        // gone
      }
    });
    this.#pty.onData((data) => {
      const at = performance.now();
      this.received += data.length;
      const text = this.#text.feed(data);
      for (const w of this.#watches) {
        const seen = w.tail + text;
        if (seen.includes(w.text)) {
          this.#watches.delete(w);
          w.resolve(at);
        } else w.tail = w.text.length > 1 ? seen.slice(1 - w.text.length) : '';
      }
    });
  }

  write(data: string): void {
    this.#pty.write(data);
  }

  /**
   * When `text` is next painted (in output received from now on): the time it arrived
   * (`performance.now()`). Rejects after `ms`.
   */
  watch(text: string, ms: number): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const w: Watch = {
        text,
        tail: '',
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.#watches.delete(w);
        reject(new Error(`"${text}" was not painted within ${ms} ms`));
      }, ms);
      this.#watches.add(w);
    });
  }

  /** Hangs up (the program ends its agents), then kills what is left after `graceMs`. */
  async close(graceMs = 3000): Promise<void> {
    try {
      this.#pty.kill('SIGHUP');
    } catch {
      // gone
    }
    await Promise.race([this.#exited, sleep(graceMs)]);
    this.#release();
  }
}

// ---- the two programs under test --------------------------------------------------------------
/** One system under test: two agents side by side in a 160×40 terminal, the left one focused. */
export type Session = {
  readonly name: 'relevo' | 'tmux';
  readonly term: OuterTerminal;
  readonly dir: Workdir;
  close(): Promise<void>;
};

/** Starts a session with `left` and `right` (bench agents by tag); resolves once both print their ready lines. */
export async function openSession(
  name: Session['name'],
  agents: (dir: Workdir) => { left: string[]; right: string[]; tags: [string, string] },
  ready?: (term: OuterTerminal) => Promise<void>,
): Promise<Session> {
  const dir = new Workdir();
  const { left, right, tags } = agents(dir);
  const socket = `relevo-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // tmux 3.3 leaves its socket file behind after kill-server.
  const socketFile = join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket);
  const stopServer = () => {
    execaSync('tmux', ['-L', socket, 'kill-server'], { reject: false });
    rmSync(socketFile, { force: true });
  };
  const server = name === 'tmux' ? hold(stopServer) : () => {};
  let term: OuterTerminal | undefined;
  const close = async () => {
    server();
    await term?.close();
    dir.release();
  };
  try {
    if (name === 'relevo') {
      const args = ['--planner', quote(left), '--builder', quote(right), '--planner-profile', 'generic', '--builder-profile', 'generic'];
      term = new OuterTerminal(process.execPath, [BIN, ...args, '--state-dir', join(dir.path, '.relevo')], dir.path, { npm_command: '' });
    } else {
      const tmux = ['-L', socket, '-f', '/dev/null', 'new-session', '-s', 'bench', '-x', String(COLS), '-y', String(ROWS)];
      term = new OuterTerminal(
        'tmux',
        [...tmux, ...left, ';', 'set', '-g', 'status', 'off', ';', 'split-window', '-d', '-h', ...right],
        dir.path,
      );
    }
    const t = term;
    await Promise.all(tags.map((tag) => t.watch(readyLine(tag), 30_000)));
    // relevo opens its goal prompt when no --goal is given; Esc closes it, then keys go to the focused
    // agent (the planner, on the left). The echo bench checks they do (echo.ts, warmUp).
    if (name === 'relevo') t.write('\x1b');
    await ready?.(t);
    return { name, term: t, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Whether tmux 3.x can be run here (the baselines need it). */
export async function tmuxVersion(): Promise<string | null> {
  const r = await execa('tmux', ['-V'], { reject: false });
  return r.exitCode === 0 && /tmux (next-)?[3-9]/.test(r.stdout) ? r.stdout.trim() : null;
}

/** Runs `body` on a fresh session of `name`, closing it whatever happens. */
export async function withSession<T>(
  name: Session['name'],
  agents: Parameters<typeof openSession>[1],
  body: (s: Session) => Promise<T>,
  ready?: (term: OuterTerminal) => Promise<void>,
): Promise<T> {
  const s = await openSession(name, agents, ready);
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}
