/**
 * The situations the memory and idle benches measure, each for relevo's TUI and for tmux driven the
 * same way (a client attached in the bench's own 160×40 pseudo-terminal, two panes side by side):
 * the demo after it reached `done`, and two stand-in agents (print-agent.ts) that printed their lines
 * and sit idle at a prompt.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Painted, paint, sleep, TmuxServer, tempDir } from './pty-run.js';
import { BIN } from './startup.js';

export const COLS = 160;
export const ROWS = 40;
const AGENT = fileURLToPath(new URL('./print-agent.js', import.meta.url));
/** tmux's `history-limit`, and relevo's least scrollback (src/pty/screen.ts keeps ≥ 10,000 lines). */
export const HISTORY = 10_000;

/** A running scene: the process measured (relevo's, or the tmux server), and how to end it. */
export type Scene = { readonly pid: number; readonly tui: Painted; close(): Promise<void> };

const printAgent = (lines: number, name: string) => [process.execPath, AGENT, '--lines', String(lines), '--name', name];
const printed = (lines: number) => (t: string) => (t.match(new RegExp(`printed ${lines} lines`, 'g')) ?? []).length >= 2;

async function relevo(args: readonly string[], ready: (t: string) => boolean, what: string, timeoutMs: number): Promise<Scene> {
  const dir = tempDir('relevo-bench-scene-');
  const tui = paint([process.execPath, BIN, ...args, '--state-dir', join(dir.path, '.relevo')], { cols: COLS, rows: ROWS, cwd: dir.path });
  const close = async () => {
    await tui.stop(3000);
    dir.remove();
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

/** relevo's TUI on the demo, once the planner said `<done>` (the TUI stays open). */
export const relevoDemoDone = () => relevo(['--demo'], (t) => / · done\b/.test(band(t)), 'the demo to reach done', 90_000);

/**
 * relevo's TUI with two stand-in agents (generic profile) that print `lines` lines each and sit at a
 * prompt; the goal is typed to the planner, whose turn ends with no handoff: the relay pauses and
 * nothing moves any more.
 */
export function relevoPrinting(lines: number): Promise<Scene> {
  const line = (name: string) => printAgent(lines, name).join(' ');
  const args = ['--goal', 'Sit idle', '--planner', line('planner'), '--builder', line('builder')];
  const ready = (t: string) => printed(lines)(t) && band(t).includes('paused');
  return relevo(
    [...args, '--planner-profile', 'generic', '--builder-profile', 'generic'],
    ready,
    'both agents printed, the relay paused',
    120_000,
  );
}

async function tmux(left: readonly string[], right: readonly string[], ready: (t: string) => boolean, what: string): Promise<Scene> {
  const server = new TmuxServer();
  const dir = tempDir('relevo-bench-scene-');
  const conf = join(dir.path, 'tmux.conf');
  writeFileSync(conf, `set -g history-limit ${HISTORY}\n`);
  const session = ['-S', server.socket, '-f', conf, 'new-session', '-d', '-s', 'bench', '-x', String(COLS), '-y', String(ROWS - 1)];
  const close = async () => {
    server.kill();
    dir.remove();
  };
  let tui: Painted | undefined;
  try {
    await server.run(...session.slice(2), '-c', dir.path, '--', ...left);
    await server.run('split-window', '-h', '-t', 'bench', '-c', dir.path, '--', ...right);
    tui = paint(['tmux', '-S', server.socket, 'attach', '-t', 'bench'], { cols: COLS, rows: ROWS, cwd: dir.path });
    await tui.until(ready, 60_000, what);
    const pid = await server.pid();
    const painted = tui;
    return {
      pid,
      tui,
      close: async () => {
        await close();
        await painted.stop();
      },
    };
  } catch (error) {
    await close();
    await tui?.stop();
    throw error;
  }
}

/** A tmux server with the demo's simulated agents in two panes, a client attached. */
export function tmuxDemo(): Promise<Scene> {
  const sim = (role: string) => [process.execPath, BIN, 'sim-agent', '--role', role];
  return tmux(sim('planner'), sim('builder'), (t) => (t.match(/❯/g) ?? []).length >= 2, 'both simulated agents at their prompt');
}

/** A tmux server (history-limit 10000) with the two stand-in agents in two panes, a client attached. */
export const tmuxPrinting = (lines: number) =>
  tmux(printAgent(lines, 'planner'), printAgent(lines, 'builder'), printed(lines), 'both agents printed');

/** Waits until nothing has been painted for `quietMs` (toasts gone, the last frame out), at most `maxMs`. */
export async function quiet(scene: Scene, quietMs: number, maxMs: number): Promise<void> {
  const end = performance.now() + maxMs;
  let version = scene.tui.screen.version;
  let since = performance.now();
  while (performance.now() < end && performance.now() - since < quietMs) {
    await sleep(250);
    if (scene.tui.screen.version !== version) {
      version = scene.tui.screen.version;
      since = performance.now();
    }
  }
}
