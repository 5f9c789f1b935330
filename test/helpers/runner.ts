/** A RelayRunner as tests start one: relevo's usual settings under what the test gives. */
import type { AgentSpec } from '../../src/app/config/launch.js';
import type { RunnerOptions } from '../../src/app/run/run-options.js';
import { RelayRunner } from '../../src/app/run/runner.js';
import type { Profile } from '../../src/pty/profile.js';

type Given = Pick<RunnerOptions, 'runId' | 'cwd' | 'agents' | 'journal' | 'runDir' | 'runPath'> & Partial<RunnerOptions>;

/** Ten rounds in English on a pane of 100 columns and 30 rows, no environment, generous limits (never a timing goal); `given` changes any of it. */
export function startRunner(given: Given): Promise<RelayRunner> {
  return RelayRunner.create({
    version: 'test',
    maxRounds: 10,
    lang: 'en',
    env: {},
    cols: 100,
    rows: 30,
    blockedTimeoutMs: 60_000,
    readyTimeoutMs: 5000,
    ...given,
  });
}

/** Both roles on one program (`argv`) with one profile. */
export const bothOn = (argv: readonly string[], profile: Profile): Record<'planner' | 'builder', AgentSpec> => ({
  planner: { argv: [...argv], profile },
  builder: { argv: [...argv], profile },
});
