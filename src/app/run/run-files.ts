import type { RelayConfig, RelayEvent, Role } from '../../protocol/index.js';
import type { AgentPane } from '../../pty/agent.js';
import { CheckpointStore } from '../store/checkpoints.js';
import { roundMemory } from '../store/memory.js';
import { StateWrites } from '../store/state-writes.js';
import type { MemoryWrites } from './memory-writes.js';
import { type RunnerOptions, relayConfig } from './run-options.js';
import { Transfers } from './transfer.js';

/** What belongs to one run of a runner: its settings, its checkpoints, its state writes and transfers (a next run gets new ones). */
export type RunFiles = {
  readonly config: RelayConfig;
  readonly store: CheckpointStore;
  readonly writes: StateWrites;
  readonly transfers: Transfers;
};

/** What the run's parts call back into: the runner. */
export type RunHooks = {
  readonly agents: Readonly<Record<Role, AgentPane>>;
  readonly memory: MemoryWrites;
  dispatch(event: RelayEvent): void;
  stale(): boolean;
};

export function runFiles(options: RunnerOptions, hooks: RunHooks): RunFiles {
  const config = relayConfig(options);
  const store = new CheckpointStore(options.runDir, options.runId, config.lang);
  const writes = new StateWrites(store, options.journal);
  const transfers = new Transfers({
    store,
    writes,
    journal: options.journal,
    agents: hooks.agents,
    readyTimeoutMs: options.readyTimeoutMs,
    dispatch: (event) => hooks.dispatch(event),
    stale: () => hooks.stale(),
    acknowledged: (m) => hooks.memory.remember(roundMemory(options.runId, m.round, m.from, m.to, m.body), m.round),
  });
  return { config, store, writes, transfers };
}
