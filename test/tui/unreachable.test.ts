/** A host out of reach as the band and the dashboard show it, on a fake clock; and what its watcher journals. */
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../../src/app/commands/run-summary.js';
import { Reachability, type ReachWatched } from '../../src/app/run/reachability.js';
import { type JournalEntry, type JournalLine, unreachableText } from '../../src/protocol/index.js';
import { Emitter } from '../../src/pty/emitter.js';
import { initialDashboard } from '../../src/tui/dashboard/dashboard-state.js';
import { stateText } from '../../src/tui/dashboard/rows.js';
import { dashboardLines } from '../../src/tui/dashboard/table.js';
import { bandParts } from '../../src/tui/view/band.js';
import { bandInfo as chromeBandInfo } from '../../src/tui/view/components/Chrome.js';
import { NOW, relayRow } from '../helpers/relay-rows.js';
import { tuiState } from '../helpers/tui-state.js';

const HOST = 'relevo-test-host';

describe('a host out of reach, shown', () => {
  it('counts down to the next look, a whole second at a time, then says it is retrying now', () => {
    const out = { host: HOST, retryAt: NOW + 4000 };
    expect(unreachableText(out, NOW)).toBe('unreachable: relevo-test-host — retrying in 4 s');
    expect(unreachableText(out, NOW + 500)).toBe('unreachable: relevo-test-host — retrying in 4 s');
    expect(unreachableText(out, NOW + 1000)).toBe('unreachable: relevo-test-host — retrying in 3 s');
    expect(unreachableText(out, NOW + 3999)).toBe('unreachable: relevo-test-host — retrying in 1 s');
    expect(unreachableText(out, NOW + 4000)).toBe('unreachable: relevo-test-host — retrying now');
    expect(unreachableText({ host: HOST, retryAt: null }, NOW)).toBe('unreachable: relevo-test-host — retrying now');
  });

  it('is the band’s first note: whole where it fits, the host alone where it does not', () => {
    const state = tuiState({ unreachable: 'unreachable: relevo-test-host — retrying in 4 s' });
    const info = chromeBandInfo(state);
    expect(info.notes).toEqual(['unreachable: relevo-test-host — retrying in 4 s']);
    expect(bandParts(info, 160).join(' · ')).toBe(
      'relevo · planner: claude · starting ▸ builder: codex · starting · ▱▱▱▱▱▱▱▱▱▱ 0/10 · starting · unreachable: relevo-test-host — retrying in 4 s',
    );
    expect(bandParts(info, 60).join(' · ')).toBe('P · ▸ B · · 0/10 · starting · unreachable: relevo-test-host');
    expect(chromeBandInfo(tuiState({ unreachable: null })).notes).toEqual([]);
  });

  it('is the dashboard row’s state while it works (the row stays), not once it is done', () => {
    const row = relayRow('relevo/add-pagination', { unreachable: { host: HOST, retryAt: NOW + 12_000 } });
    expect(stateText(row, NOW)).toBe('unreachable: relevo-test-host — retrying in 12 s');
    expect(stateText(row, NOW + 11_500)).toBe('unreachable: relevo-test-host — retrying in 1 s');
    expect(stateText({ ...row, phase: 'paused', reason: 'user' }, NOW)).toBe('unreachable: relevo-test-host — retrying in 12 s');
    expect(stateText({ ...row, phase: 'done' }, NOW)).toBe('done ✓');
    expect(stateText({ ...row, unreachable: null }, NOW)).toBe('working');
    const lines = dashboardLines({ rows: [row], state: initialDashboard, now: NOW + 2000 }, 160, 12);
    const text = lines.map((l) => l.spans.map((s) => s.text).join(''));
    expect(text.filter((t) => t.includes('relevo/add-pagination'))).toHaveLength(1);
    expect(text.find((t) => t.includes('relevo/add-pagination'))).toContain('unreachable: relevo-test-host — retrying in 10 s');
  });

  it('names the host of a relay on another machine in a column of its own, shown only when one is', () => {
    const remote = relayRow('relevo/fix-login', { host: 'me@buildbox' });
    const local = relayRow('relevo/add-pagination');
    const text = (rows: (typeof local)[]) =>
      dashboardLines({ rows, state: initialDashboard, now: NOW }, 160, 12).map((l) => l.spans.map((s) => s.text).join(''));
    const both = text([remote, local]);
    expect(both.find((t) => t.includes('state'))).toMatch(/relay +host +state/);
    expect(both.find((t) => t.includes('relevo/fix-login'))).toMatch(/relevo\/fix-login +me@buildbox +working/);
    expect(both.find((t) => t.includes('relevo/add-pagination'))).toMatch(/relevo\/add-pagination +working/);
    expect(text([local]).find((t) => t.includes('state'))).not.toContain('host');
    const ts = new Date(NOW).toISOString();
    const worktree = {
      branch: 'relevo/fix-login',
      path: '/home/me/.relevo/worktrees/app/fix-login',
      base: 'main',
      port: 41000,
      host: 'me@buildbox',
    };
    const started = { seq: 1, ts, type: 'run_started', worktree } as unknown as JournalLine;
    expect(summarizeRun('r1', [started], true).host).toBe('me@buildbox');
  });

  it('is read from another relevo’s journal while its run goes on: out of reach until a `reachable` line', () => {
    const ts = new Date(NOW).toISOString();
    const at = (seq: number, entry: JournalEntry) => ({ seq, ts, ...entry }) as JournalLine;
    const started = at(1, { type: 'goal', text: 'Add pagination' });
    const out = at(2, { type: 'unreachable', host: HOST, detail: 'ssh: connect to host 10.1.1.2 port 22: Connection timed out' });
    const back = at(3, { type: 'reachable', host: HOST, for_ms: 61_000 });
    expect(summarizeRun('r1', [started, out], true)).toMatchObject({ state: 'running', unreachable: HOST });
    expect(summarizeRun('r1', [started, out, back], true).unreachable).toBeUndefined();
    expect(summarizeRun('r1', [started, out], false)).toMatchObject({ state: 'interrupted' });
    expect(summarizeRun('r1', [started, out], false).unreachable).toBeUndefined();
  });
});

/** A pane on the host whose reachability the test sets. */
function fakePane(id: string) {
  const updates = new Emitter<void>();
  const pane = {
    where: `tmux ${id} on ${HOST}`,
    exited: null,
    unreachable: null as string | null,
    retryAt: null as number | null,
    onUpdate: updates.event,
    set(unreachable: string | null, retryAt: number | null) {
      pane.unreachable = unreachable;
      pane.retryAt = retryAt;
      updates.fire();
    },
  };
  return pane;
}

describe('Reachability', () => {
  it('journals once per change, while either pane is out of reach; its next look is the soonest of the panes’', () => {
    const planner = fakePane('%0');
    const builder = fakePane('%1');
    const journal: JournalEntry[] = [];
    let now = NOW;
    const runner = { agents: { planner: { pane: planner }, builder: { pane: builder } } } as unknown as ReachWatched;
    const append = (e: JournalEntry) => {
      journal.push(e);
      return { seq: journal.length, ts: new Date(now).toISOString(), ...e } as JournalLine;
    };
    const reach = new Reachability(runner, { append }, () => now);
    const seen: (string | null)[] = [];
    reach.onChange((out) => seen.push(out === null ? null : out.host));
    expect(reach.current).toBeNull();

    const why = 'ssh: connect to host 10.1.1.2 port 22: Connection timed out';
    planner.set(why, NOW + 2000);
    builder.set(why, NOW + 1000);
    planner.set(why, NOW + 4000);
    expect(reach.current).toEqual({ host: HOST, retryAt: NOW + 1000 });
    now = NOW + 61_000;
    planner.set(null, null);
    expect(reach.current).toEqual({ host: HOST, retryAt: NOW + 1000 });
    builder.set(null, null);
    expect(reach.current).toBeNull();
    expect(journal).toEqual([
      { type: 'unreachable', host: HOST, detail: why },
      { type: 'reachable', host: HOST, for_ms: 61_000 },
    ]);
    expect(seen).toEqual([HOST, null]);
    reach.dispose();
  });
});
