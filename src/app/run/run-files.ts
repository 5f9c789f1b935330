import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointPath, type RelayConfig, type RelayEvent, type RelayState, type Role } from '../../protocol/index.js';
import type { AgentPane } from '../../pty/agent.js';
import type { Event } from '../../pty/emitter.js';
import { agentTerminal } from '../../pty/profile.js';
import { launchFor } from '../config/launch.js';
import type { HookSite } from '../replies/hook-site.js';
import { CheckpointStore } from '../store/checkpoints.js';
import { roundMemory } from '../store/memory.js';
import { StateWrites } from '../store/state-writes.js';
import type { MemoryWrites } from './memory-writes.js';
import type { PaneRequest } from './panes.js';
import { type RunnerOptions, relayConfig } from './run-options.js';
import { Transfers } from './transfer.js';

/** What belongs to one run of a runner (and what its agents are started with): its settings, its checkpoints, its state writes and transfers (a next run gets new ones). */
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
  const opener = options.panes;
  // The agents read a HANDOFF.md elsewhere (on a host): a copy of the run's goes there, at the path the message names.
  const publish =
    opener?.publish === undefined
      ? null
      : (lane: Role, seq: number, runPath: string) => {
          const file = `${checkpointPath(lane, seq)}/HANDOFF.md`;
          return opener.publish!(`${runPath}/${file}`, readFileSync(join(options.runDir, file), 'utf8'));
        };
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
    ...(publish ? { publish: (lane: Role, seq: number) => publish(lane, seq, config.runPath) } : {}),
  });
  return { config, store, writes, transfers };
}

/** What the role's agent is started with: its launch (flags, hook, role prompt), its environment (the profile's unset_env left out), its terminal. */
export function paneRequest(role: Role, options: RunnerOptions, hooks: HookSite | null): PaneRequest {
  const spec = options.agents[role];
  const launch = launchFor(role, spec, options.lang, hooks);
  const env: Record<string, string> = {};
  const unset = new Set(spec.profile.data.launch.unset_env);
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined && !unset.has(k)) env[k] = v;
  const relay = options.relay;
  const named = relay ? { RELEVO_RELAY: relay.branch, ...(relay.port ? { RELEVO_PORT: String(relay.port) } : {}) } : {};
  const extraEnv = { ...launch.env, RELEVO_RUN_ID: options.runId, ...named };
  Object.assign(env, extraEnv, { TERM: 'xterm-256color' });
  return {
    argv: launch.argv,
    env,
    extraEnv,
    // A relay on a host: its agents work in its worktree there.
    cwd: relay?.host !== undefined ? relay.path : options.cwd,
    // Never smaller than the CLI needs: a smaller pane shows a cropped window onto it.
    ...agentTerminal(spec.profile, options.cols, options.rows),
    osc: spec.profile.data.screen.osc,
  };
}

/** Resolves with the relay's state once it is done or paused (now, or at a later change). */
export function whenSettled(state: RelayState, changes: Event<RelayState>): Promise<RelayState> {
  const over = (s: RelayState) => s.phase === 'done' || s.phase === 'paused';
  if (over(state)) return Promise.resolve(state);
  return new Promise((resolve) => {
    const sub = changes((s) => {
      if (!over(s)) return;
      sub.dispose();
      resolve(s);
    });
  });
}
