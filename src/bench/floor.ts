/**
 * The floor of any Ink TUI on this machine, as the bench starts it: src/bench/ink-floor.tsx, bundled
 * and loaded as relevo's command is (`npm run build` writes dist/bench/ink-floor/), in a bench terminal.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sleep, tempDir } from './cleanup.js';
import { BenchTerminal } from './terminal.js';

const FLOOR_TEXT = 'ink floor · idle';
const INK_FLOOR = fileURLToPath(new URL('./ink-floor/ink-floor.js', import.meta.url));

/** Whether the floor's bundle is built. */
export const hasInkFloor = (): boolean => existsSync(INK_FLOOR);

/**
 * Two panes for the floor to hold: `agent`'s argv in two pseudo-terminals of `cols`×`rows`; with
 * `relevoModules`, relevo's own modules loaded beside them, none run (ink-floor.tsx).
 */
export type FloorPanes = {
  readonly cols: number;
  readonly rows: number;
  readonly agent: readonly string[];
  readonly relevoModules?: boolean;
};

/** Starts the floor and resolves once its line is painted: ms from spawn to that output, and its pid. */
export async function openInkFloor(panes?: FloorPanes): Promise<{ firstFrameMs: number; pid: number; close: () => Promise<void> }> {
  const dir = tempDir('relevo-bench-floor-');
  const withPanes = panes ? [String(panes.cols), String(panes.rows), ...panes.agent] : [];
  const modules = panes?.relevoModules ? ['--relevo-modules'] : [];
  const ink = new BenchTerminal([process.execPath, INK_FLOOR, ...modules, FLOOR_TEXT, ...withPanes], { cwd: dir.path });
  const close = async () => {
    await ink.stop(3000);
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
export async function idleInkFloor<T>(stillMs: number, measure: (pid: number) => T | Promise<T>, panes?: FloorPanes): Promise<T> {
  const floor = await openInkFloor(panes);
  try {
    await sleep(stillMs);
    return await measure(floor.pid);
  } finally {
    await floor.close();
  }
}
