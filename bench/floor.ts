/**
 * The floor of any Ink TUI on this machine, as the bench starts it: bench/ink-floor.tsx, bundled
 * and loaded as relevo's command is (`npm run build:bench` writes dist/bench/ink-floor/), in a bench terminal.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sleep } from '../test/helpers/until.js';
import { tempDir } from './cleanup.js';
import { openTerminal } from './spawn.js';

const FLOOR_TEXT = 'ink floor · idle';
const INK_FLOOR = fileURLToPath(new URL('./ink-floor/ink-floor.js', import.meta.url));

/** Whether the floor's bundle is built. */
export const hasInkFloor = (): boolean => existsSync(INK_FLOOR);

/** Two panes for the floor to hold: `agent`'s argv in two pseudo-terminals of `cols`×`rows` (ink-floor.tsx). */
export type FloorPanes = { readonly cols: number; readonly rows: number; readonly agent: readonly string[] };

/**
 * relevo's own modules for the floor to load first, none run (ink-floor.tsx): those its first frame
 * needs, or those and its run's.
 */
export type FloorModules = 'frame' | 'run';

export type FloorOptions = { readonly panes?: FloorPanes; readonly modules?: FloorModules };

/** Starts the floor and resolves once its line is painted: ms from spawn to that output, and its pid. */
export async function openInkFloor(o: FloorOptions = {}): Promise<{ firstFrameMs: number; pid: number; close: () => Promise<void> }> {
  const dir = tempDir('relevo-bench-floor-');
  const withPanes = o.panes ? [String(o.panes.cols), String(o.panes.rows), ...o.panes.agent] : [];
  const modules = o.modules ? [`--relevo-modules=${o.modules}`] : [];
  const ink = openTerminal([process.execPath, INK_FLOOR, ...modules, FLOOR_TEXT, ...withPanes], { cwd: dir.path });
  const close = async () => {
    await ink.kill(3000);
    dir.remove();
  };
  try {
    const at = await ink.until((t) => t.includes(FLOOR_TEXT), 20_000, 'the Ink floor');
    return { firstFrameMs: at - ink.started, pid: ink.pid, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** `measure(pid)` of the floor once it has kept still `stillMs` after its first frame (as relevo's scenes are left), then closes it. */
export async function idleInkFloor<T>(stillMs: number, measure: (pid: number) => T | Promise<T>, o: FloorOptions = {}): Promise<T> {
  const floor = await openInkFloor(o);
  try {
    await sleep(stillMs);
    return await measure(floor.pid);
  } finally {
    await floor.close();
  }
}
