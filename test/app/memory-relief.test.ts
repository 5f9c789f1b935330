// Memory given back once relevo is still (src/app/run/memory-relief.ts): one collection after the
// still period, none while things happen, a few tries when V8 keeps its young generation, and no
// timer left once it is done.
import { getHeapCodeStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { exposedGc, MemoryRelief, relievingGc } from '../../src/app/run/memory-relief.js';

const MB = 1024 * 1024;

describe('memory relief', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const relief = (shrinks: boolean, grown = 32 * MB) => {
    let young = grown;
    const gc = vi.fn(() => {
      if (shrinks) young = MB;
    });
    return { gc, relief: new MemoryRelief({ stillMs: 1000, gc, young: () => young, now: () => Date.now() }) };
  };

  it('collects once relevo has been still for the whole period, and arms nothing after', () => {
    const { gc, relief: r } = relief(true);
    r.activity();
    vi.advanceTimersByTime(600);
    r.activity(); // output again: the period starts over
    vi.advanceTimersByTime(600);
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(gc).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it('tries again a few times while V8 keeps its young generation, then stops until the next activity', () => {
    const { gc, relief: r } = relief(false);
    r.activity();
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
    r.activity();
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(4);
  });

  it('collects nothing when the still period followed activity that did not grow the young generation', () => {
    const { gc, relief: r } = relief(true, MB);
    r.activity();
    vi.advanceTimersByTime(10_000);
    expect(gc).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms one timer at most, however much output comes, and none once disposed', () => {
    const { gc, relief: r } = relief(true);
    for (let i = 0; i < 1000; i++) r.activity();
    expect(vi.getTimerCount()).toBe(1);
    r.dispose();
    expect(vi.getTimerCount()).toBe(0);
    r.activity();
    vi.advanceTimersByTime(5000);
    expect(gc).not.toHaveBeenCalled();
  });
});

describe("V8's gc, made available for a moment", () => {
  it('runs, and leaves new contexts without a gc global', () => {
    const gc = exposedGc();
    expect(gc).toBeTypeOf('function');
    gc?.();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('as the relief runs it, drops the code V8 compiled for functions that still exist, which a plain collection keeps', () => {
    const gc = exposedGc();
    if (gc === null) throw new Error('no gc');
    // 2,000 small functions, each compiled and run: ≈ 0.3 MB of bytecode while they live.
    const fns = Array.from(
      { length: 2000 },
      (_, i) => new Function('n', `let s = ${i}; for (let j = 0; j < n; j++) s += j * ${i}; return s;`),
    );
    const run = () => fns.reduce((sum, f) => sum + (f(8) as number), 0);
    run();
    const bytecode = () => getHeapCodeStatistics().bytecode_and_metadata_size;
    gc();
    const kept = bytecode();
    gc();
    expect(bytecode()).toBeGreaterThan(kept - 100_000);
    relievingGc(gc)();
    expect(bytecode()).toBeLessThan(kept - 200_000);
    // Flushed code compiles again from its source when it runs next, with the same result.
    expect(run()).toBe(fns.reduce((sum, _f, i) => sum + i + 28 * i, 0));
  });
});
