/** `relevo-tui --headless --resume --all`: every relay of the repository that is not done, in one relevo. */
import { basename, join } from 'node:path';
import type { Options } from '../config/options.js';
import { ConfigError } from '../faults/errors.js';
import { StartGate } from '../relays/starting.js';
import { stateDirPath } from '../store/state-dir.js';
import { driveRun, EXIT_DONE, EXIT_PAUSED, Interrupts, type Io } from './headless.js';
import { listRelays, resumable, resumedRelays } from './relays.js';

const EXIT_REFUSED = 2;

/** The relays `--resume --all` goes on with. */
export const resumableRelays = (stateDir: string) => listRelays(stateDir).filter(resumable);

/**
 * Drives each resumable relay to done or its first pause, at most `--max-starting` starting their agents
 * at once; one relay's failure or pause is its own (one line on stderr naming it), the others go on.
 * Exit 0 when all are done, 3 when one paused, 2 when one could not be resumed.
 */
export async function runFleet(options: Options, version: string, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const stateDir = stateDirPath(options.stateDir, process.cwd());
  const relays = resumableRelays(stateDir);
  if (relays.length === 0) throw new ConfigError('--resume', `no relay to go on with in ${join(options.stateDir, 'runs')}`);
  const interrupts = new Interrupts(io);
  const gate = new StartGate(options.maxStarting);
  const hooks = resumedRelays(options, env);
  try {
    const codes = await Promise.all(
      relays.map(async (r) => {
        try {
          return await driveRun({ ...options, resume: basename(r.dir) }, version, env, interrupts, hooks, gate);
        } catch (error) {
          const why = error instanceof ConfigError ? error.toString() : (error as Error).message.split('\n')[0];
          io.stderr.write(`relevo-tui: ${r.name}: ${why}\n`);
          return EXIT_REFUSED;
        }
      }),
    );
    if (codes.every((c) => c === EXIT_DONE)) return EXIT_DONE;
    return codes.includes(EXIT_PAUSED) ? EXIT_PAUSED : EXIT_REFUSED;
  } finally {
    interrupts.dispose();
  }
}
