import type { Options } from './options.js';
import { basename } from 'node:path';
import { guardProcess } from './faults.js';
import { Attention } from './attention.js';
import { goalOf, openRun } from './setup.js';

export const EXIT_DONE = 0;
export const EXIT_PAUSED = 3;

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

/** `--headless`: runs the relay with no UI, one JSON line per journal event on stdout; exits at done or at the first pause. */
export async function runHeadless(options: Options, version: string, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const goal = options.resume === false ? goalOf(options) : null;
  const { runner, journal, dir, unlock } = await openRun(options, version, env, { cols: options.cols, rows: options.rows }, (line) =>
    io.stdout.write(`${JSON.stringify(line)}\n`),
  );
  const unguard = guardProcess(runner.fault);
  const attention = new Attention(runner, journal, options.stallAfterMs);
  const interrupt = () => runner.dispatch({ type: 'pause' });
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  if (goal === null) runner.resumeRun();
  else runner.start(goal);
  const final = await runner.settled();
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  attention.dispose();
  await runner.stop();
  unguard();
  journal.close();
  unlock();
  if (final.phase === 'done') return EXIT_DONE;
  const p = final.pause;
  const who = p?.role ? ` (${p.role})` : '';
  const detail = p?.detail ? `: ${p.detail}` : '';
  const kept = !final.pending
    ? ''
    : runner.pendingSaved
      ? `; round ${final.pending.round} for the ${final.pending.to} is kept`
      : `; round ${final.pending.round} for the ${final.pending.to} could not be checkpointed: --resume asks the ${final.pending.from} again`;
  io.stderr.write(
    `relevo-tui: paused: ${p?.reason ?? 'unknown'}${who}${detail}${kept} — journal: ${journal.path}; go on with: relevo-tui --resume ${basename(dir)}\n`,
  );
  return EXIT_PAUSED;
}
