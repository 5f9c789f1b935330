/**
 * The dashboard painted on a terminal (Ink off screen, then the person's terminal emulator): its
 * exact lines at 80×24 and 50×12 for four relays at a fixed time, scrolling, the footer's questions,
 * NO_COLOR, and a repaint after a resize equal to a fresh paint at the new size.
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardScreen } from '../../src/tui/dashboard/dashboard-screen.js';
import { type DashboardState, dashboardInput, initialDashboard } from '../../src/tui/dashboard/dashboard-state.js';
import type { RelayRow } from '../../src/tui/dashboard/rows.js';
import type { DashboardView } from '../../src/tui/dashboard/table.js';
import { FOUR, NOW, relayRow } from '../helpers/relay-rows.js';
import { PersonTerminal } from '../helpers/screen-oracle.js';

const open: { dispose(): void }[] = [];
afterEach(() => {
  for (const thing of open.splice(0)) thing.dispose();
});

/** A terminal of `cols` × `rows` showing the dashboard: what it wrote, and its screen's lines once parsed. */
async function paint(view: DashboardView, cols: number, rows: number) {
  const person = new PersonTerminal(cols, rows);
  const term = { cols, rows, write: (data: string) => void person.write(data) };
  const screen = new DashboardScreen(term, view, { plain: false });
  open.push(screen, person.screen);
  screen.show();
  await person.parse();
  return { lines: person.screen.snapshot().viewport };
}

const view = (rows: readonly RelayRow[] = FOUR, state: DashboardState = initialDashboard): DashboardView => ({ rows, state, now: NOW });
const pressed = (data: string, rows: readonly RelayRow[] = FOUR) => view(rows, dashboardInput(initialDashboard, rows, data).state);
const blank = (n: number) => Array.from({ length: n }, () => '');

const AT_80x24 = [
  'relevo · 4 relays · 2 need you',
  '  relay             state   round           +/−      ↑↓    age last handoff',
  'needs you · 2',
  '▸ relevo/pagination blocked  3/10 → builder +120 −4  ↑3 ↓0  4m Add cursor pagin…',
  '  relevo/dark-mode  done ✓   4/10           +310 −42 ↑5 ↓1  2h Goal met: the th…',
  'working · 1',
  '  relevo/retry-api  working  2/10 → planner +64 −7   ↑2 ↓0 12s Retries with bac…',
  'idle · finished · 1',
  '  relevo/docs       idle     1/10           +0 −0    ↑0 ↓0  3d Write the README…',
  ...blank(14),
  '↑↓ move  ⏎ open  c new  p pause  r resume  m merge  x remove  / filter  q quit',
];

describe('the dashboard on a terminal', () => {
  it('at 80×24: the counts, the header, needs-you first under group labels, every column, the keys', async () => {
    const { lines } = await paint(view(), 80, 24);
    expect(lines).toEqual(AT_80x24);
    if (process.env.RELEVO_DASHBOARD_SHOT) writeFileSync(process.env.RELEVO_DASHBOARD_SHOT, `${lines.join('\n').trimEnd()}\n`);
  });

  it('at 50×12: the handoff, +/− and ahead/behind dropped rather than wrapped; the keys cut with …', async () => {
    const { lines } = await paint(pressed('j'), 50, 12);
    expect(lines).toEqual([
      'relevo · 4 relays · 2 need you',
      '  relay              state    round            age',
      'needs you · 2',
      '  relevo/pagination  blocked   3/10 → builder   4m',
      '▸ relevo/dark-mode   done ✓    4/10             2h',
      'working · 1',
      '  relevo/retry-api   working   2/10 → planner  12s',
      'idle · finished · 1',
      '  relevo/docs        idle      1/10             3d',
      '',
      '',
      '↑↓ move  ⏎ open  c new  p pause  r resume  m merg…',
    ]);
  });

  it('narrower still: the turn and the age go, then the round, then the name is cut; never a line past the edge', async () => {
    expect((await paint(view(), 36, 6)).lines).toEqual([
      'relevo · 4 relays · 2 need you',
      '  relay              state    round',
      'needs you · 2',
      '▸ relevo/pagination  blocked   3/10',
      '  relevo/dark-mode   done ✓    4/10',
      '↑↓ move  ⏎ open  c new  p pause  r …',
    ]);
    expect((await paint(view(), 28, 6)).lines).toEqual([
      'relevo · 4 relays · 2 need …',
      '  relay              state',
      'needs you · 2',
      '▸ relevo/pagination  blocked',
      '  relevo/dark-mode   done ✓',
      '↑↓ move  ⏎ open  c new  p p…',
    ]);
    // Four lines: the title, the header, the selected row (its label scrolled off), the keys.
    expect((await paint(view(), 22, 4)).lines).toEqual([
      'relevo · 4 relays · 2…',
      '  relay        state',
      '▸ relevo/pagi… blocked',
      '↑↓ move  ⏎ open  c ne…',
    ]);
    expect((await paint(view(), 12, 3)).lines).toEqual(['relevo · 4 …', '▸ relevo/… b', '↑↓ move  ⏎ …']);
  });

  it('with the selection below the first screenful, scrolls just enough to show it', async () => {
    const many = Array.from({ length: 30 }, (_, i) => relayRow(`relevo/task-${String(i).padStart(2, '0')}`, { changedAt: NOW - i * 1000 }));
    const top = await paint(view(many), 40, 8);
    expect(top.lines).toEqual([
      'relevo · 30 relays',
      '  relay           state    round  age',
      'working · 30',
      '▸ relevo/task-00  working   1/10   0s',
      '  relevo/task-01  working   1/10   1s',
      '  relevo/task-02  working   1/10   2s',
      '  relevo/task-03  working   1/10   3s',
      '↑↓ move  ⏎ open  c new  p pause  r resu…',
    ]);
    const down = await paint(pressed('j'.repeat(20), many), 40, 8);
    expect(down.lines.slice(2, 7)).toEqual([
      '  relevo/task-16  working   1/10  16s',
      '  relevo/task-17  working   1/10  17s',
      '  relevo/task-18  working   1/10  18s',
      '  relevo/task-19  working   1/10  19s',
      '▸ relevo/task-20  working   1/10  20s',
    ]);
    const last = await paint(pressed('j'.repeat(40), many), 40, 8);
    expect(last.lines[6]).toMatch(/^▸ relevo\/task-29 /);
  });

  it('the footer: the filter being typed, the question before a merge or a remove; the title names the filter', async () => {
    const typing = await paint(pressed('/dark'), 80, 8);
    expect(typing.lines[0]).toBe('relevo · 4 relays · 2 need you · filter “dark”: 1 shown');
    expect(typing.lines.slice(2, 4)).toEqual([
      'needs you · 1',
      '▸ relevo/dark-mode  done ✓   4/10  +310 −42  ↑5 ↓1   2h  Goal met: the theme fo…',
    ]);
    expect(typing.lines[7]).toBe('/dark▏  Enter keeps · Esc clears');
    expect((await paint(pressed('jm'), 80, 8)).lines[7]).toBe('merge relevo/dark-mode into main? y/n');
    expect((await paint(pressed('x'), 80, 8)).lines[7]).toBe('remove relevo/pagination and its worktree? y/n');
    expect((await paint(pressed('/zzz\r'), 80, 8)).lines.slice(0, 4)).toEqual([
      'relevo · 4 relays · 2 need you · filter “zzz”: 0 shown',
      '',
      'no relay matches “zzz”',
      '',
    ]);
  });

  it('with no relays: says how to start one', async () => {
    const { lines } = await paint(view([]), 60, 6);
    expect(lines).toEqual([
      'relevo · 0 relays',
      '',
      'no relays yet — c starts one',
      '',
      '',
      '↑↓ move  ⏎ open  c new  p pause  r resume  m merge  x remov…',
    ]);
  });
});
