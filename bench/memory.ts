/**
 * Memory: VmRSS of relevo's own process (not its agents) (a) idle after the demo reached `done`,
 * (b) with two agents that each printed 10,500 lines into their panes' scrollback and sit idle —
 * idle as a TUI sits in front of a person, once it painted nothing for 30 s (scenes.ts STEADY_MS:
 * V8 gives memory back a while after the last activity); against the tmux server's RSS in the same
 * two scenes (history-limit 10000; it has no collector to wait for: 1 s still). In (b) relevo's
 * scrollback is checked too: copy mode's top of history (`C-] [` then `g`) must show a line printed
 * ≥ 10,000 lines before the last.
 */

import { RELIEF_MS } from '../src/app/run/memory-relief.js';
import { firstLayout } from '../src/tui/view/compositor.js';
import { sleep } from '../test/helpers/until.js';
import { type Figure, median } from './figure.js';
import { type FloorModules, hasInkFloor, idleInkFloor } from './floor.js';
import { rssMB, threadArenasMB } from './proc.js';
import { HISTORY, quiet, relevoDemoDone, relevoPrinting, type Scene, STEADY_MS, tmuxDemo, tmuxPrinting } from './scenes.js';
import { COLS, ROWS } from './spawn.js';
import { Workdir } from './workdir.js';

/** Lines each agent prints: more than the scrollback kept; quick (the CI smoke), a screenful or so. */
const LINES = 10_500;
const QUICK_LINES = 1_200;
/** The goals, MB: idle after the demo, and with the scrollback full. */
const IDLE_LIMIT = 60;
const FULL_LIMIT = 100;

/** Resident memory, MB: RSS, its anonymous and file-backed parts, and the helper threads' malloc arenas. */
type Memory = ReturnType<typeof rssMB> & { arenas: number };
const memoryOf = (pid: number): Memory => ({ ...rssMB(pid), arenas: threadArenasMB(pid) });

/** Resident memory (and, for relevo, its RSS when the scene had painted nothing for only 1 s: `soon`). */
type Rss = Memory & { soon?: number };

/** A scene's RSS once it has painted nothing for `stillMs` (toasts gone) and, when `stillMs` is longer, after 1 s of that; then closes it. */
async function rss(open: () => Promise<Scene>, stillMs: number, after?: (s: Scene) => Promise<void>): Promise<Rss> {
  const scene = await open();
  try {
    const soonMs = Math.min(1000, stillMs);
    await quiet(scene, soonMs, soonMs + 20_000);
    const soon = rssMB(scene.pid).rss;
    if (stillMs > soonMs) await quiet(scene, stillMs - soonMs, stillMs + 20_000);
    const mb: Rss = { ...memoryOf(scene.pid), ...(stillMs > soonMs ? { soon } : {}) };
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
    const first = /planner line (\d+)/.exec(scene.tui.screen());
    return first ? Number(first[1]) : Number.NaN;
  };
  await scene.tui.until(() => top() < lines - scene.tui.virtual.rows * 2, 10_000, 'the top of the history');
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

/**
 * The figure; its note says what the resident memory is made of, then `info`, or `problem` where
 * something fails the goal; `floor`, MB: what relevo cannot hold less than.
 */
function figure(
  key: string,
  what: string,
  relevo: Rss[],
  base: Rss[],
  limit: number,
  o: { readonly problem?: string | undefined; readonly info?: string | undefined; readonly floor?: number | undefined },
): Figure {
  const rss = relevo.map((r) => r.rss);
  const met = median(rss) <= limit && o.problem === undefined;
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
    goal: { text: `≤ ${limit} MB`, met, ...(!met && o.floor !== undefined && o.floor > limit ? { floorAbove: true } : {}) },
    note: [o.problem, parts, o.info].filter(Boolean).join('; '),
  };
}

/**
 * The idle Ink floor holding two idle agents in panes of relevo's size: what relevo cannot hold less
 * than; with `modules`, relevo's own modules loaded too, none of them run (ink-floor.tsx).
 */
async function floorWithPanes(still: number, modules?: FloorModules): Promise<Memory> {
  const dir = new Workdir();
  try {
    const { width, height } = firstLayout(COLS, ROWS).panes.planner!.inner;
    const panes = { cols: width, rows: height, agent: dir.agent('print', 'floor', 0) };
    return await idleInkFloor(still, memoryOf, { panes, ...(modules ? { modules } : {}) });
  } finally {
    dir.release();
  }
}

/** What the floors say of relevo's idle memory against the goal (`limit`, MB), and what its run holds beyond them. */
function floorNote(floor: readonly Memory[], withCode: readonly Memory[], relevo: readonly Memory[], limit: number): string {
  if (floor.length === 0) return 'floor: not measured (dist/bench/ink-floor/ not built)';
  const of = (ms: readonly Memory[], part: keyof Memory) => median(ms.map((m) => m[part]));
  const code = of(withCode, 'rss');
  const more = (part: keyof Memory) => of(relevo, part) - of(withCode, part);
  const rest = more('rss') - more('arenas') - more('file');
  const past =
    code > limit
      ? `more than the goal: relevo's code alone, loaded and idle, leaves none of its ${limit} MB to the run`
      : `${(limit - code).toFixed(1)} MB under the goal`;
  return [
    `floor: an idle Ink app (Node, React, Ink, yoga; bundled and loaded as relevo is) with two idle agents in pseudo-terminals, each parsed by @xterm/headless, holds ${of(floor, 'rss').toFixed(1)} MB`,
    `with relevo's own modules loaded too (those a TUI run loads, none run; once still, collected as relevo collects to give memory back) ${code.toFixed(1)} MB, ${past}`,
    `relevo's run holds ${more('rss').toFixed(1)} MB more: ${more('arenas').toFixed(1)} MB in the malloc arenas of Node's helper threads (${of(relevo, 'arenas').toFixed(1)} MB against ${of(withCode, 'arenas').toFixed(1)}: what V8's compile and GC workers freed, kept for reuse; Node sizes that pool only at start, --v8-pool-size), ${more('file').toFixed(1)} MB of files paged in (node's own code), ${rest.toFixed(1)} MB in V8's heap and the main malloc arena`,
  ].join('; ');
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
  const floor: Memory[] = [];
  const floorWithCode: Memory[] = [];
  const echoes: number[][] = [];
  for (let i = 0; i < opts.reps; i++) {
    if (hasInkFloor()) {
      floor.push(await floorWithPanes(still));
      floorWithCode.push(await floorWithPanes(still, 'run'));
    }
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
  const stillFor = still >= RELIEF_MS ? `${still / 1000} s, once it gave memory back (its compiled code dropped)` : `${still} ms`;
  const echoNote = `the first key typed after it was still for ${stillFor} echoed in ${median(echoes.map((e) => e[0] ?? Number.NaN)).toFixed(1)} ms, the next ones in ${median(echoes.flatMap((e) => e.slice(1))).toFixed(1)} ms`;
  return [
    figure('memory.idle', 'RSS idle after the demo reached done', idle, idleTmux, IDLE_LIMIT, {
      info: `${floorNote(floor, floorWithCode, idle, IDLE_LIMIT)}; ${echoNote}`,
      floor: floorWithCode.length > 0 ? median(floorWithCode.map((m) => m.rss)) : undefined,
    }),
    figure('memory.scrollback', `RSS with ${lines} lines in both panes' scrollback`, full, fullTmux, FULL_LIMIT, {
      problem: short,
      info: short ? undefined : scrollback,
    }),
  ];
}
