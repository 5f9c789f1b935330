/**
 * A cap on V8's young generation for relevo's long-running processes (the TUI, `--headless`).
 *
 * V8 doubles the new space whenever many objects survive a scavenge, up to 32 MB on 64-bit, and
 * gives it back only when its memory reducer runs, ≈ 20 s after the process went still. Agents
 * that keep streaming keep relevo at the whole 32 MB for as long as they work. Capped at 8 MB it
 * holds ≈ 20 MB less while a run is busy and until the reducer runs (≈ 3 MB less after), for ≈ 3 %
 * more CPU while a pane floods (more, smaller scavenges): measured with `npm run bench -- --only
 * memory` (the note's figure 1 s after the last paint) and the scavenges' time in a flood.
 *
 * The maximum size is fixed when the heap is made; what can still change at run time is how much
 * the new space grows by. So growth is stopped — the factor set to 1 — after the first GC that
 * finds the new space at the cap. A person's own semi-space flags (NODE_OPTIONS, node's arguments)
 * win: nothing is changed then.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

export const YOUNG_GENERATION_MB = 8;

const newSpaceBytes = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/** Whether the person chose the young generation's size themselves. */
function chosenByPerson(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  return [...execArgv, env.NODE_OPTIONS ?? ''].some((arg) => /semi[-_]space/.test(arg));
}

/** Stops the new space growing past `mb` (see the module's comment); returns whether it will. */
export function capYoungGeneration(
  mb = YOUNG_GENERATION_MB,
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): boolean {
  if (chosenByPerson(env, execArgv)) return false;
  const cap = mb * 1024 * 1024;
  const stop = () => setFlagsFromString('--semi-space-growth-factor=1');
  if (newSpaceBytes() >= cap) {
    stop();
    return true;
  }
  const observer = new PerformanceObserver(() => {
    if (newSpaceBytes() < cap) return;
    stop();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
  return true;
}
