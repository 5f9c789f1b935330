/**
 * The echo and throughput benches' systems under test, driven the same way: two stand-in agents
 * side by side in a 160×40 terminal of the bench's own, the left one focused — in relevo's TUI
 * (generic profiles), in tmux (a private server, a client attached, status line off), or in the
 * bare relay (bare-stack.ts: node-pty + @xterm/headless in one process, the echo's floor in Node).
 */

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { firstLayout } from '../src/tui/view/compositor.js';
import type { Program } from '../test/helpers/pty/program.js';
import { readyLine } from './flood-text.js';
import { untilIdle } from './proc.js';
import { BIN, COLS, openTerminal, ROWS } from './spawn.js';
import { TmuxServer } from './tmux.js';
import { Workdir } from './workdir.js';

export type Session = {
  /**
   * `bare-worker`: the bare relay with each pane's terminal on a worker thread; `bare-io`: with no
   * terminal at all (nothing parsed).
   */
  readonly name: 'relevo' | 'tmux' | 'bare' | 'bare-worker' | 'bare-io';
  readonly term: Program;
  readonly dir: Workdir;
  /** Ends the session (once; later calls wait for the same end). */
  close(): Promise<void>;
};

const BARE_RELAY = fileURLToPath(new URL('./bare-relay.js', import.meta.url));

type Agents = (dir: Workdir) => { left: string[]; right: string[]; tags: [string, string] };

/**
 * Starts a session with `left` and `right` (bench agents by tag); resolves once both printed their
 * ready lines and the system under test is idle (no CPU used for 200 ms).
 */
export async function openSession(name: Session['name'], agents: Agents): Promise<Session> {
  const dir = new Workdir();
  const { left, right, tags } = agents(dir);
  const server = name === 'tmux' ? new TmuxServer() : undefined;
  let term: Program | undefined;
  // Once, however often it is called: the echo bench closes a session as soon as it is done with
  // it, and again on the way out.
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      server?.kill();
      await term?.kill(3000, 'SIGHUP');
      dir.release();
    })());
  try {
    // No screen: the bench watches the output stream, and a flood must not spend its CPU on one.
    const opts = { cwd: dir.path, screen: false };
    if (server) {
      const split = [';', 'set', '-g', 'status', 'off', ';', 'split-window', '-d', '-h', ...right];
      term = openTerminal([...server.newSession('bench', left, '-x', String(COLS), '-y', String(ROWS)), ...split], opts);
    } else if (name === 'bare' || name === 'bare-worker' || name === 'bare-io') {
      const { width, height } = firstLayout(COLS, ROWS).panes.planner!.inner;
      const where = ({ bare: 'main', 'bare-worker': 'worker', 'bare-io': 'none' } as const)[name];
      const argv = [BARE_RELAY, JSON.stringify(left), JSON.stringify(right), String(width), String(height), where];
      term = openTerminal([process.execPath, ...argv], opts);
    } else {
      const args = ['--planner', quote(left), '--builder', quote(right), '--planner-profile', 'generic', '--builder-profile', 'generic'];
      const state = ['--state-dir', join(dir.path, '.relevo')];
      term = openTerminal([process.execPath, BIN, ...args, ...state], { ...opts, env: { npm_command: '' } });
    }
    const t = term;
    await Promise.all(tags.map((tag) => t.watch(readyLine(tag), 30_000)));
    // relevo opens its goal prompt when no --goal is given; Esc closes it, then keys go to the focused
    // agent (the planner, on the left). The echo bench checks they do (echo.ts, warmUp).
    if (name === 'relevo') t.write('\x1b');
    // Measure from idle, not while the system under test still starts up (relevo is still busy a
    // moment after its panes' ready lines showed: that CPU would count against it): both the
    // program in the bench's terminal and, for tmux, its server.
    await Promise.all([untilIdle(t.pid), ...(server ? [server.pid().then((pid) => untilIdle(pid))] : [])]);
    return { name, term: t, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs `body` on a fresh session of `name`, closing it whatever happens. */
export async function withSession<T>(name: Session['name'], agents: Agents, body: (s: Session) => Promise<T>): Promise<T> {
  const s = await openSession(name, agents);
  try {
    return await body(s);
  } finally {
    await s.close();
  }
}
