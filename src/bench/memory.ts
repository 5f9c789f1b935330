/**
 * Memory: VmRSS of relevo's own process (not its agents) (a) idle after the demo reached `done`,
 * (b) with two agents that each printed 10,500 lines into their panes' scrollback and sit idle —
 * idle as a TUI sits in front of a person, once it painted nothing for 30 s (scenes.ts STEADY_MS:
 * V8 gives memory back ≈ 20 s after the last activity); against the tmux server's RSS in the same
 * two scenes (history-limit 10000; it has no collector to wait for: 1 s still). In (b) relevo's
 * scrollback is checked too: copy mode's top of history (`C-] [` then `g`) must show a line printed
 * ≥ 10,000 lines before the last.
 */

import { RELIEF_MS } from '../app/run/memory-relief.js';
import { firstLayout } from '../tui/compositor.js';
import { sleep } from './cleanup.js';
import { type Figure, median } from './figure.js';
import { hasInkFloor, idleInkFloor } from './floor.js';
import { rssMB } from './proc.js';
import { HISTORY, quiet, relevoDemoDone, relevoPrinting, type Scene, STEADY_MS, tmuxDemo, tmuxPrinting } from './scenes.js';
import { COLS, ROWS } from './terminal.js';
import { Workdir } from './workdir.js';

/** Lines each agent prints: more than the scrollback kept; quick (the CI smoke), a screenful or so. */
const LINES = 10_500;
const QUICK_LINES = 1_200;

/** RSS (and, for relevo, its RSS when the scene had painted nothing for only 1 s: `soon`). */
type Rss = ReturnType<typeof rssMB> & { soon?: number };

/** A scene's RSS once it has painted nothing for `stillMs` (toasts gone) and, when `stillMs` is longer, after 1 s of that; then closes it. */
async function rss(open: () => Promise<Scene>, stillMs: number, after?: (s: Scene) => Promise<void>): Promise<Rss> {
  const scene = await open();
  try {
    const soonMs = Math.min(1000, stillMs);
    await quiet(scene, soonMs, soonMs + 20_000);
    const soon = rssMB(scene.pid).rss;
    if (stillMs > soonMs) await quiet(scene, stillMs - soonMs, stillMs + 20_000);
    const mb: Rss = { ...rssMB(scene.pid), ...(stillMs > soonMs ? { soon } : {}) };
    await after?.(scene);
    return mb;
  } finally {
    await scene.close();
  }
}

/** How many of the planner's printed lines relevo still holds: copy mode at the top of the history. */
async function keptLines(scene: Scene, lines: number): Promise<number> {
  scene.tui.write('\x1d[');
  await scene.tui.until((t) => t.includes('copy mode'), 10_000, 'copy mode');
  await sleep(100);
  scene.tui.write('g');
  const top = () => {
    const first = /planner line (\d+)/.exec(scene.tui.text());
    return first ? Number(first[1]) : Number.NaN;
  };
  await scene.tui.until(() => top() < lines - scene.tui.screen.rows * 2, 10_000, 'the top of the history');
  await sleep(300);
  return lines - top() + 1;
}

/** Keys typed after the still period (into the demo's planner, at its prompt): how long each took to echo, in ms. */
async function echoesAfterStill(scene: Scene, keys = 'qzjw'): Promise<number[]> {
  const ms: number[] = [];
  for (const key of keys) {
    const seen = scene.tui.watch(key, 5000);
    const typed = performance.now();
    scene.tui.write(key);
    ms.push((await seen) - typed);
    await sleep(300);
  }
  return ms;
}

/** The figure; its note says what the resident memory is made of (and anything that fails the goal). */
function figure(key: string, what: string, relevo: Rss[], base: Rss[], limit: number, problem?: string, info?: string): Figure {
  const rss = relevo.map((r) => r.rss);
  const soon = relevo.flatMap((r) => (r.soon === undefined ? [] : [r.soon]));
  const parts = [
    `anonymous ${median(relevo.map((r) => r.anon)).toFixed(1)} MB, file-backed ${median(relevo.map((r) => r.file)).toFixed(1)} MB`,
    soon.length > 0 ? `1 s after its last paint, before V8 gave memory back: ${median(soon).toFixed(1)} MB` : undefined,
  ]
    .filter(Boolean)
    .join('; ');
  return {
    key,
    what,
    unit: 'MB',
    relevo: median(rss),
    samples: rss,
    baseline: { name: 'tmux server', value: median(base.map((r) => r.rss)), samples: base.map((r) => r.rss) },
    goal: { text: `≤ ${limit} MB`, met: median(rss) <= limit && problem === undefined },
    note: [problem, parts, info].filter(Boolean).join('; '),
  };
}

/** The idle Ink floor holding two idle agents in panes of relevo's size: what relevo cannot hold less than. */
async function floorWithPanes(still: number): Promise<number> {
  const dir = new Workdir();
  try {
    const { width, height } = firstLayout(COLS, ROWS).panes.planner!.inner;
    return await idleInkFloor(still, (pid) => rssMB(pid).rss, { cols: width, rows: height, agent: dir.agent('print', 'floor', 0) });
  } finally {
    dir.release();
  }
}

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const lines = opts.quick ? QUICK_LINES : LINES;
  // How long the scene painted nothing before it is measured; quick, a moment.
  const [still, tmuxStill] = opts.quick ? [300, 300] : [STEADY_MS, 1000];
  const idle: Rss[] = [];
  const idleTmux: Rss[] = [];
  const full: Rss[] = [];
  const fullTmux: Rss[] = [];
  const kept: number[] = [];
  const floor: number[] = [];
  const echoes: number[][] = [];
  for (let i = 0; i < opts.reps; i++) {
    if (hasInkFloor()) floor.push(await floorWithPanes(still));
    idle.push(
      await rss(
        () => relevoDemoDone(opts.quick),
        still,
        async (s) => void echoes.push(await echoesAfterStill(s)),
      ),
    );
    idleTmux.push(await rss(tmuxDemo, tmuxStill));
    full.push(
      await rss(
        () => relevoPrinting(lines),
        still,
        async (s) => void kept.push(await keptLines(s, lines)),
      ),
    );
    fullTmux.push(await rss(() => tmuxPrinting(lines), tmuxStill));
  }
  const least = Math.min(...kept);
  const scrollback = `copy mode still shows ${least} of the planner's ${lines} lines (relevo keeps ≥ ${HISTORY}; tmux history-limit ${HISTORY})`;
  const short = least >= Math.min(HISTORY, lines) ? undefined : `scrollback too short: ${scrollback}`;
  const floorNote =
    floor.length > 0
      ? `floor: an idle Ink app (Node, React, Ink, yoga; bundled and loaded as relevo is) with two idle agents in pseudo-terminals, each parsed by @xterm/headless, holds ${median(floor).toFixed(1)} MB`
      : 'floor: not measured (dist/bench/ink-floor/ not built)';
  const stillFor = still >= RELIEF_MS ? `${still / 1000} s, once it gave memory back (its compiled code dropped)` : `${still} ms`;
  const echoNote = `the first key typed after it was still for ${stillFor} echoed in ${median(echoes.map((e) => e[0] ?? Number.NaN)).toFixed(1)} ms, the next ones in ${median(echoes.flatMap((e) => e.slice(1))).toFixed(1)} ms`;
  return [
    figure('memory.idle', 'RSS idle after the demo reached done', idle, idleTmux, 60, undefined, `${floorNote}; ${echoNote}`),
    figure(
      'memory.scrollback',
      `RSS with ${lines} lines in both panes' scrollback`,
      full,
      fullTmux,
      100,
      short,
      short ? undefined : scrollback,
    ),
  ];
}
