/**
 * Keystroke echo through the focused pane: a key typed into the bench's own terminal → the time
 * that key is painted back, with the other pane idle and with it flooding coloured text. relevo's
 * TUI and tmux 3.x (a private server, attached in the same kind of terminal, two panes split the
 * same way) run the same two agents — an echo program on the left, focused, and a flood on the
 * right that starts on a signal — open side by side in each repetition, the idle keys typed in
 * turns (see rep). So do the floor Node sets (bare-relay.ts), named where relevo misses the goal,
 * that floor with each pane's terminal on a worker thread (what an echo would cost a Screen moved
 * off the main thread), and Node's reads and writes with nothing parsed.
 */

import type { Program } from '../test/helpers/pty/program.js';
import { sleep } from '../test/helpers/until.js';
import type { Figure } from './figure.js';
import { median, quantile } from './figure.js';
import { ECHO_KEYS, PROBE_KEY, PROBE_LINE } from './flood-text.js';
import { openSession, type Session } from './session.js';
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
async function keystroke(term: Program, ms = 2000): Promise<number> {
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
async function warmUp(term: Program, keys: number): Promise<void> {
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
async function series(term: Program, n: number): Promise<number[]> {
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

/** Idle keys a system gets in one turn; a repetition's idle keys go in turns of this many. */
const TURN_KEYS = 20;

type Name = Session['name'];

/**
 * One repetition: every system's session open at once (idle ones cost nothing), the idle keys in
 * turns of TURN_KEYS (after one key not counted) — each system first in turn — so that every
 * system is sampled across the same stretches of a machine whose speed drifts (one session's p50
 * can be well off the next one's, of the same program); then, system by system, its flood
 * started, the flooding series, and the session closed (its flood would load the machine under
 * the next system's).
 */
async function rep(names: readonly Name[], keys: number): Promise<Record<Name, Latencies>> {
  const sessions: Session[] = [];
  const named = async <T>(name: Name, body: () => Promise<T>): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
  };
  try {
    for (const name of names) sessions.push(await named(name, () => openSession(name, agents)));
    for (const s of sessions) await named(s.name, () => warmUp(s.term, Math.min(10, keys)));
    const idle = new Map<Name, number[]>(names.map((name) => [name, []]));
    const turn = Math.min(TURN_KEYS, keys);
    for (let t = 0; t * turn < keys; t++) {
      const n = Math.min(turn, keys - t * turn);
      for (const s of [...sessions.slice(t % sessions.length), ...sessions.slice(0, t % sessions.length)]) {
        // A turn's first key, after the others' turns, is not counted: in every system it echoes
        // slower than the keys after it (its caches went cold). What is measured is
        // steady typing, as after the warm-up; the first key after a long still is in memory's note.
        await named(s.name, () => keystroke(s.term));
        await sleep(25);
        idle.get(s.name)!.push(...(await named(s.name, () => series(s.term, n))));
        // relevo looks at its pane again 30 ms after its last change: not during the next system's turn.
        await sleep(50);
      }
    }
    const out = {} as Record<Name, Latencies>;
    for (const s of sessions) {
      const flood = await named(s.name, async () => {
        process.kill(await s.dir.pid('flood'), 'SIGUSR1');
        await sleep(300); // the flood is under way
        return series(s.term, keys);
      });
      await s.close();
      out[s.name] = { idle: idle.get(s.name)!, flood };
    }
    return out;
  } finally {
    for (const s of sessions) await s.close();
  }
}

const stat = (q: 0.5 | 0.95) => (xs: readonly number[]) => quantile(xs, q);

export async function figures(opts: EchoOptions): Promise<Figure[]> {
  const reps = opts.quick ? 1 : Math.max(1, opts.reps);
  // Quick (the CI smoke): a handful of keys, enough for a p95 to be a number.
  const keys = opts.quick ? 8 : 200;
  const tmux = await tmuxVersion();
  const systems: Name[] = [...(tmux ? ['relevo', 'tmux'] : ['relevo']), 'bare', 'bare-worker', 'bare-io'] as Name[];
  const runs: Record<Name, Latencies[]> = { relevo: [], tmux: [], bare: [], 'bare-worker': [], 'bare-io': [] };
  for (let r = 0; r < reps; r++) {
    // In turns first, so that no system always opens, or floods, on a machine another just warmed.
    const got = await rep(r % 2 === 0 ? systems : [...systems].reverse(), keys);
    for (const name of systems) runs[name].push(got[name]);
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
      const io = median(per('bare-io'));
      const met = baseline !== undefined && relevo <= GOAL_RATIO * baseline.value;
      const ratio = (ms: number) => (baseline ? ` = ${(ms / baseline.value).toFixed(2)}× tmux` : '');
      const others = `with each pane's terminal on a worker thread: ${worker.toFixed(2)} ms${ratio(worker)}; Node's own reads and writes alone (node-pty, nothing parsed): ${io.toFixed(2)} ms${ratio(io)}`;
      const note = !baseline
        ? `tmux 3.x is not installed here: no baseline; the bare stack ${others}`
        : met
          ? `the bare stack ${others}`
          : `floor: one Node process with node-pty and @xterm/headless, writing the echo out once parsed (no painting, bench/bare-relay.ts): ${floor.toFixed(2)} ms${ratio(floor)}; relevo ${relevo.toFixed(2)} ms; ${others}`;
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
