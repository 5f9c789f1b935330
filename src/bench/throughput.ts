/**
 * Throughput: how fast a flood of SGR-coloured text goes through. Each pane runs a flood agent
 * that waits for a signal, writes 50 MB (whole 64 KiB blocks) and then its marker line; the clock
 * runs from the signal to the marker painted on the bench's own terminal (relevo paints at most
 * 30 frames a second; the marker is on the last). After one unmeasured flood of the left pane
 * (warm-up, for every system), the left pane alone, then both at once.
 * Baselines from the same run, in turns: tmux 3.x (the marker in its attached client's output)
 * and the bare stack (bare-stack.ts: node-pty + @xterm/headless in one process), with one pane
 * and with both — the floor of parsing both panes on one thread, against the goal of 1.6× tmux,
 * and what two threads reach with each pane's terminal on a worker thread of its own — and, for
 * one pane, the bare stack with relevo's output history on every chunk (how much of the gap that is).
 */
import { firstLayout } from '../tui/compositor.js';
import { bareFlood } from './bare-stack.js';
import { sleep } from './cleanup.js';
import type { Figure } from './figure.js';
import { median } from './figure.js';
import { floodBytes, floodMarker } from './flood-text.js';
import { type Session, withSession } from './session.js';
import { COLS, ROWS } from './terminal.js';
import { tmuxVersion } from './tmux.js';
import type { Workdir } from './workdir.js';

export type ThroughputOptions = { readonly reps: number; readonly quick: boolean };

const MARKER_MS = 300_000;

/**
 * MB/s of the left pane alone, then of both panes at once (all bytes over the time both took) —
 * after one flood of the left pane that is not measured: a TUI runs for hours, so what counts is
 * relevo's (and the bare stack's) JIT-compiled code, not the first megabytes a fresh process parses.
 */
async function rep(session: Session, bytes: number): Promise<{ one: number; both: number }> {
  const [left, right] = [await session.dir.pid('left'), await session.dir.pid('right')];
  const total = floodBytes(bytes) / 1e6;
  const warm = session.term.watch(floodMarker('left', 1), MARKER_MS);
  process.kill(left, 'SIGUSR1');
  await warm;
  await sleep(300);
  const one = session.term.watch(floodMarker('left', 2), MARKER_MS);
  let t0 = performance.now();
  process.kill(left, 'SIGUSR1');
  const oneS = ((await one) - t0) / 1000;
  const both = [session.term.watch(floodMarker('left', 3), MARKER_MS), session.term.watch(floodMarker('right', 1), MARKER_MS)];
  t0 = performance.now();
  process.kill(left, 'SIGUSR1');
  process.kill(right, 'SIGUSR1');
  const bothS = (Math.max(...(await Promise.all(both))) - t0) / 1000;
  return { one: total / oneS, both: (2 * total) / bothS };
}

type Runs = { relevo: number[]; tmux: number[]; bare: number[]; workers: number[]; read: number[]; logged: number[] };

export async function figures(opts: ThroughputOptions): Promise<Figure[]> {
  const reps = opts.quick ? 1 : Math.max(1, opts.reps);
  const bytes = opts.quick ? 2e6 : 50e6;
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
        one.bare.push(mb / ((await bareFlood(bytes, inner.width, inner.height)) / 1000));
        // With relevo's output history on every chunk: how much of the gap to relevo that is.
        one.logged.push(mb / ((await bareFlood(bytes, inner.width, inner.height, 1, 'main', true)) / 1000));
        both.bare.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2)) / 1000));
        // Each pane's terminal on a worker thread of its own: what both cores reach.
        both.workers.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2, 'worker')) / 1000));
        // No parsing at all: what the flood agents and the pseudo-terminals reach on this machine.
        both.read.push((2 * mb) / ((await bareFlood(bytes, inner.width, inner.height, 2, 'none')) / 1000));
        continue;
      }
      const got = await withSession(name, agents, (s) => rep(s, bytes));
      one[name].push(got.one);
      both[name].push(got.both);
    }
  }
  const size = `${Math.round(mb)} MB`;
  const noTmux = 'tmux 3.x is not installed here: no baseline';
  const relevoOne = median(one.relevo);
  const bare = median(one.bare);
  const logged = median(one.logged);
  const oneMet = relevoOne >= 0.9 * bare;
  const out: Figure[] = [
    {
      key: 'throughput.one',
      what: `throughput, one pane flooded with ${size} of coloured text`,
      unit: 'MB/s',
      relevo: relevoOne,
      samples: one.relevo,
      baseline: { name: 'node-pty + @xterm/headless', value: bare, samples: one.bare },
      goal: { text: '≥ 0.9× the bare stack', met: oneMet },
      ...(oneMet
        ? {}
        : {
            note: `the bare stack with relevo's output history on every chunk: ${logged.toFixed(1)} MB/s = ${(logged / bare).toFixed(2)}× the bare stack; the rest is relevo's painting, its screen's bookkeeping and GC`,
          }),
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
