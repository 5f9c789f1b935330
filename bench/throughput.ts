/**
 * Throughput: how fast a flood of SGR-coloured text goes through. Each pane runs a flood agent
 * that waits for a signal, writes 50 MB (whole 64 KiB blocks) and then its marker line; the clock
 * runs from the signal to the marker painted on the bench's own terminal (relevo paints at most
 * 30 frames a second; the marker is on the last). After one unmeasured flood of the left pane
 * (warm-up, for every system), the left pane alone (three times), then both at once.
 * Baselines from the same run, in turns: tmux 3.x (the marker in its attached client's output)
 * and the bare stack (bare-stack.ts: node-pty + @xterm/headless in one process) — its one-pane
 * floods alternating with relevo's, both open side by side (the goal is their ratio) — with one pane
 * and with both — the floor of parsing both panes on one thread, against the goal of 1.6× tmux,
 * and what two threads reach with each pane's terminal on a worker thread of its own — and, for
 * one pane, the bare stack with relevo's output history on every chunk (how much of the gap that is).
 */
import { firstLayout } from '../src/tui/view/compositor.js';
import { sleep } from '../test/helpers/until.js';
import { bareFlood, openBareStack } from './bare-stack.js';
import type { Figure } from './figure.js';
import { median } from './figure.js';
import { floodBytes, floodMarker } from './flood-text.js';
import { type Session, withSession } from './session.js';
import { COLS, ROWS } from './spawn.js';
import { tmuxVersion } from './tmux.js';
import type { Workdir } from './workdir.js';

export type ThroughputOptions = { readonly reps: number; readonly quick: boolean };

const MARKER_MS = 300_000;

/** One-pane floods in each session (and bare stack) of a repetition, after the warm-up. */
const FLOODS = 3;

/**
 * A system's session, its left pane warmed up by one flood that is not measured: a TUI runs for
 * hours, so what counts is relevo's (and the bare stack's) JIT-compiled code, not the first
 * megabytes a fresh process parses. `one()` floods the left pane alone, `both()` both panes at
 * once; each resolves with the seconds until the last marker was painted.
 */
async function floodsOf(session: Session): Promise<{ one(): Promise<number>; both(): Promise<number> }> {
  const [left, right] = [await session.dir.pid('left'), await session.dir.pid('right')];
  const round = { left: 1, right: 1 };
  const flood = async (tags: readonly ('left' | 'right')[]) => {
    const painted = tags.map((tag) => session.term.watch(floodMarker(tag, round[tag]++), MARKER_MS));
    const t0 = performance.now();
    for (const tag of tags) process.kill(tag === 'left' ? left : right, 'SIGUSR1');
    return (Math.max(...(await Promise.all(painted))) - t0) / 1000;
  };
  await flood(['left']);
  await sleep(300);
  return { one: () => flood(['left']), both: () => flood(['left', 'right']) };
}

type Runs = { relevo: number[]; tmux: number[]; bare: number[]; workers: number[]; read: number[]; logged: number[] };

export async function figures(opts: ThroughputOptions): Promise<Figure[]> {
  const reps = opts.quick ? 1 : Math.max(1, opts.reps);
  const bytes = opts.quick ? 2e6 : 50e6;
  const floods = opts.quick ? 1 : FLOODS;
  const mb = floodBytes(bytes) / 1e6;
  const tmux = await tmuxVersion();
  const agents = (dir: Workdir) => ({
    left: dir.agent('flood', 'left', bytes),
    right: dir.agent('flood', 'right', bytes),
    tags: ['left', 'right'] as [string, string],
  });
  const inner = firstLayout(COLS, ROWS).panes.planner!.inner;
  const one: Runs = { relevo: [], tmux: [], bare: [], workers: [], read: [], logged: [] };
  const both: Runs = { relevo: [], tmux: [], bare: [], workers: [], read: [], logged: [] };
  const systems: ('relevo' | 'tmux' | 'bare')[] = tmux ? ['relevo', 'tmux', 'bare'] : ['relevo', 'bare'];
  for (let r = 0; r < reps; r++) {
    const order = r % 2 === 0 ? systems : [...systems].reverse();
    for (const name of order) {
      if (name === 'bare') {
        // With relevo's output history on every chunk: how much of the gap to relevo that is.
        one.logged.push(mb / ((await bareFlood(bytes, inner.width, inner.height, 1, 'main', true)) / 1000));
        both.bare.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2)) / 1000));
        // Each pane's terminal on a worker thread of its own: what both cores reach.
        both.workers.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2, 'worker')) / 1000));
        // No parsing at all: what the flood agents and the pseudo-terminals reach on this machine.
        both.read.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2, 'none')) / 1000));
        continue;
      }
      await withSession(name, agents, async (s) => {
        const system = await floodsOf(s);
        if (name === 'tmux') {
          for (let i = 0; i < floods; i++) one.tmux.push(mb / (await system.one()));
        } else {
          // relevo's one-pane floods and the bare stack's take turns, a few seconds apart: this
          // machine's speed drifts (a flood can take twice as long for a while), and the goal is
          // their ratio, so both are sampled in the same stretches.
          const stack = await openBareStack(bytes, inner.width, inner.height);
          try {
            for (let i = 0; i < floods; i++) {
              const pair = [
                async () => one.relevo.push(mb / (await system.one())),
                async () => one.bare.push(mb / ((await stack.flood()) / 1000)),
              ];
              for (const run of (r + i) % 2 === 0 ? pair : pair.reverse()) await run();
            }
          } finally {
            stack.close();
          }
        }
        both[name].push((2 * mb) / (await system.both()));
      });
    }
  }
  const size = `${Math.round(mb)} MB`;
  const noTmux = 'tmux 3.x is not installed here: no baseline';
  const relevoOne = median(one.relevo);
  const bareOne = median(one.bare);
  const logged = median(one.logged);
  const oneMet = relevoOne >= 0.9 * bareOne;
  const out: Figure[] = [
    {
      key: 'throughput.one',
      what: `throughput, one pane flooded with ${size} of coloured text`,
      unit: 'MB/s',
      relevo: relevoOne,
      samples: one.relevo,
      baseline: { name: 'node-pty + @xterm/headless', value: bareOne, samples: one.bare },
      goal: { text: '≥ 0.9× the bare stack', met: oneMet },
      note: `${one.relevo.length} flood${one.relevo.length === 1 ? '' : 's'} each (${floods} a repetition), relevo's and the bare stack's in turns${
        oneMet
          ? ''
          : `; the bare stack with relevo's output history on every chunk: ${logged.toFixed(1)} MB/s = ${(logged / bareOne).toFixed(2)}× the bare stack; the rest is relevo's painting, its screen's bookkeeping and GC`
      }`,
    },
  ];
  const relevoBoth = median(both.relevo);
  const tmuxBoth = tmux ? { name: tmux, value: median(both.tmux), samples: both.tmux } : undefined;
  const bareBoth = { name: 'node-pty + @xterm/headless, both panes in one thread', value: median(both.bare), samples: both.bare };
  const met = tmuxBoth !== undefined && relevoBoth >= 1.6 * tmuxBoth.value;
  // What one thread can reach at all: the goal needs more than that when 1.6× tmux is above it.
  const floor = tmuxBoth
    ? `one thread's floor (the bare stack, both panes): ${bareBoth.value.toFixed(1)} MB/s = ${(bareBoth.value / tmuxBoth.value).toFixed(2)}× tmux; two threads' (the bare stack, each pane's terminal on a worker thread): ${median(both.workers).toFixed(1)} MB/s = ${(median(both.workers) / tmuxBoth.value).toFixed(2)}× tmux; the ptys read, nothing parsed: ${median(both.read).toFixed(1)} MB/s = ${(median(both.read) / tmuxBoth.value).toFixed(2)}× tmux`
    : noTmux;
  out.push({
    key: 'throughput.both',
    what: `throughput, both panes flooded with ${size} each (all bytes over the time both took)`,
    unit: 'MB/s',
    relevo: relevoBoth,
    samples: both.relevo,
    ...(tmuxBoth ? { baseline: tmuxBoth } : {}),
    goal: { text: '≥ 1.6× tmux', met },
    ...(met && tmuxBoth ? {} : { note: floor }),
  });
  if (tmux) {
    out.push({
      key: 'throughput.one.vs-tmux',
      what: `throughput, one pane flooded with ${size} of coloured text, against tmux`,
      unit: 'MB/s',
      relevo: relevoOne,
      samples: one.relevo,
      baseline: { name: tmux, value: median(one.tmux), samples: one.tmux },
      goal: { text: 'none (for reference; the goal is against the bare stack)', met: true },
    });
  }
  out.push({
    key: 'throughput.both.vs-bare',
    what: `throughput, both panes flooded with ${size} each, against the bare stack parsing both on one thread`,
    unit: 'MB/s',
    relevo: relevoBoth,
    samples: both.relevo,
    baseline: bareBoth,
    goal: { text: 'none (the single-thread floor, for the goal against tmux)', met: true },
  });
  return out;
}
