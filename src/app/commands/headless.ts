import { basename } from 'node:path';
import type { JournalLine, RelayState } from '../../protocol/index.js';
import { installedAgents, noAgentsError } from '../config/installed.js';
import { agentsUnnamed, type Options } from '../config/options.js';
import { resumeCommand } from '../config/self.js';
import { guardProcess } from '../faults/fault.js';
import { shareLimits } from '../relays/limits.js';
import { agentsStarted, type StartGate } from '../relays/starting.js';
import { goalOf } from '../run/agent-specs.js';
import { Attention } from '../run/attention.js';
import { livesOn } from '../run/leftovers.js';
import { Reachability } from '../run/reachability.js';
import { SetupFailed } from '../run/relay-site.js';
import type { RelayRunner } from '../run/runner.js';
import { agentPanes, openRun, type RelayOpen } from '../run/setup.js';
import { firstRunNote } from '../store/journal.js';

export const EXIT_DONE = 0;
export const EXIT_PAUSED = 3;

/** Signals that pause the relay (journaled `paused: user`, detail the signal), stop the agents and exit 3. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

/**
 * What stops the runs of one headless relevo: a signal, or stdout closed by its reader (`| head`).
 * Every run it drives pauses, one that has not started yet does once it has.
 */
export class Interrupts {
  readonly #runners = new Set<RelayRunner>();
  #why: string | null = null;
  readonly #waiting: (() => void)[] = [];
  #stdoutOpen = true;
  readonly #onSignal = STOP_SIGNALS.map((signal) => [signal, () => this.interrupt(signal)] as const);
  readonly #onStdoutError = (error: NodeJS.ErrnoException) => {
    if (!this.#stdoutOpen) return;
    this.#stdoutOpen = false;
    this.interrupt(`stdout closed (${error.code ?? error.message})`);
  };

  constructor(readonly io: Io) {
    io.stdout.on('error', this.#onStdoutError);
    // The error listeners stay: a write that fails after the runs must not end relevo with a stack trace.
    io.stderr.on('error', () => {});
    for (const [signal, handler] of this.#onSignal) process.on(signal, handler);
  }

  /** One JSON line on stdout, while its reader is there; `relay` names the relay in each line. */
  line(line: JournalLine, relay?: string): void {
    if (this.#stdoutOpen) this.io.stdout.write(`${JSON.stringify(relay === undefined ? line : { ...line, relay })}\n`);
  }

  interrupt(detail: string): void {
    this.#why ??= detail;
    for (const wake of this.#waiting.splice(0)) wake();
    for (const runner of this.#runners) runner.dispatch({ type: 'pause', detail });
  }

  /**
   * The run is driven from now until `release`: an interrupt already come pauses it at once, and a
   * usage limit it hits holds the other runs of this relevo on the same CLI (relays/limits.ts).
   */
  hold(runner: RelayRunner): () => void {
    this.#runners.add(runner);
    if (this.#why !== null) runner.dispatch({ type: 'pause', detail: this.#why });
    const limits = shareLimits(runner, () => [...this.#runners]);
    return () => {
      limits.dispose();
      this.#runners.delete(runner);
    };
  }

  /** Resolves at the first interrupt (at once when one came already). */
  get interruption(): Promise<void> {
    if (this.#why !== null) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  get interrupted(): boolean {
    return this.#why !== null;
  }

  dispose(): void {
    for (const [signal, handler] of this.#onSignal) process.off(signal, handler);
  }
}

/**
 * `--headless`: runs the relay with no UI, one JSON line per journal event on stdout; exits at done or
 * at the first pause. A signal, or stdout closed by its reader (`| head`), pauses the run the same way.
 */
export async function runHeadless(
  options: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  io: Io,
  relay: RelayOpen = {},
): Promise<number> {
  // Nothing names the agents: no one is there to pick them, so one line says what was found and how to name them.
  if (agentsUnnamed(options) && relay.site === undefined) throw noAgentsError(installedAgents(env.PATH ?? ''));
  const interrupts = new Interrupts(io);
  try {
    return await driveRun(options, version, env, interrupts, relay);
  } finally {
    interrupts.dispose();
  }
}

/** Paused on a usage limit whose reset time is known: the relay goes on by itself then. */
const waitsForReset = (s: RelayState): boolean =>
  s.phase === 'paused' && s.pause?.reason === 'rate_limited' && s.pause.resumeAt !== undefined;

/** Resolves once the run is no longer in the pause it is in now. */
function leftPause(runner: RelayRunner): Promise<void> {
  const pause = runner.state.pause;
  return new Promise((resolve) => {
    const sub = runner.onChange((s) => {
      if (s.pause === pause) return;
      sub.dispose();
      resolve();
    });
  });
}

/** One run, opened, driven to done or its first pause, and closed: exit 0 at done, 3 paused (one line on stderr saying why and how to go on). */
export async function driveRun(
  options: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  interrupts: Interrupts,
  relay: RelayOpen = {},
  /** Several relays in one relevo: each waits its turn to start its agents. */
  gate?: StartGate,
): Promise<number> {
  const { stderr } = interrupts.io;
  const goal = options.resume === false ? (relay.site?.goal ?? goalOf(options)) : null;
  let name = relay.site?.relay.branch;
  const named = { ...relay, named: (r: { branch: string }) => (name = r.branch) };
  let opened: Awaited<ReturnType<typeof openRun>>;
  await gate?.enter();
  try {
    opened = await openRun(options, version, env, { cols: options.cols, rows: options.rows }, (l) => interrupts.line(l, name), named);
    if (gate) void agentsStarted(opened.runner).finally(() => gate.leave());
  } catch (error) {
    gate?.leave();
    if (!(error instanceof SetupFailed)) throw error;
    const id = basename(error.runDir);
    stderr.write(
      `relevo-tui: ${name ?? id}: paused: setup_failed: ${error.detail} — journal: ${error.journalPath}; go on with: ${resumeCommand(id, options.stateDir)}\n`,
    );
    return EXIT_PAUSED;
  }
  const { journal, dir, unlock, runner } = opened;
  // Once, for a person at a terminal: a script's stderr keeps only what went wrong, in one line.
  if (opened.createdStateDir && (stderr as NodeJS.WriteStream).isTTY === true)
    stderr.write(`relevo-tui: ${firstRunNote(options.stateDir)}\n`);
  const unguard = guardProcess(runner.fault);
  const attention = new Attention(runner, journal, options.stallAfterMs);
  // A host out of reach and back: journaled, so printed once each.
  const reach = new Reachability(runner, journal);
  if (goal === null) runner.resumeRun();
  else runner.start(goal);
  const release = interrupts.hold(runner);
  let final = await runner.settled();
  // A usage limit with a known reset is waited out (the runner goes on by itself then), unless interrupted.
  while (waitsForReset(final) && !interrupts.interrupted) {
    await Promise.race([interrupts.interruption, leftPause(runner)]);
    final = await runner.settled();
  }
  release();
  attention.dispose();
  reach.dispose();
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
  const relayName = name !== undefined ? `${name}: ` : '';
  stderr.write(
    `relevo-tui: ${relayName}paused: ${p?.reason ?? 'unknown'}${who}${detail}${kept} — journal: ${journal.path}; go on with: ${resumeCommand(basename(dir), options.stateDir)}${lives}\n`,
  );
  return EXIT_PAUSED;
}
