import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { startError } from '../faults/fault.js';
import { createRunDir, type Journal } from '../store/journal.js';
import { lockRun } from '../store/locks.js';
import { recordAgents } from './leftovers.js';
import type { RelayRunner } from './runner.js';
import { agentPanes, reachable } from './setup.js';

/** The run the TUI is on: its directory and the release of its lock. */
export type CurrentRun = { readonly dir: string; readonly unlock: () => void };

/**
 * A next goal after `done`: a new run (id, directory, lock) that follows `current`, with the same
 * agents and their conversations; the journal moves to it. The run before keeps its journal and
 * checkpoints as they were. A write that fails leaves the TUI on the run before, with one line.
 */
export function followRun(runner: RelayRunner, journal: Journal, current: CurrentRun, cwd: string): CurrentRun {
  const stateDir = dirname(dirname(current.dir));
  let next: { runId: string; dir: string } | null = null;
  let unlock = () => {};
  try {
    next = createRunDir(stateDir);
    unlock = lockRun(next.dir);
    journal.moveTo(next.dir);
  } catch (error) {
    unlock();
    if (next !== null) rmSync(next.dir, { recursive: true, force: true });
    throw startError(error, stateDir);
  }
  runner.follow({ runId: next.runId, runDir: next.dir, runPath: reachable(cwd, next.dir) }, agentPanes(runner));
  recordAgents(next.dir, agentPanes(runner));
  current.unlock();
  return { dir: next.dir, unlock };
}
