import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunRecord, readRun } from '../../src/app/commands/runs.js';
import type { JournalRebuilt } from '../../src/protocol/index.js';
import { columns, cut } from '../../src/tui/paint/width.js';
import { bodyRows, type HistoryView, historyKeys, historyView } from '../../src/tui/state/handoff-history.js';
import History from '../../src/tui/view/components/HistoryPanel.js';
import { onlyRunJournal, relevo, tempDir } from '../helpers/cli.js';

const DOWN = '\x1b[B';
let record: RunRecord;

beforeAll(async () => {
  // A real three-round run of the demo agents: its checkpoints and journal are what the panel reads.
  const cwd = tempDir();
  const r = await relevo(['--headless', '--demo'], cwd);
  expect(r.exitCode, r.stderr).toBe(0);
  const { runId } = onlyRunJournal(join(cwd, '.relevo'));
  record = readRun(join(cwd, '.relevo', 'runs'), runId, (m) => {
    throw new Error(m);
  });
}, 60_000);

describe('the history panel', () => {
  it('lists every handoff of the run in order — round, from → to, status, time, first line — with the goal and the done summary', () => {
    const view = historyView(record, 'done');
    expect(view.entries.map((e) => `${e.round} ${e.from}→${e.to} ${e.status}`)).toEqual([
      '1 planner→builder acked',
      '1 builder→planner acked',
      '2 planner→builder acked',
      '2 builder→planner acked',
      '3 planner→builder acked',
      '3 builder→planner acked',
    ]);
    expect(view.entries[0]!.lines[0]).toBe('[relevo ronda 1 · de planner]');
    expect(view.entries[0]!.time).toMatch(/^\d\d:\d\d:\d\d$/);
    const frame = render(<History view={view} width={120} height={20} />).lastFrame()!;
    expect(frame).toContain(`history — run ${view.run} · done`);
    expect(frame).toContain('goal Add pagination to /users with tests');
    expect(frame).toMatch(/▸ {2}1 {2}planner → builder +acked +\d\d:\d\d:\d\d {2}Step 1 of 3/);
    expect(frame).toContain('done: Goal met: Add pagination to /users with tests in 3 rounds.');
    expect(frame.split('\n')).toHaveLength(20);
  });

  it('marks a handoff whose files changed after it was journaled as a mismatch', () => {
    const changed = { ...record.handoffs[1]!, digest_ok: false, mismatch: 'builder/checkpoints/1/handoff.json changed' };
    const view = historyView({ ...record, handoffs: [record.handoffs[0]!, changed] }, 'paused: checkpoint_mismatch');
    expect(view.entries.map((e) => e.status)).toEqual(['acked', 'mismatch']);
    expect(render(<History view={view} width={120} height={20} />).lastFrame()).toMatch(/ {2}1 {2}builder → planner +mismatch +\d\d:/);
  });

  it('moves with the arrows, opens the selected handoff whole with Enter, scrolls it, and Esc goes back, then closes', () => {
    const rows = 4;
    let view: HistoryView | null = historyKeys(historyView(record, 'done'), `${DOWN}${DOWN}`, rows, 120);
    expect(view?.selected).toBe(2);
    view = historyKeys(view!, '\r', rows, 120)!;
    expect(view.open).toBe(2);
    const body = record.handoffs[2]!.body.replace(/\n$/, '').split('\n');
    const frame = render(<History view={view} width={120} height={rows + 7} />).lastFrame()!;
    expect(frame).toContain('[relevo ronda 2 · de planner]');
    expect(frame).toContain(body[0]!);
    expect(frame).toContain(`of ${body.length + 1}`);
    view = historyKeys(view, '\x1b[6~', rows, 120)!;
    expect(view.scroll).toBe(rows);
    // Scrolled by rows on screen: a line longer than the panel's 116 columns takes two.
    const shown = bodyRows(view.entries[2]!, 116);
    expect(render(<History view={view} width={120} height={rows + 7} />).lastFrame()).toContain(shown[rows]!.text);
    view = historyKeys(view, 'G', rows, 120)!;
    expect(view.scroll).toBe(shown.length - rows);
    view = historyKeys(view, '\x1b', rows, 120)!;
    expect(view.open).toBeNull();
    expect(view.selected).toBe(2);
    expect(historyKeys(view, '\x1b', rows, 120)).toBeNull();
  });

  it('keeps the selection in view in a short panel, and says so when there is no handoff yet', () => {
    let view = historyView(record, 'done');
    view = historyKeys(view, DOWN.repeat(5), 2, 120)!;
    expect(view).toMatchObject({ selected: 5, scroll: 4 });
    view = historyKeys(view, 'g', 2, 120)!;
    expect(view).toMatchObject({ selected: 0, scroll: 0 });
    const empty = historyView({ ...record, handoffs: [], done: null }, 'running');
    expect(historyKeys(empty, '\r', 3, 120)).toMatchObject({ open: null });
    const frame = render(<History view={empty} width={80} height={12} />).lastFrame()!;
    expect(frame).toContain('no handoff yet');
    expect(frame).toContain('not done yet');
  });

  it('marks a handoff edited before it was sent as replaced by the checkpoint that took its place', () => {
    const [first, ...rest] = record.handoffs;
    const edited = { ...first!, status: 'pending' as const };
    const replacement = { ...first!, seq: 99, supersedes: first!.seq };
    const view = historyView({ ...record, handoffs: [edited, replacement, ...rest] }, 'done');
    expect(view.entries[0]).toMatchObject({ status: 'edited', replacedBy: 'planner #99' });
    expect(render(<History view={view} width={120} height={20} />).lastFrame()).toContain('edited → planner #99');
  });

  it('gives the first line a fair share of 80 columns in the list', () => {
    const view = historyView(record, 'done');
    const frame = render(<History view={view} width={80} height={20} />).lastFrame()!;
    for (const entry of view.entries) expect(frame).toContain(cut(entry.lines[1]!, 30));
    expect(frame.split('\n').every((line) => columns(line) <= 80)).toBe(true);
  });

  it('wraps a long line whole (wide characters by their columns), scrolls by the rows it takes, and counts lines in its footer', () => {
    const long = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
    const wide = '漢字'.repeat(30);
    const entry = { ...historyView(record, 'done').entries[0]!, lines: ['[relevo ronda 1 · de planner]', long, wide, '  indented  last'] };
    const rows = 4;
    const at = (view: HistoryView) => {
      const lines = render(<History view={view} width={80} height={rows + 7} />)
        .lastFrame()!
        .split('\n');
      expect(lines.every((line) => columns(line) <= 80)).toBe(true);
      // The body's rows, inside the border and padding: under the title, the goal and the handoff's path.
      return { body: lines.slice(4, 4 + rows + 1).map((line) => line.slice(2, -2).trimEnd()), footer: lines.at(-2)! };
    };
    let view: HistoryView = { ...historyView(record, 'done'), entries: [entry], open: 0, scroll: 0 };
    const top = at(view);
    expect(top.body[0]).toBe('[relevo ronda 1 · de planner]');
    expect(top.body.slice(1, 3).join(' ')).toBe(long);
    expect(top.body[3]).toBe('漢字'.repeat(19));
    expect(top.footer).toContain('lines 1–3 of 4');
    view = historyKeys(view, 'G', rows, 80)!;
    expect(view.scroll).toBe(6 - rows);
    const end = at(view);
    expect(end.body.slice(1, 3)).toEqual(['漢字'.repeat(19), '漢字'.repeat(11)]);
    expect(end.body[3]).toBe('  indented  last');
    expect(end.footer).toContain('lines 2–4 of 4');
    expect(historyKeys(view, '\x1b[A', rows, 80)).toMatchObject({ scroll: 1 });
  });

  it('a run whose journal --resume rebuilt says so in its title, and a goal lost with it as lost', () => {
    const rebuilt: JournalRebuilt = {
      type: 'journal_rebuilt',
      why: 'missing',
      lanes: { planner: { checkpoints: 3, acked: 3 }, builder: { checkpoints: 3, acked: 3 } },
      pending: null,
      goal_from: 'lost',
      lost: ['goal', 'agent_commands', 'budget', 'lang', 'step_mode', 'notes', 'pauses'],
    };
    const view = historyView({ ...record, summary: { ...record.summary, goal: null, rebuilt } }, 'done');
    expect(view.rebuilt).toBe(
      'journal rebuilt (events.jsonl missing) from the checkpoints: planner 3 (3 acked), builder 3 (3 acked), none pending; goal lost; lost: goal, agent commands, budget, lang, step mode, notes, pauses',
    );
    const frame = render(<History view={view} width={120} height={20} />).lastFrame()!;
    expect(frame).toContain(`history — run ${view.run} · done · journal rebuilt (events.jsonl missing) from the checkpoints`);
    expect(frame).toContain('goal (lost with the journal)');
    expect(historyView(record, 'done')).not.toHaveProperty('rebuilt');
  });
});
