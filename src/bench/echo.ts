/**
 * Keystroke echo through the focused pane: a key typed into the bench's own terminal → the time
 * that key is painted back, with the other pane idle and with it flooding coloured text. relevo's
 * TUI and tmux 3.x (a private server, attached in the same kind of terminal, two panes split the
 * same way) run the same two agents — an echo program on the left, focused, and a flood on the
 * right that starts on a signal — and take turns, repetition by repetition, in one run. So does
 * the floor Node sets (bare-relay.ts), named where relevo misses the goal, and that floor with each
 * pane's terminal on a worker thread (what an echo would cost a Screen moved off the main thread).
 */

import { sleep } from './cleanup.js';
import type { Figure } from './figure.js';
import { median, quantile } from './figure.js';
import { ECHO_KEYS, PROBE_KEY, PROBE_LINE } from './flood-text.js';
import { type Session, withSession } from './session.js';
import type { BenchTerminal } from './terminal.js';
import { tmuxVersion } from './tmux.js';
import type { Workdir } from './workdir.js';

export type EchoOptions = { readonly reps: number; readonly quick: boolean };

type Scenario = 'idle' | 'flood';
type Latencies = Record<Scenario, number[]>;

const GOAL_RATIO = 1.3;
const agents = (dir: Workdir) => ({
  left: dir.agent('echo', 'echo'),
  right: dir.agent('flood', 'flood'),
  tags: ['echo', 'flood'] as [string, string],
});

let turn = 0;
/** Types the next key and resolves with how long it took to be painted (ms). */
async function keystroke(term: BenchTerminal, ms = 2000): Promise<number> {
  const key = ECHO_KEYS[turn++ % ECHO_KEYS.length]!;
  const painted = term.watch(key, ms);
  const t0 = performance.now();
  term.write(key);
  return (await painted) - t0;
}

/**
 * Makes sure keys reach the echo agent: relevo's goal prompt (closed with Esc when the session
 * opened) would take them and paint them itself. An Esc that arrives with the next key reads as
 * Alt+key, so the probe goes a little after it, and on no answer another Esc. Then `keys` keys not counted.
 */
async function warmUp(term: BenchTerminal, keys: number): Promise<void> {
  for (let tries = 0; ; tries++) {
    await sleep(200);
    const answered = term.watch(PROBE_LINE, 1000);
    term.write(PROBE_KEY);
    try {
      await answered;
      break;
    } catch (error) {
      if (tries >= 10) throw new Error(`keys typed do not reach the echo agent: ${(error as Error).message}`);
      term.write('\x1b');
    }
  }
  for (let i = 0; i < keys; i++) {
    await keystroke(term);
    await sleep(25);
  }
}

/** `n` keystrokes, 20–30 ms apart (after each one's echo), so none batch with the next. */
async function series(term: BenchTerminal, n: number): Promise<number[]> {
  const out: number[] = [];
  let missed = 0;
  while (out.length < n) {
    try {
      out.push(await keystroke(term));
    } catch (error) {
      if (++missed > 5) throw error;
    }
    await sleep(20 + Math.random() * 10);
  }
  return out;
}

/** One repetition on one system: the idle series, then the flood started and the flooding series. */
async function rep(session: Session, keys: number): Promise<Latencies> {
  await warmUp(session.term, Math.min(10, keys));
  const idle = await series(session.term, keys);
  process.kill(await session.dir.pid('flood'), 'SIGUSR1');
  await sleep(300); // the flood is under way
  const flood = await series(session.term, keys);
  return { idle, flood };
}

const stat = (q: 0.5 | 0.95) => (xs: readonly number[]) => quantile(xs, q);

export async function figures(opts: EchoOptions): Promise<Figure[]> {
  const reps = opts.quick ? 1 : Math.max(1, opts.reps);
  // Quick (the CI smoke): a handful of keys, enough for a p95 to be a number.
  const keys = opts.quick ? 8 : 200;
  const tmux = await tmuxVersion();
  const systems: Session['name'][] = [...(tmux ? ['relevo', 'tmux'] : ['relevo']), 'bare', 'bare-worker'] as Session['name'][];
  const runs: Record<Session['name'], Latencies[]> = { relevo: [], tmux: [], bare: [], 'bare-worker': [] };
  for (let r = 0; r < reps; r++) {
    // Interleaved, and in turns first, so neither always runs on a machine the other just warmed.
    const order = r % 2 === 0 ? systems : [...systems].reverse();
    for (const name of order) {
      try {
        runs[name].push(await withSession(name, agents, (s) => rep(s, keys)));
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    }
  }
  const out: Figure[] = [];
  for (const scenario of ['idle', 'flood'] as const) {
    for (const [label, q] of [
      ['p50', 0.5],
      ['p95', 0.95],
    ] as const) {
      const per = (name: Session['name']) => runs[name].map((l) => stat(q)(l[scenario]));
      const samples = per('relevo');
      const relevo = median(samples);
      const base = tmux ? per('tmux') : [];
      const baseline = tmux ? { name: tmux, value: median(base), samples: base } : undefined;
      const floor = median(per('bare'));
      const worker = median(per('bare-worker'));
      const met = baseline !== undefined && relevo <= GOAL_RATIO * baseline.value;
      const ratio = (ms: number) => (baseline ? ` = ${(ms / baseline.value).toFixed(2)}× tmux` : '');
      const workerNote = `with each pane's terminal on a worker thread: ${worker.toFixed(1)} ms${ratio(worker)}`;
      const note = !baseline
        ? `tmux 3.x is not installed here: no baseline; ${workerNote}`
        : met
          ? `the bare stack ${workerNote}`
          : `floor: one Node process with node-pty and @xterm/headless, writing the echo out once parsed (no painting, src/bench/bare-relay.ts): ${floor.toFixed(1)} ms${ratio(floor)}; ${workerNote}`;
      const what = `keystroke echo, focused pane, ${scenario === 'idle' ? 'other pane idle' : 'other pane flooding'}, ${label}`;
      out.push({
        key: `echo.${scenario}.${label}`,
        what,
        unit: 'ms',
        relevo,
        samples,
        ...(baseline ? { baseline } : {}),
        goal: {
          text: `≤ ${GOAL_RATIO}× tmux`,
          met,
          ...(baseline && !met && floor > GOAL_RATIO * baseline.value ? { floorAbove: true } : {}),
        },
        note,
      });
    }
  }
  return out;
}
