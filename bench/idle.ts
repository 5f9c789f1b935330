/**
 * Idle: wake-ups a second of relevo's process with two idle agents (the stand-in agents at their
 * prompt, the relay paused, nothing painted for 30 s: past V8's memory reducer, scenes.ts STEADY_MS):
 * the context switches, voluntary and not, of all its threads (/proc/<pid>/task/*) over ≥ 5 s, and
 * of its main thread alone. The tmux server the same way, with the same agents in two panes and a
 * client attached; and, where relevo is not at 0, the floor: the bundled Ink app of floor.ts, idle
 * as long after its first frame.
 */
import { type Figure, median } from './figure.js';
import { hasInkFloor, idleInkFloor } from './floor.js';
import { wakeupRate } from './proc.js';
import { quiet, relevoPrinting, type Scene, STEADY_MS, tmuxPrinting } from './scenes.js';

const LINES = 40;

async function rate(open: () => Promise<Scene>, quietMs: number, seconds: number): Promise<{ all: number; main: number }> {
  const scene = await open();
  try {
    // Toasts last 5 s, then V8's memory reducer runs a while: idle means after both are done.
    await quiet(scene, quietMs, quietMs + 20_000);
    return await wakeupRate(scene.pid, seconds);
  } finally {
    await scene.close();
  }
}

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  // Quick (the CI smoke): a short window, once the screen was still for 0.5 s (a toast may still be up).
  const [quietMs, seconds] = opts.quick ? [500, 1] : [STEADY_MS, 5];
  const all: number[] = [];
  const main: number[] = [];
  const tmux: number[] = [];
  const floor: { all: number; main: number }[] = [];
  for (let i = 0; i < opts.reps; i++) {
    const r = await rate(() => relevoPrinting(LINES), quietMs, seconds);
    all.push(r.all);
    main.push(r.main);
    tmux.push((await rate(() => tmuxPrinting(LINES), quietMs, seconds)).all);
    if (hasInkFloor()) floor.push(await idleInkFloor(quietMs, (pid) => wakeupRate(pid, seconds)));
  }
  const baseline = { name: 'tmux server', value: median(tmux), samples: tmux };
  const figure = (key: string, threads: string, samples: number[], floorOf: number[]): Figure => {
    const met = median(samples) === 0;
    const note =
      met || floorOf.length === 0
        ? undefined
        : `floor: an idle Ink app (Node, React, Ink, yoga; bundled and loaded as relevo is) wakes ${median(floorOf).toFixed(1)}/s in the same window after its start (V8's own garbage collection and worker threads); relevo arms no timer while idle`;
    return {
      key,
      what: `wake-ups, two idle agents, ${threads}, ${seconds} s`,
      unit: 'wakeups/s',
      relevo: median(samples),
      samples,
      baseline,
      goal: { text: '0/s', met },
      ...(note ? { note } : {}),
    };
  };
  return [
    figure(
      'idle.wakeups',
      'all threads',
      all,
      floor.map((f) => f.all),
    ),
    figure(
      'idle.wakeups.main',
      'main thread',
      main,
      floor.map((f) => f.main),
    ),
  ];
}
