import { describe, expect, it } from 'vitest';
import {
  type DashboardAction,
  type DashboardState,
  dashboardInput,
  dashboardKeys,
  initialDashboard,
  selectedName,
} from '../../src/tui/dashboard/dashboard-state.js';
import { ageText, filterRows, needsYou, orderRows, othersNeedingYou, othersText, stateText } from '../../src/tui/dashboard/rows.js';
import { settled } from '../../src/tui/relay-rows.js';
import { FOUR, NOW, relayRow } from '../helpers/relay-rows.js';

const names = (rows: readonly { name: string }[]) => rows.map((row) => row.name);

describe('the dashboard’s rows', () => {
  it('orders needs-you first, the most pressing first (blocked, paused, a draft, stalled, done and not merged), then working and starting, then the rest; newest first in each', () => {
    const rows = [
      relayRow('idle-new', { phase: 'idle', changedAt: NOW }),
      relayRow('working-old', { changedAt: NOW - 50_000 }),
      relayRow('merged', { phase: 'merged', changedAt: NOW - 1_000 }),
      relayRow('done', { phase: 'done', changedAt: NOW - 90_000 }),
      relayRow('starting', { phase: 'starting', changedAt: NOW - 10_000 }),
      relayRow('blocked', { attention: 'blocked', changedAt: NOW - 80_000 }),
      relayRow('ended', { phase: 'ended', reason: 'quit', changedAt: NOW - 2_000 }),
      relayRow('paused', { phase: 'paused', reason: 'rate_limited', changedAt: NOW - 5_000 }),
      relayRow('draft', { attention: 'draft', changedAt: NOW - 70_000 }),
      relayRow('stalled', { attention: 'stalled', changedAt: NOW - 60_000 }),
    ];
    expect(names(orderRows(rows))).toEqual([
      'blocked',
      'paused',
      'draft',
      'stalled',
      'done',
      'starting',
      'working-old',
      'idle-new',
      'merged',
      'ended',
    ]);
    expect(rows.filter(needsYou).map((row) => row.name)).toEqual(['done', 'blocked', 'paused', 'draft', 'stalled']);
  });

  it('keeps the given order of rows changed at the same moment (a stable sort)', () => {
    const rows = ['a', 'b', 'c', 'd'].map((name) => relayRow(name, { phase: name === 'c' ? 'idle' : 'working', changedAt: NOW }));
    expect(names(orderRows(rows))).toEqual(['a', 'b', 'd', 'c']);
    expect(names(orderRows([...rows].reverse()))).toEqual(['d', 'b', 'a', 'c']);
  });

  it('filters by name, state (its reason, its attention flag) or last handoff, in any case', () => {
    const rows = [
      relayRow('relevo/pagination', { lastHandoff: 'Cursor pages' }),
      relayRow('relevo/limits', { phase: 'paused', reason: 'rate_limited' }),
      relayRow('relevo/docs', { lastHandoff: null, attention: 'blocked' }),
    ];
    expect(names(filterRows(rows, 'Blocked'))).toEqual(['relevo/docs']);
    expect(names(filterRows(rows, 'paused'))).toEqual(['relevo/limits']);
    expect(names(filterRows(rows, 'PAG'))).toEqual(['relevo/pagination']);
    expect(names(filterRows(rows, 'rate_'))).toEqual(['relevo/limits']);
    expect(names(filterRows(rows, 'cursor'))).toEqual(['relevo/pagination']);
    expect(names(filterRows(rows, 'relevo/'))).toEqual(names(rows));
    expect(names(filterRows(rows, ''))).toEqual(names(rows));
    expect(filterRows(rows, 'nothing like it')).toEqual([]);
  });

  it('counts the other relays that need the person, for one relay’s band', () => {
    expect(othersNeedingYou(FOUR, 'relevo/retry-api')).toBe(2);
    expect(othersNeedingYou(FOUR, 'relevo/pagination')).toBe(1);
    expect(othersNeedingYou([], 'x')).toBe(0);
    expect([0, 1, 2, 7].map(othersText)).toEqual(['', '1 other needs you', '2 others need you', '7 others need you']);
  });

  it('reads a done relay with nothing ahead of its base and a clean worktree as merged: it needs the person no more', () => {
    const git = { base: 'main', added: 0, removed: 0, ahead: 0, behind: 3, dirty: false };
    expect(settled('done', git)).toBe('merged');
    expect(settled('done', { ...git, ahead: 2 })).toBe('done');
    expect(settled('done', { ...git, base: null, ahead: null })).toBe('done');
    expect(settled('done', { ...git, ahead: null })).toBe('done');
    expect(settled('done', { ...git, dirty: true })).toBe('done');
    expect(settled('done', { ...git, dirty: null })).toBe('done');
    expect(settled('paused', git)).toBe('paused');
    expect(needsYou(relayRow('a', { phase: settled('done', git) }))).toBe(false);
  });

  it('says a state in a word or two, and an age in its largest unit', () => {
    expect(stateText(relayRow('a', { phase: 'paused', reason: 'rate_limited' }))).toBe('paused: rate_limited');
    expect(stateText(relayRow('a', { phase: 'paused' }))).toBe('paused');
    expect(stateText(relayRow('a', { attention: 'blocked' }))).toBe('blocked');
    expect(stateText(relayRow('a', { phase: 'done' }))).toBe('done ✓');
    expect(stateText(relayRow('a', { phase: 'ended', reason: 'quit' }))).toBe('ended: quit');
    expect(stateText(relayRow('a'))).toBe('working');
    expect([-5, 0, 12_999, 60_000, 3_599_999, 7_200_000, 86_400_000 * 3].map(ageText)).toEqual([
      '0s',
      '0s',
      '12s',
      '1m',
      '59m',
      '2h',
      '3d',
    ]);
  });
});

/** The keys of `data` pressed from `state` with `rows` on screen. */
const press = (data: string, rows = FOUR, state: DashboardState = initialDashboard) => dashboardInput(state, rows, data);
const DOWN = '\x1b[B';
const UP = '\x1b[A';

describe('the dashboard’s keys', () => {
  it('reads arrows (CSI and SS3), Enter, Backspace, Esc, Ctrl-C, characters and a paste as one line', () => {
    expect(dashboardKeys('\x1b[A\x1bOA\x1b[B\x1bOB\r\n\x7f\b\x03\x1b')).toEqual([
      'up',
      'up',
      'down',
      'down',
      'enter',
      'enter',
      'backspace',
      'backspace',
      'escape',
      'escape',
    ]);
    expect(dashboardKeys('jké')).toEqual([{ text: 'j' }, { text: 'k' }, { text: 'é' }]);
    expect(dashboardKeys('\x1b[200~two\nlines\x1b[201~')).toEqual([{ text: 'two lines' }]);
    expect(dashboardKeys('\x1b[C\x1b[1;5A\x01\t')).toEqual([]);
  });

  it('moves with ↑/↓ and k/j over the ordered rows, stopping at the ends, and Enter opens the selected relay', () => {
    // Ordered: pagination (blocked), dark-mode (done), retry-api (working), docs (idle).
    expect(selectedName(initialDashboard, FOUR)).toBe('relevo/pagination');
    expect(press('\r').actions).toEqual([{ kind: 'open', name: 'relevo/pagination' }]);
    expect(press(`${DOWN}\r`).actions).toEqual([{ kind: 'open', name: 'relevo/dark-mode' }]);
    expect(press(`jj\r`).actions).toEqual([{ kind: 'open', name: 'relevo/retry-api' }]);
    expect(press(`${DOWN.repeat(9)}\r`).actions).toEqual([{ kind: 'open', name: 'relevo/docs' }]);
    expect(press(`jjjk${UP}\r`).actions).toEqual([{ kind: 'open', name: 'relevo/dark-mode' }]);
    expect(press(`${UP}${UP}\r`).actions).toEqual([{ kind: 'open', name: 'relevo/pagination' }]);
  });

  it('c starts a new relay, p and r pause and resume the selected one, q quits', () => {
    const actions: DashboardAction[] = press('cjprq').actions;
    expect(actions).toEqual([
      { kind: 'new' },
      { kind: 'pause', name: 'relevo/dark-mode' },
      { kind: 'resume', name: 'relevo/dark-mode' },
      { kind: 'quit' },
    ]);
  });

  it('m and x ask first: y does it, any other key (n, Esc, an arrow) cancels and does nothing else', () => {
    const asked = press('jm');
    expect(asked.actions).toEqual([]);
    expect(asked.state.confirm).toEqual({ action: 'merge', name: 'relevo/dark-mode' });
    expect(press('y', FOUR, asked.state)).toEqual({
      state: { ...asked.state, confirm: null },
      actions: [{ kind: 'merge', name: 'relevo/dark-mode' }],
    });
    expect(press('jmY').actions).toEqual([{ kind: 'merge', name: 'relevo/dark-mode' }]);
    expect(press('xy').actions).toEqual([{ kind: 'remove', name: 'relevo/pagination' }]);
    for (const cancel of ['n', '\x1b', DOWN, 'q', '\r']) {
      const after = press(`x${cancel}`);
      expect(after.actions).toEqual([]);
      expect(after.state).toEqual({ ...initialDashboard, selected: 'relevo/pagination' });
    }
    // After a cancel the keys work again.
    expect(press('mnj\r').actions).toEqual([{ kind: 'open', name: 'relevo/dark-mode' }]);
  });

  it('/ types a filter on the footer: Backspace takes back, Enter keeps it, Esc clears it; ↑/↓ move among the matches', () => {
    const typing = press('/relevo/d');
    expect(typing.state).toMatchObject({ filter: 'relevo/d', filtering: true });
    expect(typing.actions).toEqual([]);
    // The filter shows dark-mode and docs; c, q and j are letters of the filter while it is typed.
    expect(press('/docs\r\r').actions).toEqual([{ kind: 'open', name: 'relevo/docs' }]);
    expect(press('/relevo/d\x1b[B\r\r').actions).toEqual([{ kind: 'open', name: 'relevo/docs' }]);
    expect(press('/cq').state).toMatchObject({ filter: 'cq', filtering: true });
    expect(press('/dox\x7fcs\r').state).toMatchObject({ filter: 'docs', filtering: false });
    expect(press('/docs\x1b').state).toMatchObject({ filter: '', filtering: false });
    // A filter kept: Esc clears it; / edits it again; Backspace on an empty filter leaves the typing.
    expect(press('/docs\r\x1b').state).toMatchObject({ filter: '', filtering: false });
    expect(press('/docs\r/\x7f').state).toMatchObject({ filter: 'doc', filtering: true });
    expect(press('/\x7f').state).toMatchObject({ filter: '', filtering: false });
    expect(press('/\x1b[200~dark\nmode\x1b[201~').state.filter).toBe('dark mode');
  });

  it('with no relay shown, keys naming one do nothing; c and q still work', () => {
    expect(press('\rprmx', []).actions).toEqual([]);
    expect(press('\rpmxcq', []).actions).toEqual([{ kind: 'new' }, { kind: 'quit' }]);
    expect(press('/zzz\r\rpj', FOUR).actions).toEqual([]);
    expect(selectedName(press('/zzz\r').state, FOUR)).toBeNull();
  });

  it('keeps the selection on its relay by name when the rows reorder, and falls back to the first row when it is filtered out', () => {
    const on = press('jj').state;
    expect(selectedName(on, FOUR)).toBe('relevo/retry-api');
    // retry-api becomes blocked: it moves to the top, the selection goes with it.
    const reordered = FOUR.map((row) =>
      row.name === 'relevo/retry-api' ? { ...row, attention: 'blocked' as const, changedAt: NOW } : row,
    );
    expect(names(orderRows(reordered))[0]).toBe('relevo/retry-api');
    expect(press('\r', reordered, on).actions).toEqual([{ kind: 'open', name: 'relevo/retry-api' }]);
    expect(press(`${DOWN}\r`, reordered, on).actions).toEqual([{ kind: 'open', name: 'relevo/pagination' }]);
    // Its relay gone (removed): the first row.
    const gone = FOUR.filter((row) => row.name !== 'relevo/retry-api');
    expect(selectedName(on, gone)).toBe('relevo/pagination');
    // Filtered out, then the filter cleared: back on it.
    const filtered = press('/dark\r', FOUR, on).state;
    expect(selectedName(filtered, FOUR)).toBe('relevo/dark-mode');
    expect(selectedName(press('\x1b', FOUR, filtered).state, FOUR)).toBe('relevo/retry-api');
  });
});
