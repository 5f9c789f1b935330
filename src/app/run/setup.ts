import { existsSync, rmSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import type { JournalLine, JournalRebuilt, RelayInfo, Role } from '../../protocol/index.js';
import { anchorMoved, inOrder, restoreState } from '../../protocol/index.js';
import type { Pane } from '../../pty/pane.js';
import type { Options } from '../config/options.js';
import { ConfigError } from '../faults/errors.js';
import { startError } from '../faults/fault.js';
import { CheckpointStore } from '../store/checkpoints.js';
import { diffStat, gitAnchor } from '../store/git.js';
import { createRunDir, Journal } from '../store/journal.js';
import { lockRun } from '../store/locks.js';
import { Memory } from '../store/memory.js';
import { journalForResume, rebuildJournal } from '../store/rebuild.js';
import { stateDirPath } from '../store/state-dir.js';
import { flagAgents, rebuiltAgents, resumedAgent } from './agent-specs.js';
import { backendFor } from './backends.js';
import { findRun } from './find-run.js';
import { recordAgents, stopLeftovers } from './leftovers.js';
import { journalSetupFailed, type RelayHooks, type RelaySite } from './relay-site.js';
import { runStartedEntry } from './run-start.js';
import { localCwd, resumedWhere, tmuxSocketOf, versioned } from './run-where.js';
import { RelayRunner, relayConfig } from './runner.js';

type Size = { readonly cols: number; readonly rows: number };
/** A new relay's site (`relevo-tui new`), and what the relays' room does for one (its ports, its setup). */
export type RelayOpen = {
  readonly site?: RelaySite;
  readonly relays?: RelayHooks;
  /** Told the relay's name as soon as the run is known to be one (before its first line is journaled). */
  readonly named?: (relay: RelayInfo) => void;
};
export type OpenedRun = {
  runner: RelayRunner;
  journal: Journal;
  dir: string;
  resumed: boolean;
  /** This run made the state directory: the first run there (the person is told where runs go). */
  createdStateDir: boolean;
  unlock: () => void;
  /** The tmux server's socket (`-L`) when the agents run in tmux panes on a named one. */
  tmuxSocket: string | null;
  /** `--resume` rebuilt the run's lost journal: what its `journal_rebuilt` line says. */
  rebuilt?: JournalRebuilt;
};

/** How the agents, from the working directory, reach `dir` (relative when inside it, with `/`). */
export function reachable(cwd: string, dir: string): string {
  const rel = relative(cwd, dir);
  return (rel === '' || rel.startsWith('..') || isAbsolute(rel) ? dir : rel).split(sep).join('/');
}

/** A new run, or with `--resume` the interrupted one; then both agents are launched in terminals of `size`. */
export async function openRun(
  options: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  size: Size,
  onLine?: (line: JournalLine) => void,
  relay: RelayOpen = {},
): Promise<OpenedRun> {
  // Agents a killed relevo left running (in any run of this state dir) are stopped first.
  const stateDir = stateDirPath(options.stateDir, process.cwd());
  await stopLeftovers(stateDir, (line) => process.stderr.write(`relevo-tui: ${line}\n`));
  const opened = await (options.resume === false
    ? createRun(options, version, env, size, onLine, relay)
    : resumeRun(options, options.resume, version, env, size, onLine, relay));
  try {
    recordAgents(opened.dir, agentPanes(opened.runner));
  } catch (error) {
    // Agents not recorded could not be found after a crash: the run does not start without that.
    await opened.runner.stop();
    opened.journal.close();
    opened.unlock();
    throw startError(error, stateDir);
  }
  return opened;
}

/** The runner's two panes. */
export const agentPanes = (runner: RelayRunner): Record<Role, Pane> => ({
  planner: runner.agents.planner.pane,
  builder: runner.agents.builder.pane,
});

async function memoryFor(options: Options, env: NodeJS.ProcessEnv, cwd: string): Promise<Memory | null> {
  return options.memory ? Memory.open(env, cwd) : null;
}

/** A new run from the options: its directory and journal, and both agents launched in terminals of `size`. */
export async function createRun(
  options: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  size: Size,
  /** Sees every journal line, the first (`run_started`) included. */
  onLine?: (line: JournalLine) => void,
  { site, relays, named }: RelayOpen = {},
): Promise<OpenedRun> {
  const cwd = localCwd(site?.relay);
  if (site) named?.(site.relay);
  const commanded = () => flagAgents(options, env);
  // Checked before the run directory exists: a bad flag or pane leaves nothing behind.
  let name = 'relevo';
  const backend = await backendFor(options, env, commanded, () => name);
  const { panes } = backend;
  const agents = await versioned(options, backend.agents, env);
  const stateDir = stateDirPath(options.stateDir, cwd);
  const { runId, dir, created } = atStart(stateDir, () => createRunDir(stateDir));
  name = `relevo-${runId}`;
  let unlock = () => {};
  let journal: Journal | null = null;
  try {
    unlock = lockRun(dir);
    journal = new Journal(dir);
    if (onLine) journal.onAppend(onLine);
    const relay = site?.relay;
    if (site && relays) {
      // The worktree's setup runs before any agent starts; a failure is the run's pause, journaled with its goal.
      const failed = await relays.prepare(site.relay, dir);
      if (failed !== null) {
        const started = { ...options, runId, version, cwd, agents, tmuxSocket: tmuxSocketOf(options, backend), relay: site.relay };
        journal.append(runStartedEntry(started, null));
        throw journalSetupFailed(journal, dir, failed, site.goal);
      }
    }
    const runner = await RelayRunner.create({
      ...runnerBasics(options, env, size),
      runId,
      version,
      maxRounds: options.maxRounds,
      lang: options.lang,
      cwd,
      ...(relay ? { relay } : {}),
      agents,
      journal,
      runDir: dir,
      runPath: reachable(cwd, dir),
      memory: await memoryFor(options, env, cwd),
      panes,
      tmuxSocket: tmuxSocketOf(options, backend),
    });
    return { runner, journal, dir, resumed: false, createdStateDir: created, unlock, tmuxSocket: tmuxSocketOf(options, backend) };
  } catch (error) {
    // Nothing is left locked, and a run that never journaled a line is not left at all.
    journal?.close();
    unlock();
    dropIfEmpty(dir);
    throw startError(error, stateDir);
  }
}

/** A start-up step whose failed write under the state directory is one line (`StateDirError`, exit 2). */
function atStart<T>(stateDir: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw startError(error, stateDir);
  }
}

function dropIfEmpty(dir: string): void {
  try {
    if (!existsSync(join(dir, 'events.jsonl')) || statSync(join(dir, 'events.jsonl')).size === 0)
      rmSync(dir, { recursive: true, force: true });
  } catch {
    // A state directory that cannot be written keeps what it has.
  }
}

function runnerBasics(options: Options, env: NodeJS.ProcessEnv, size: Size) {
  return {
    env,
    cols: size.cols,
    rows: size.rows,
    blockedTimeoutMs: options.blockedTimeoutMs,
    readyTimeoutMs: options.readyTimeoutMs,
    delivery: options.delivery,
  };
}

/**
 * `--resume`: the run's journal and checkpoints give back its state; the agents are started again
 * (the same commands unless flags say otherwise); STALE when the workspace moved since the last checkpoint.
 */
export async function resumeRun(
  options: Options,
  run: string,
  version: string,
  env: NodeJS.ProcessEnv,
  size: Size,
  onLine?: (line: JournalLine) => void,
  { relays, named }: RelayOpen = {},
): Promise<OpenedRun> {
  const stateDir = stateDirPath(options.stateDir, process.cwd());
  const dir = findRun(stateDir, run, options.stateDir);
  let unlock: () => void;
  try {
    unlock = lockRun(dir);
  } catch (error) {
    const fault = startError(error, stateDir);
    throw fault instanceof ConfigError ? fault : new ConfigError('--resume', (error as Error).message);
  }
  let journal: Journal | null = null;
  let runner: RelayRunner | null = null;
  try {
    // A journal lost (missing, empty, cut before run_started) is rebuilt from the checkpoints, its agents from the flags.
    const found = journalForResume(dir, options.lang);
    const was = found.rebuild === null ? found.started : null;
    // A relay's agents go on in its worktree, with a block of ports claimed again; any other run's in the current directory.
    const relay = was?.worktree && relays ? await relays.claim(was.worktree) : was?.worktree;
    const cwd = localCwd(relay);
    if (relay) named?.(relay);
    const recorded = () =>
      was === null
        ? rebuiltAgents(options, env, basename(dir))
        : { planner: resumedAgent('planner', options, env, was.planner), builder: resumedAgent('builder', options, env, was.builder) };
    // Agents that ran in tmux or Herdr panes are found there again, unless flags say otherwise.
    const where = resumedWhere(options, found);
    const backend = await backendFor(where, env, recorded, () => `relevo-${basename(dir)}`);
    const { panes } = backend;
    const agents = await versioned(where, backend.agents, env);
    const { lines, started } =
      found.rebuild === null
        ? found
        : rebuildJournal(
            dir,
            found.rebuild,
            runStartedEntry({ ...options, runId: basename(dir), version, cwd, agents, tmuxSocket: tmuxSocketOf(where, backend) }, null),
          );
    const store = new CheckpointStore(dir, started.run_id);
    const checkpoints = store.readAll();
    const latest = inOrder(checkpoints).at(-1);
    const anchor = latest?.checkpoint.anchor;
    const now = anchor ? await gitAnchor(cwd) : null;
    const stale =
      latest && anchor && anchorMoved(anchor, now) ? { latest: latest.checkpoint, now, diff: await diffStat(cwd, anchor.head) } : null;
    const basics = runnerBasics(options, env, size);
    const config = relayConfig({
      maxRounds: started.max_rounds,
      lang: started.lang,
      agents,
      panes,
      delivery: options.delivery,
      runPath: reachable(cwd, dir),
    });
    const restore = (livedOn: Record<Role, boolean> = { planner: false, builder: false }) =>
      restoreState(config, { lines, checkpoints, stale: stale?.diff ?? null, livedOn });
    const restored = restore();
    if (!restored.ok) throw new ConfigError('--resume', `run ${basename(dir)}: ${restored.error}`);
    journal = new Journal(dir, lines);
    if (onLine) for (const line of found.rebuild === null ? [] : lines) onLine(line);
    if (onLine) journal.onAppend(onLine);
    if (relay && relays && restored.state.pause?.reason === 'setup_failed') {
      // The setup that failed runs again first: the agents start only once it went well.
      const failed = await relays.prepare(relay, dir);
      if (failed !== null) throw journalSetupFailed(journal, dir, failed);
    }
    runner = await RelayRunner.create({
      ...basics,
      runId: started.run_id,
      version,
      maxRounds: started.max_rounds,
      lang: started.lang,
      cwd,
      agents,
      journal,
      runDir: dir,
      runPath: config.runPath,
      memory: await memoryFor(options, env, cwd),
      restored: restored.state,
      relive: (livedOn) => {
        const again = restore(livedOn);
        return again.ok ? again.state : restored.state;
      },
      ...(relay ? { relay } : {}),
      panes,
    });
    if (stale) {
      journal.append({
        type: 'stale',
        lane: stale.latest.from,
        checkpoint_seq: stale.latest.seq,
        head_then: stale.latest.anchor!.head,
        ...(stale.now ? { head_now: stale.now.head } : {}),
        status_changed: stale.now === null || stale.now.status_sha256 !== stale.latest.anchor!.status_sha256,
        diff_stat: stale.diff,
      });
    }
    const rebuilt = found.rebuild?.rebuilt;
    return {
      runner,
      journal,
      dir,
      resumed: true,
      createdStateDir: false,
      unlock,
      tmuxSocket: tmuxSocketOf(where, backend),
      ...(rebuilt ? { rebuilt } : {}),
    };
  } catch (error) {
    await runner?.stop();
    journal?.close();
    unlock();
    throw startError(error, stateDir);
  }
}
