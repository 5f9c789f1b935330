import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { journalLineSchema } from '../../src/protocol/index.js';
import { lazySchema } from '../../src/protocol/schemas/lazy.js';

describe('lazySchema', () => {
  it('builds the schema on its first use, once', () => {
    let builds = 0;
    const point = lazySchema(() => {
      builds++;
      return z.strictObject({ x: z.number(), y: z.number() });
    });
    expect(builds).toBe(0);
    expect(point.parse({ x: 1, y: 2 })).toEqual({ x: 1, y: 2 });
    expect(point.safeParse({ x: 1 }).success).toBe(false);
    expect(Object.keys(point.shape)).toEqual(['x', 'y']);
    expect(builds).toBe(1);
  });

  it('stands for the schema inside others, in instanceof checks and in a JSON Schema', () => {
    const id = lazySchema(() => z.string().regex(/^[a-z]+$/, 'lowercase letters'));
    const item = z.strictObject({ id, tags: z.array(id).optional() });
    expect(id instanceof z.ZodString).toBe(true);
    expect(item.parse({ id: 'abc', tags: ['x'] })).toEqual({ id: 'abc', tags: ['x'] });
    const bad = item.safeParse({ id: 'abc', tags: ['x', 'Y'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['tags', 1], message: 'lowercase letters' });
    expect(z.toJSONSchema(item)).toMatchObject({ properties: { id: { type: 'string', pattern: '^[a-z]+$' } } });
  });

  it("reads the journal's lines as before (a lazy union inside a lazy intersection)", () => {
    const line = { seq: 3, ts: '2026-12-04T09:00:00.000Z', type: 'agent_restarted', role: 'builder', pid: 42 };
    expect(journalLineSchema.parse(line)).toEqual(line);
    expect(journalLineSchema.safeParse({ ...line, role: 'tester' }).success).toBe(false);
    expect(journalLineSchema.safeParse({ ...line, type: 'no_such_event' }).success).toBe(false);
  });
});
