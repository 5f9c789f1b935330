// The young generation's cap, in a node process of its own (the flag it sets is process-wide): a
// workload whose objects survive scavenges grows the new space to V8's maximum unless capped.
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { capYoungGeneration } from '../../src/app/run/young-generation.js';

// `npm test` builds dist/ before vitest runs.
const MODULE = fileURLToPath(new URL('../../dist/app/run/young-generation.js', import.meta.url));

/** The new space's size in MB after the workload, in a fresh node: capped at `mb` with `env`, or not capped. */
async function newSpaceAfterWork(cap?: { mb: number; env: Record<string, string>; execArgv: string[] }): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const cap = ${JSON.stringify(cap ?? null)};
    if (cap) (await import(${JSON.stringify(MODULE)})).capYoungGeneration(cap.mb, cap.env, cap.execArgv);
    const kept = [];
    for (let i = 0; i < 300; i++) {
      const batch = [];
      for (let j = 0; j < 5000; j++) batch.push({ i, j, s: 'x' + j });
      kept.push(batch);
      if (kept.length > 40) kept.shift();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 1048576));
  `;
  const { stdout } = await execa(process.execPath, ['--input-type=module', '-e', script], { env: { NODE_OPTIONS: '' } });
  return Number(stdout);
}

describe('the young generation cap', () => {
  it('keeps the new space at the cap where it would otherwise grow past it', async () => {
    expect(await newSpaceAfterWork()).toBeGreaterThan(8);
    expect(await newSpaceAfterWork({ mb: 8, env: {}, execArgv: [] })).toBe(8);
  });

  it("leaves a person's own semi-space flags alone", async () => {
    expect(capYoungGeneration(8, { NODE_OPTIONS: '--max-semi-space-size=64' }, [])).toBe(false);
    expect(capYoungGeneration(8, {}, ['--semi-space-growth-factor=4'])).toBe(false);
    const env = { NODE_OPTIONS: '--max-semi-space-size=64' };
    expect(await newSpaceAfterWork({ mb: 8, env, execArgv: [] })).toBeGreaterThan(8);
  });
});
