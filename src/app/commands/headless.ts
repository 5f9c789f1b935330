import { basename } from 'node:path';
import { installedAgents, noAgentsError } from '../config/installed.js';
import { agentsUnnamed, type Options } from '../config/options.js';
import { resumeCommand } from '../config/self.js';
import { guardProcess } from '../faults/fault.js';
import { goalOf } from '../run/agent-specs.js';
import { Attention } from '../run/attention.js';
import { livesOn } from '../run/leftovers.js';
import type { RelayRunner } from '../run/runner.js';
import { agentPanes, openRun } from '../run/setup.js';
import { firstRunNote } from '../store/journal.js';

export const EXIT_DONE = 0;
export const EXIT_PAUSED = 3;

/** Signals that pause the relay (journaled `paused: user`, detail the signal), stop the agents and exit 3. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

/**
 * `--headless`: runs the relay with no UI, one JSON line per journal event on stdout; exits at done or
 * at the first pause. A signal, or stdout closed by its reader (`| head`), pauses the run the same way.
 */
export async function runHeadless(options: Options, version: string, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  // Nothing names the agents: no one is there to pick them, so one line says what was found and how to name them.
  if (agentsUnnamed(options)) throw noAgentsError(installedAgents(env.PATH ?? ''));
  const goal = options.resume === false ? goalOf(options) : null;
  let runner: RelayRunner | null = null;
  /** Why the relay is to pause, when that came before the relay was running. */
  let early: string | null = null;
  let finished = false;
  const interrupt = (detail: string) => {
    if (finished) return;
    if (runner === null) early ??= detail;
    else runner.dispatch({ type: 'pause', detail });
  };
  let stdoutOpen = true;
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (!stdoutOpen) return;
    stdoutOpen = false;
    interrupt(`stdout closed (${error.code ?? error.message})`);
  };
  const onStderrError = () => {};
  const onSignal = STOP_SIGNALS.map((signal) => [signal, () => interrupt(signal)] as const);
  io.stdout.on('error', onStdoutError);
  io.stderr.on('error', onStderrError);
  for (const [signal, handler] of onSignal) process.on(signal, handler);
  try {
    const opened = await openRun(options, version, env, { cols: options.cols, rows: options.rows }, (line) => {
      if (stdoutOpen) io.stdout.write(`${JSON.stringify(line)}\n`);
    });
    const { journal, dir, unlock } = opened;
    runner = opened.runner;
    // Once, for a person at a terminal: a script's stderr keeps only what went wrong, in one line.
    if (opened.createdStateDir && (io.stderr as NodeJS.WriteStream).isTTY === true)
      io.stderr.write(`relevo-tui: ${firstRunNote(options.stateDir)}\n`);
    const unguard = guardProcess(runner.fault);
    const attention = new Attention(runner, journal, options.stallAfterMs);
    if (goal === null) runner.resumeRun();
    else runner.start(goal);
    if (early !== null) interrupt(early);
    const final = await runner.settled();
    finished = true;
    attention.dispose();
    await runner.stop();
    unguard();
    journal.close();
    unlock();
    if (final.phase === 'done') return EXIT_DONE;
    // Agents in tmux or Herdr panes were let be: the line says where to find them.
    const lives = await livesOn(agentPanes(runner), opened.tmuxSocket, basename(dir));
    const p = final.pause;
    const who = p?.role ? ` (${p.role})` : '';
    const detail = p?.detail ? `: ${p.detail}` : '';
    const kept = !final.pending
      ? ''
      : runner.pendingSaved
        ? `; round ${final.pending.round} for the ${final.pending.to} is kept`
        : `; round ${final.pending.round} for the ${final.pending.to} could not be checkpointed: --resume asks the ${final.pending.from} again`;
    io.stderr.write(
      `relevo-tui: paused: ${p?.reason ?? 'unknown'}${who}${detail}${kept} — journal: ${journal.path}; go on with: ${resumeCommand(basename(dir), options.stateDir)}${lives}\n`,
    );
    return EXIT_PAUSED;
  } finally {
    // The error listeners stay: a write that fails after this must not end relevo with a stack trace.
    finished = true;
    for (const [signal, handler] of onSignal) process.off(signal, handler);
  }
}
