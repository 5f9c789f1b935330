/**
 * The situations the memory and idle benches measure, each for relevo's TUI and for tmux driven the
 * same way (a client attached in the bench's own 160×40 pseudo-terminal, two panes side by side):
 * the demo after it reached `done`, and two stand-in agents (bench-agent.ts `print`) that printed
 * their lines and sit idle at a prompt.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { DEMO_GOAL } from '../src/app/config/options.js';
import type { Program } from '../test/helpers/pty/program.js';
import { sleep } from '../test/helpers/until.js';
import { printedLine } from './flood-text.js';
import { BIN, COLS, openTerminal, ROWS } from './spawn.js';
import { TmuxServer } from './tmux.js';
import { Workdir } from './workdir.js';

/** tmux's `history-limit`, and relevo's least scrollback (src/pty/screen.ts keeps ≥ 10,000 lines). */
export const HISTORY = 10_000;

/**
 * How long a Node process (relevo, the Ink floor) paints nothing before it counts as idle: V8's
 * memory reducer starts a few seconds after the last full GC and collects a few times more (the
 * young generation given back, waking the process); then nothing runs until the next input.
 */
export const STEADY_MS = 30_000;

/** A running scene: the process measured (relevo's, or the tmux server), and how to end it. */
export type Scene = { readonly pid: number; readonly tui: Program; close(): Promise<void> };

const printed = (lines: number) => (t: string) => (t.match(new RegExp(printedLine(lines), 'g')) ?? []).length >= 2;

async function relevo(
  args: (dir: Workdir) => readonly string[],
  ready: (t: string) => boolean,
  what: string,
  timeoutMs: number,
): Promise<Scene> {
  const dir = new Workdir();
  const tui = openTerminal([process.execPath, BIN, ...args(dir), '--state-dir', join(dir.path, '.relevo')], { cwd: dir.path });
  const close = async () => {
    await tui.kill(3000);
    dir.release();
  };
  try {
    await tui.until(ready, timeoutMs, what);
  } catch (error) {
    await close();
    throw error;
  }
  return { pid: tui.pid, tui, close };
}

/** The band row: `relevo · … · done`. */
const band = (t: string) => t.split('\n').find((l) => l.startsWith('relevo ·')) ?? '';

const sim = (role: string, ...flags: string[]) => [process.execPath, BIN, 'sim-agent', '--role', role, ...flags];

/**
 * relevo's TUI on the demo, once the planner said `<done>` (the TUI stays open). Quick (the CI
 * smoke): the demo's simulated agents and goal, with one step and a short think.
 */
export function relevoDemoDone(quick = false): Promise<Scene> {
  const short = ['--think-ms', '50'];
  const agents = ['--planner', quote(sim('planner', '--steps', '1', ...short)), '--builder', quote(sim('builder', ...short))];
  const profiles = ['--planner-profile', 'sim', '--builder-profile', 'sim'];
  const args = quick ? ['--goal', DEMO_GOAL, ...agents, ...profiles] : ['--demo'];
  return relevo(
    () => args,
    (t) => / · done\b/.test(band(t)),
    'the demo to reach done',
    90_000,
  );
}

/**
 * relevo's TUI with two stand-in agents (generic profile) that print `lines` lines each and sit at a
 * prompt; the goal is typed to the planner, whose turn ends with no handoff: the relay pauses and
 * nothing moves any more.
 */
export function relevoPrinting(lines: number): Promise<Scene> {
  const args = (dir: Workdir) => [
    '--goal',
    'Sit idle',
    ...['--planner', quote(dir.agent('print', 'planner', lines)), '--builder', quote(dir.agent('print', 'builder', lines))],
    ...['--planner-profile', 'generic', '--builder-profile', 'generic'],
  ];
  const ready = (t: string) => printed(lines)(t) && band(t).includes('paused');
  return relevo(args, ready, 'both agents printed, the relay paused', 120_000);
}

async function tmux(panes: (dir: Workdir) => [string[], string[]], ready: (t: string) => boolean, what: string): Promise<Scene> {
  const server = new TmuxServer();
  const dir = new Workdir();
  const [left, right] = panes(dir);
  const conf = join(dir.path, 'tmux.conf');
  writeFileSync(conf, `set -g history-limit ${HISTORY}\n`);
  let tui: Program | undefined;
  const close = async () => {
    server.kill();
    await tui?.kill(1000);
    dir.release();
  };
  try {
    await server.run(
      '-f',
      conf,
      'new-session',
      '-d',
      '-s',
      'bench',
      '-x',
      String(COLS),
      '-y',
      String(ROWS - 1),
      '-c',
      dir.path,
      '--',
      ...left,
    );
    await server.run('split-window', '-h', '-t', 'bench', '-c', dir.path, '--', ...right);
    tui = openTerminal(['tmux', '-S', server.socket, 'attach', '-t', 'bench'], { cwd: dir.path });
    await tui.until(ready, 60_000, what);
    return { pid: await server.pid(), tui, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A tmux server with the demo's simulated agents in two panes, a client attached. */
export function tmuxDemo(): Promise<Scene> {
  return tmux(
    () => [sim('planner'), sim('builder')],
    (t) => (t.match(/❯/g) ?? []).length >= 2,
    'both simulated agents at their prompt',
  );
}

/** A tmux server (history-limit 10000) with the two stand-in agents in two panes, a client attached. */
export const tmuxPrinting = (lines: number) =>
  tmux((dir) => [dir.agent('print', 'planner', lines), dir.agent('print', 'builder', lines)], printed(lines), 'both agents printed');

/** Waits until nothing has been painted for `quietMs` (toasts gone, the last frame out), at most `maxMs`. */
export async function quiet(scene: Scene, quietMs: number, maxMs: number): Promise<void> {
  const end = performance.now() + maxMs;
  let version = scene.tui.virtual.version;
  let since = performance.now();
  while (performance.now() < end && performance.now() - since < quietMs) {
    await sleep(250);
    if (scene.tui.virtual.version !== version) {
      version = scene.tui.virtual.version;
      since = performance.now();
    }
  }
}
