/**
 * Whatever happens — resizes (bursts, shrinks, sizes below the minimum), agent output, toasts, the
 * help and history overlays, the goal prompt, copy mode, focus, zoom, the relay pausing and ending —
 * the person's terminal shows, cell for cell and with the cursor, what a fresh paint of the TUI's
 * state at that size shows. RELEVO_ORACLE_STEPS sets the steps per seed (a longer soak).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextStep, type Step } from '../helpers/oracle-steps.js';
import { rng } from '../helpers/random-output.js';
import { OracleRun, report } from '../helpers/screen-oracle.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const STEPS = Number(process.env.RELEVO_ORACLE_STEPS ?? 110);
/** The steps of each kind the walks did, over every seed. */
const done = new Map<Step['kind'], number>();

beforeAll(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'performance'],
  });
});
afterAll(() => {
  vi.useRealTimers();
});

describe('the screen oracle', () => {
  it.each(SEEDS)(
    'seed %i: after every step the screen equals a fresh paint of its state',
    async (seed) => {
      const r = rng(seed);
      const cols = 40 + r(211);
      const rows = 12 + r(59);
      // Every other walk gives its agents a minimum size, so their panes are often cropped windows.
      const run = new OracleRun(cols, rows, seed % 2 === 0 ? { cols: 60 + r(41), rows: 16 + r(13) } : undefined);
      const steps: Step[] = [];
      let wrong: string | null = null;
      try {
        for (let i = 0; i < STEPS && wrong === null; i++) {
          const step = nextStep(r, run.state, run.screen(run.state.focus).rows);
          steps.push(step);
          await run.apply(step);
          wrong = await run.check();
        }
      } finally {
        for (const [kind, n] of run.done) done.set(kind, (done.get(kind) ?? 0) + n);
        run.close();
      }
      if (wrong !== null) expect.fail(await report(seed, cols, rows, steps, { step: steps.length - 1, what: wrong }));
    },
    300_000,
  );

  it('walked through every kind of step', () => {
    const kinds = [
      'resize',
      'output',
      'regrow',
      'toast',
      'expire',
      'help',
      'history-open',
      'history-keys',
      'prompt',
      'copy',
      'focus',
      'zoom',
      'relay',
      'agent',
      'chrome',
    ];
    expect(kinds.filter((kind) => (done.get(kind as Step['kind']) ?? 0) < 5)).toEqual([]);
    expect([...done.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1000);
  });
});
