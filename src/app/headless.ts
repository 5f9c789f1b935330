import { resolve } from 'node:path';
import { createRunDir, Journal } from './journal.js';
import type { Options } from './options.js';
import { RelayRunner } from './runner.js';
import { agentSpec, goalOf } from './setup.js';

export const EXIT_DONE = 0;
export const EXIT_PAUSED = 3;

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

/** `--headless`: runs the relay with no UI, one JSON line per journal event on stdout; exits at done or at the first pause. */
export async function runHeadless(options: Options, version: string, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const goal = goalOf(options);
  const agents = { planner: agentSpec('planner', options, env), builder: agentSpec('builder', options, env) };
  const cwd = process.cwd();
  const { runId, dir } = createRunDir(resolve(cwd, options.stateDir));
  const journal = new Journal(dir);
  journal.onAppend((line) => io.stdout.write(`${JSON.stringify(line)}\n`));
  const runner = await RelayRunner.create({
    runId,
    version,
    maxRounds: options.maxRounds,
    lang: options.lang,
    cwd,
    env,
    cols: options.cols,
    rows: options.rows,
    blockedTimeoutMs: options.blockedTimeoutMs,
    readyTimeoutMs: options.readyTimeoutMs,
    agents,
    journal,
  });
  const interrupt = () => runner.dispatch({ type: 'pause' });
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  runner.start(goal);
  const final = await runner.settled();
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  await runner.stop();
  journal.close();
  if (final.phase === 'done') return EXIT_DONE;
  const p = final.pause;
  const who = p?.role ? ` (${p.role})` : '';
  const detail = p?.detail ? `: ${p.detail}` : '';
  const kept = final.pending ? `; round ${final.pending.round} for the ${final.pending.to} is kept` : '';
  io.stderr.write(`relevo-tui: paused: ${p?.reason ?? 'unknown'}${who}${detail}${kept} — journal: ${journal.path}\n`);
  return EXIT_PAUSED;
}
