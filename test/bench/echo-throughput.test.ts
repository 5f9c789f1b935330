/**
 * The echo and throughput benches run (a smoke, as in CI): `{ reps: 1, quick: true }` returns
 * every figure with finite positive numbers, and the tmux baseline when tmux 3.x is installed.
 * No timing thresholds: those are the bench's goals, not the test's.
 */
import { describe, expect, it } from 'vitest';
import { figures as echoFigures } from '../../src/bench/echo.js';
import type { Figure } from '../../src/bench/figure.js';
import { tmuxVersion } from '../../src/bench/harness.js';
import { figures as throughputFigures } from '../../src/bench/throughput.js';

const tmux = await tmuxVersion();
if (!tmux) console.log('note: tmux 3.x is not installed: the benches run without their tmux baselines');

const positive = (x: number) => Number.isFinite(x) && x > 0;

function check(figs: readonly Figure[], keys: readonly string[], baselines: Record<string, string | null>) {
  expect(figs.map((f) => f.key)).toEqual(keys);
  for (const f of figs) {
    expect(positive(f.relevo), `${f.key}: ${f.relevo}`).toBe(true);
    expect(f.samples.length, f.key).toBe(1);
    expect(f.samples.every(positive), `${f.key}: ${f.samples.join(', ')}`).toBe(true);
    const baseline = baselines[f.key];
    if (baseline === null) {
      expect(f.baseline, f.key).toBeUndefined();
      expect(f.goal.met, f.key).toBe(false);
      continue;
    }
    expect(f.baseline?.name, f.key).toBe(baseline);
    expect(positive(f.baseline!.value) && f.baseline!.samples.length === 1 && f.baseline!.samples.every(positive), f.key).toBe(true);
  }
}

describe('bench: keystroke echo and throughput against tmux and the bare stack', () => {
  it('echo: p50 and p95, idle and flooding neighbour, each with the tmux baseline', { timeout: 240_000 }, async () => {
    const keys = ['echo.idle.p50', 'echo.idle.p95', 'echo.flood.p50', 'echo.flood.p95'];
    check(await echoFigures({ reps: 1, quick: true }), keys, Object.fromEntries(keys.map((k) => [k, tmux])));
  });

  it('throughput: one pane against the bare stack, both panes against tmux', { timeout: 240_000 }, async () => {
    const figs = await throughputFigures({ reps: 1, quick: true });
    const bare = 'node-pty + @xterm/headless';
    if (tmux)
      check(figs, ['throughput.one', 'throughput.both', 'throughput.one.vs-tmux'], {
        'throughput.one': bare,
        'throughput.both': tmux,
        'throughput.one.vs-tmux': tmux,
      });
    else check(figs, ['throughput.one', 'throughput.both'], { 'throughput.one': bare, 'throughput.both': null });
  });
});
