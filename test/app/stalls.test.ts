/** Stalled turns, with the clock passed in: no real waiting. */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Attention, type Watched } from '../../src/app/run/attention.js';
import {
  formatDuration,
  initialState,
  type JournalEntry,
  parseDuration,
  type RelayState,
  ROLES,
  type Role,
  type Stall,
  StallWatcher,
} from '../../src/protocol/index.js';
import type { AgentPane } from '../../src/pty/agent.js';
import { Emitter } from '../../src/pty/emitter.js';
import { journalInto } from '../helpers/journal.js';
import { machineConfig } from '../helpers/machine.js';
import { stub } from '../helpers/stub.js';

const MIN = 60_000;

function watcher(stallAfterMs = 20 * MIN) {
  const reports: [Role, Stall | null][] = [];
  return { w: new StallWatcher({ stallAfterMs }, (role, stall) => reports.push([role, stall])), reports };
}

describe('StallWatcher', () => {
  it('reports a turn busy past stall_after once, and clears it when the turn ends', () => {
    const { w, reports } = watcher();
    expect(w.nextCheck(0)).toBeNull(); // no turn: no clock to watch
    w.turnBegan('builder', 0);
    w.state('builder', 'busy', 10);
    expect(w.nextCheck(MIN)).toBe(19 * MIN);
    w.tick(20 * MIN - 1);
    expect(reports).toEqual([]);
    w.tick(20 * MIN);
    w.tick(30 * MIN);
    expect(reports).toEqual([['builder', { role: 'builder', why: 'busy', forMs: 20 * MIN }]]);
    expect(w.nextCheck(30 * MIN)).toBeNull(); // reported once: nothing more to wait for
    w.turnEnded('builder');
    expect(reports.at(-1)).toEqual(['builder', null]);
    w.tick(60 * MIN); // no turn: nothing
    expect(reports).toHaveLength(2);
  });

  it('an agent waiting on a prompt (blocked) is not stalled', () => {
    const { w, reports } = watcher();
    w.turnBegan('planner', 0);
    w.state('planner', 'blocked', 5);
    expect(w.nextCheck(5)).toBeNull(); // blocked: the blocked timeout's business
    w.tick(25 * MIN);
    expect(reports).toEqual([]);
    // Answered at 25 min: busy from then on, so stalled 20 min later, not at once.
    w.state('planner', 'busy', 25 * MIN);
    expect(w.nextCheck(25 * MIN)).toBe(20 * MIN);
    w.tick(26 * MIN);
    expect(reports).toEqual([]);
    w.tick(45 * MIN);
    expect(reports).toEqual([['planner', { role: 'planner', why: 'busy', forMs: 20 * MIN }]]);
  });

  it('reports an agent flapping busy/idle (10 changes within 30 s) with no turn end, once', () => {
    const { w, reports } = watcher();
    w.turnBegan('builder', 0);
    for (let i = 1; i <= 9; i++) w.state('builder', i % 2 ? 'busy' : 'idle', i * 50);
    expect(reports).toEqual([]);
    w.state('builder', 'busy', 500);
    for (let i = 11; i <= 30; i++) w.state('builder', i % 2 ? 'busy' : 'idle', i * 50);
    expect(reports).toEqual([['builder', { role: 'builder', why: 'flapping', forMs: 450 }]]);
    w.state('builder', 'exited', 2000);
    expect(reports.at(-1)).toEqual(['builder', null]);
  });

  it('changes spread wider than the window are not flapping', () => {
    const { w, reports } = watcher();
    w.turnBegan('builder', 0);
    for (let i = 1; i <= 40; i++) w.state('builder', i % 2 ? 'busy' : 'idle', i * 4000);
    expect(reports).toEqual([]);
  });
});

describe('durations', () => {
  it('read as the flag takes them and printed as people read them', () => {
    expect(parseDuration('20m')).toBe(20 * MIN);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(90 * MIN);
    expect(parseDuration('20')).toBeNull();
    expect(parseDuration('soon')).toBeNull();
    expect(formatDuration(20 * MIN)).toBe('20m');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(45_000)).toBe('45s');
  });
});

const blank = () => initialState(machineConfig('en', { delivery: { mode: 'inline', maxBytes: 1, maxLines: 1 }, runPath: 'x' }));

/** Just the events Attention listens to, fired by the test. */
/** What a fake agent's detection says of its screen. */
const EXPLAINED = { state: 'busy', rule: 'working', rules: [] } as const;

function fakeAgent() {
  const e = {
    hold: new Emitter<boolean>(),
    began: new Emitter<{ sent: string | null }>(),
    ended: new Emitter<unknown>(),
    state: new Emitter<string>(),
  };
  let withdrawn = 0;
  const agent = {
    hold: { onChange: e.hold.event, withdraw: () => void withdrawn++ },
    onTurnBegan: e.began.event,
    onTurnEnded: e.ended.event,
    onState: e.state.event,
    explain: () => EXPLAINED,
  };
  return { agent: stub<AgentPane>(agent), e, withdrawn: () => withdrawn };
}

describe('Attention', () => {
  it('journals a held delivery once with its round, keeps the band note until it goes on, and gives up a hold on pause', () => {
    const fakes = { planner: fakeAgent(), builder: fakeAgent() };
    const changes = new Emitter<RelayState>();
    const base = blank();
    let state: RelayState = {
      ...base,
      phase: 'running',
      pending: { kind: 'handoff', to: 'builder', from: 'planner', round: 2, body: 'b', text: 't', seq: 2, via: 'inline' },
    };
    const runner: Watched = {
      agents: { planner: fakes.planner.agent, builder: fakes.builder.agent },
      get state() {
        return state;
      },
      onChange: changes.event,
    };
    const journal: JournalEntry[] = [];
    const attention = new Attention(runner, journalInto(journal), 20 * MIN, () => 0);
    const notes: (string | null)[] = [];
    attention.onChange((n) => notes.push(n.builder));
    fakes.builder.e.hold.fire(true);
    expect(journal).toEqual([{ type: 'delivery_held', role: 'builder', round: 2 }]);
    expect(attention.notes.builder).toBe('builder: your draft holds round 2 — send it or clear it');
    fakes.builder.e.hold.fire(false);
    expect(notes).toEqual(['builder: your draft holds round 2 — send it or clear it', null]);
    state = { ...state, phase: 'paused' };
    changes.fire(state);
    for (const role of ROLES) expect(fakes[role].withdrawn()).toBe(1);
    attention.dispose();
  });

  afterEach(() => vi.useRealTimers());

  it('journals a stalled turn once (with why and for how long), shows it in the band, and clears it at the turn end', () => {
    vi.useFakeTimers();
    const fakes = { planner: fakeAgent(), builder: fakeAgent() };
    const runner: Watched = {
      agents: { planner: fakes.planner.agent, builder: fakes.builder.agent },
      state: blank(),
      onChange: new Emitter<RelayState>().event,
    };
    const journal: JournalEntry[] = [];
    let now = 0;
    const attention = new Attention(runner, journalInto(journal), 20 * MIN, () => now);
    expect(vi.getTimerCount()).toBe(0); // no turn running: no timer (idle agents wake nothing)
    fakes.planner.e.began.fire({ sent: 'x' });
    fakes.planner.e.state.fire('busy');
    expect(vi.getTimerCount()).toBe(1); // one, for the moment the turn would stall
    now = 21 * MIN;
    vi.advanceTimersByTime(20 * MIN);
    // With how detection read the agent's screen then.
    expect(journal).toEqual([{ type: 'stalled', role: 'planner', why: 'busy', for_ms: 21 * MIN, detection: EXPLAINED }]);
    expect(attention.notes.planner).toBe('planner: stalled — busy 21m with no turn end');
    expect(vi.getTimerCount()).toBe(0); // reported: nothing more to watch
    fakes.planner.e.ended.fire({});
    expect(attention.notes.planner).toBeNull();
    expect(journal).toHaveLength(1);
    fakes.builder.e.began.fire({ sent: 'y' });
    expect(vi.getTimerCount()).toBe(1);
    fakes.builder.e.ended.fire({});
    expect(vi.getTimerCount()).toBe(0); // the turn ended in time: its timer is gone
    attention.dispose();
  });
});
