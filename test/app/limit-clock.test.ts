import { afterEach, describe, expect, it, vi } from 'vitest';
import { LimitClock } from '../../src/app/run/limit-clock.js';
import { initialState, type RelayEvent, type RelayState } from '../../src/protocol/index.js';
import { Emitter } from '../../src/pty/emitter.js';
import { machineConfig } from '../helpers/machine.js';

const base = initialState(machineConfig('en'));
const limited = (resumeAt?: number): RelayState => ({
  ...base,
  phase: 'paused',
  pause: { reason: 'rate_limited', role: 'builder', profile: 'claude', ...(resumeAt !== undefined ? { resumeAt } : {}) },
});
const running: RelayState = { ...base, phase: 'running' };

afterEach(() => {
  vi.useRealTimers();
});

function clock(state: RelayState) {
  vi.useFakeTimers({ now: 1_000_000 });
  const changes = new Emitter<RelayState>();
  const events: RelayEvent[] = [];
  const c = new LimitClock(state, changes.event, (e) => events.push(e));
  return { c, changes, events };
}

describe('LimitClock', () => {
  it('dispatches limit-reset once at the reset time of a rate_limited pause', () => {
    const { c, events } = clock(limited(1_000_000 + 5000));
    expect(c.due).toBe(1_005_000);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(4999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual([{ type: 'limit-reset' }]);
    vi.advanceTimersByTime(60_000);
    expect(events).toHaveLength(1);
  });

  it('arms when the relay pauses later, and clears when the person resumed first or the run stops', () => {
    const { c, changes, events } = clock(running);
    expect(c.due).toBeNull();
    changes.fire(limited(1_000_000 + 5000));
    expect(vi.getTimerCount()).toBe(1);
    changes.fire(running);
    expect(vi.getTimerCount()).toBe(0);
    changes.fire(limited(1_000_000 + 9000));
    c.dispose();
    expect(vi.getTimerCount()).toBe(0);
    changes.fire(limited(1_000_000 + 9000));
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual([]);
  });

  it('has nothing to wait for without a reset time, nor for another pause', () => {
    const { c } = clock(limited());
    expect(c.due).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
    const other = clock({ ...base, phase: 'paused', pause: { reason: 'user', resumeAt: 1_005_000 } });
    expect(other.c.due).toBeNull();
  });

  it('a reset already past goes on at once', () => {
    const { events } = clock(limited(1_000_000 - 5000));
    vi.advanceTimersByTime(0);
    expect(events).toEqual([{ type: 'limit-reset' }]);
  });
});
