/** An agent's terminal is never smaller than its CLI needs: every profile states its minimum, and relevo starts agents at least that large. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { PROFILES_DIR } from '../../src/app/config/paths.js';
import { loadProfile, shippedProfileNames } from '../../src/app/config/profiles.js';
import { paneRequest } from '../../src/app/run/run-files.js';
import type { RunnerOptions } from '../../src/app/run/run-options.js';

describe('the minimum size of an agent CLI', () => {
  it.each(shippedProfileNames())('profile %s states its minimum size itself', (name) => {
    const toml = parse(readFileSync(join(PROFILES_DIR, `${name}.toml`), 'utf8')) as { screen?: Record<string, unknown> };
    expect(toml.screen).toEqual(expect.objectContaining({ min_cols: expect.any(Number), min_rows: expect.any(Number) }));
    const { min_cols, min_rows } = loadProfile(name, 'test').data.screen;
    expect(min_cols).toBeGreaterThanOrEqual(20);
    expect(min_rows).toBeGreaterThanOrEqual(5);
  });

  it('starts an agent at its pane size, and at its minimum when the pane is smaller', () => {
    const claude = loadProfile('claude', 'test');
    const sim = loadProfile('sim', 'test');
    const options = (cols: number, rows: number) =>
      ({
        runId: 'r',
        cwd: '/tmp',
        env: {},
        lang: 'en',
        cols,
        rows,
        agents: { planner: { argv: ['claude'], profile: claude }, builder: { argv: ['relevo-tui', 'sim-agent'], profile: sim } },
      }) as unknown as RunnerOptions;
    const size = (o: RunnerOptions) =>
      (['planner', 'builder'] as const).map((role) => [paneRequest(role, o, null).cols, paneRequest(role, o, null).rows]);
    expect(size(options(28, 4))).toEqual([
      [80, 24],
      [60, 16],
    ]);
    expect(size(options(120, 40))).toEqual([
      [120, 40],
      [120, 40],
    ]);
  });
});
