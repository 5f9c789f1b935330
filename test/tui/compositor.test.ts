/**
 * What the compositor shows in the cases the screen oracle cannot judge by comparison alone: a
 * zoomed pane says so, a terminal below the minimum gets one line, a burst of resizes is laid
 * out once, and a pane smaller than its agent's minimum is a marked window onto it.
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

  it('never gives an agent less than its minimum: a smaller pane shows the bottom of its screen, marked cropped', async () => {
    const small = new OracleRun(30, 10, { cols: 60, rows: 16 });
    try {
      const screen = small.screen('planner');
      expect([screen.cols, screen.rows]).toEqual([60, 16]);
      const lines = Array.from({ length: 16 }, (_, i) => `line ${i}`);
      await small.apply({ kind: 'output', role: 'planner', text: `${lines.join('\r\n')}` });
      const { rows } = await small.shown();
      // The pane's four rows are the agent's last four, where its input box is; the border says why.
      expect(rows.slice(1, 5).map((row) => row.slice(1, 9).trim())).toEqual(['line 12', 'line 13', 'line 14', 'line 15']);
      expect(rows[5]).toMatch(/^╰─+ cropped 60×16 ─╯$/);
      await small.apply({ kind: 'resize', sizes: [[100, 30]] });
      expect((await small.shown()).rows.join('\n')).not.toContain('cropped');
      expect([screen.cols, screen.rows]).toEqual([98, 24]);
    } finally {
      small.close();
    }
  });

  it('pans a cropped pane to the right while the cursor of its agent is past its right edge, as tmux does', async () => {
    const small = new OracleRun(30, 10, { cols: 60, rows: 16 });
    try {
      await small.apply({ kind: 'output', role: 'planner', text: `\x1b[16;1H> ${'x'.repeat(40)}END` });
      const { rows } = await small.shown();
      // The cursor is at column 45 of 60 (after END): the 28 columns shown end with it.
      expect(rows[4]).toBe(`│${'x'.repeat(24)}END │`);
    } finally {
      small.close();
    }
  });
});
