/**
 * What the compositor shows in the cases the screen oracle cannot judge by comparison alone: a
 * zoomed pane says so, a terminal below the minimum gets one line, and a burst of resizes is laid
 * out once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OracleRun } from '../helpers/screen-oracle.js';

let run: OracleRun;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
  run = new OracleRun(200, 50);
});
afterEach(() => {
  run.close();
  vi.useRealTimers();
});

describe('the compositor', () => {
  it('marks a zoomed pane in its title, as tmux marks a zoomed window', async () => {
    await run.apply({ kind: 'zoom' });
    const { rows } = await run.shown();
    expect(rows[0]).toMatch(/^╭─ planner · claude · starting · focus · zoomed ─+╮$/);
    await run.apply({ kind: 'zoom' });
    expect((await run.shown()).rows[0]).not.toContain('zoomed');
  });

  it('says in one line that a terminal below 30×10 is too small, and lays everything out again when it grows', async () => {
    await run.apply({ kind: 'resize', sizes: [[24, 8]] });
    const small = (await run.shown()).rows;
    expect(small.filter((row) => row !== '')).toEqual(['too small: needs 30×10']);
    await run.apply({ kind: 'resize', sizes: [[100, 30]] });
    const grown = (await run.shown()).rows;
    expect(grown[0]).toMatch(/^╭─ planner · claude/);
    expect(grown.at(-1)).toMatch(/^no goal yet: C-\] g +C-\] \? help$/);
  });

  it('lays a burst of resizes out once, at the size it ends on', async () => {
    const before = (await run.shown()).clears;
    await run.apply({
      kind: 'resize',
      sizes: [
        [180, 45],
        [150, 40],
        [120, 35],
        [90, 30],
        [160, 42],
      ],
    });
    const after = await run.shown();
    expect(after.clears - before).toBe(1);
    expect(after.rows.at(-1)).toMatch(/^no goal yet: C-\] g {2,}C-\] \? help$/);
    expect(after.rows.at(-1)).toHaveLength(160);
  });
});
