/** A run that is one relay of several: its worktree, its name and ports, and the setup run before its agents start. */
import type { RelayInfo } from '../../protocol/index.js';
import type { Journal } from '../store/journal.js';
import { keepGoal } from '../store/rebuild.js';

/** What the relays' room (app/relays) does for a run of one of them; app/run only calls it. */
export type RelayHooks = {
  /** The relay with a block of ports claimed for this process: the recorded one when it is free. */
  claim(relay: RelayInfo): Promise<RelayInfo>;
  /** Runs the worktree's setup, its output in `runDir`: null when it went well, else the line that says why not. */
  prepare(relay: RelayInfo, runDir: string): Promise<string | null>;
};

/** A new relay's run: where and who it is, and its goal (journaled with a failed setup, so `--resume` has it). */
export type RelaySite = { readonly relay: RelayInfo; readonly goal: string };

/** The relay's setup failed: its run is journaled paused `setup_failed`, no agent was started. */
export class SetupFailed extends Error {
  constructor(
    readonly runDir: string,
    readonly journalPath: string,
    readonly detail: string,
  ) {
    super(`setup failed: ${detail}`);
    this.name = 'SetupFailed';
  }
}

const DETAIL_MAX = 240;

/** Journals the failed setup as the run's pause; `goal` with the goal too, for a run that never had one. */
export function journalSetupFailed(journal: Journal, runDir: string, detail: string, goal?: string): SetupFailed {
  if (goal !== undefined) {
    keepGoal(runDir, goal);
    journal.append({ type: 'goal', text: goal });
  }
  const line = detail.slice(0, DETAIL_MAX);
  journal.append({ type: 'paused', reason: 'setup_failed', detail: line });
  return new SetupFailed(runDir, journal.path, line);
}
