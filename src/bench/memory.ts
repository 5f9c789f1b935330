/**
 * Memory: VmRSS of relevo's own process (not its agents) (a) idle after the demo reached `done`,
 * (b) with two agents that each printed 10,500 lines into their panes' scrollback and sit idle;
 * against the tmux server's RSS in the same two scenes (history-limit 10000). In (b) relevo's
 * scrollback is checked too: copy mode's top of history (`C-] [` then `g`) must show a line printed
 * ≥ 10,000 lines before the last.
 */

import { sleep } from './cleanup.js';
import { type Figure, median } from './figure.js';
import { hasInkFloor, idleInkFloor } from './floor.js';
import { rssMB } from './proc.js';
import { HISTORY, quiet, relevoDemoDone, relevoPrinting, type Scene, tmuxDemo, tmuxPrinting } from './scenes.js';

/** Lines each agent prints: more than the scrollback kept; quick (the CI smoke), a screenful or so. */
const LINES = 10_500;
const QUICK_LINES = 1_200;

type Rss = ReturnType<typeof rssMB>;

/** RSS once the scene has painted nothing for `stillMs` (toasts gone), then closes the scene. */

async function rss(open: () => Promise<Scene>, stillMs: number, after?: (s: Scene) => Promise<void>): Promise<Rss> {
  const scene = await open();
  try {
    await quiet(scene, stillMs, 8000);
    const mb = rssMB(scene.pid);
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

/** The figure; its note says what the resident memory is made of (and anything that fails the goal). */
function figure(key: string, what: string, relevo: Rss[], base: Rss[], limit: number, problem?: string, info?: string): Figure {
  const rss = relevo.map((r) => r.rss);
  const parts = `anonymous ${median(relevo.map((r) => r.anon)).toFixed(1)} MB, file-backed ${median(relevo.map((r) => r.file)).toFixed(1)} MB`;
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

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const lines = opts.quick ? QUICK_LINES : LINES;
  // How long the scene painted nothing before it is measured; quick, a moment.
  const still = opts.quick ? 300 : 1000;
  const idle: Rss[] = [];
  const idleTmux: Rss[] = [];
  const full: Rss[] = [];
  const fullTmux: Rss[] = [];
  const kept: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < opts.reps; i++) {
    if (hasInkFloor()) floor.push(await idleInkFloor(still, (pid) => rssMB(pid).rss));
    idle.push(await rss(() => relevoDemoDone(opts.quick), still));
    idleTmux.push(await rss(tmuxDemo, still));
    full.push(
      await rss(
        () => relevoPrinting(lines),
        still,
        async (s) => void kept.push(await keptLines(s, lines)),
      ),
    );
    fullTmux.push(await rss(() => tmuxPrinting(lines), still));
  }
  const least = Math.min(...kept);
  const scrollback = `copy mode still shows ${least} of the planner's ${lines} lines (relevo keeps ≥ ${HISTORY}; tmux history-limit ${HISTORY})`;
  const short = least >= Math.min(HISTORY, lines) ? undefined : `scrollback too short: ${scrollback}`;
  const floorNote =
    floor.length > 0
      ? `floor: an idle Ink app (Node, React, Ink, yoga; bundled as relevo is) holds ${median(floor).toFixed(1)} MB`
      : 'floor: not measured (dist/bench/ink-floor/ not built)';
  return [
    figure('memory.idle', 'RSS idle after the demo reached done', idle, idleTmux, 60, undefined, floorNote),
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
