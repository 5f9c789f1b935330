import { describe, expect, it } from 'vitest';
import { resetTime } from '../../src/protocol/reset-time.js';

// 2026-03-10 10:00:00 UTC (11:00 in Madrid, winter time).
const now = Date.UTC(2026, 2, 10, 10, 0, 0);
const MIN = 60_000;

describe('resetTime', () => {
  it('reads spans after "in" or "after"', () => {
    expect(resetTime('try again in 5 minutes', now)).toBe(now + 5 * MIN);
    expect(resetTime('resets in 2h 10m', now)).toBe(now + 130 * MIN);
    expect(resetTime('retry after 30s', now)).toBe(now + 30_000);
    expect(resetTime('Try again in 1 day 3 hours', now)).toBe(now + 27 * 60 * MIN);
    expect(resetTime('in 1 hour and 5 minutes', now)).toBe(now + 65 * MIN);
  });

  it('reads an ISO time', () => {
    expect(resetTime('resets at 2026-03-10T12:30:00Z', now)).toBe(Date.UTC(2026, 2, 10, 12, 30));
    expect(resetTime('2026-03-10T12:30:00+01:00', now)).toBe(Date.UTC(2026, 2, 10, 11, 30));
  });

  it('reads a clock time in a named zone, tomorrow when already past', () => {
    expect(resetTime('resets at 15:00 (Europe/Madrid)', now)).toBe(Date.UTC(2026, 2, 10, 14, 0));
    expect(resetTime('resets 3pm (Europe/Madrid)', now)).toBe(Date.UTC(2026, 2, 10, 14, 0));
    expect(resetTime('resets 10am (Europe/Madrid)', now)).toBe(Date.UTC(2026, 2, 11, 9, 0));
    expect(resetTime('resets 12am (UTC)', now)).toBe(Date.UTC(2026, 2, 11, 0, 0));
  });

  it('reads a clock time in the local zone', () => {
    const at = resetTime('resets 3pm', now)!;
    const local = new Date(at);
    expect([local.getHours(), local.getMinutes()]).toEqual([15, 0]);
    expect(at).toBeGreaterThan(now);
    expect(at - now).toBeLessThanOrEqual(86_400_000);
  });

  it('is null for what it does not understand', () => {
    expect(resetTime('usage limit reached', now)).toBeNull();
    expect(resetTime('resets soon', now)).toBeNull();
    expect(resetTime('resets 13pm', now)).toBeNull();
    expect(resetTime('resets at 15:00 (Mars/Olympus)', now)).toBeNull();
    expect(resetTime('version 2.1.3', now)).toBeNull();
  });
});
