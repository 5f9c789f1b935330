import {
  DEFAULT_DELIVERY,
  type DeliveryPolicy,
  type Lang,
  type RelayConfig,
  type RelayInfo,
  type RelayState,
  type Role,
} from '../../protocol/index.js';
import type { AgentSpec } from '../config/launch.js';
import type { Journal } from '../store/journal.js';
import type { Memory } from '../store/memory.js';
import type { PaneOpener } from './panes.js';

/** Everything a run is started (or picked up) with: its settings, its agents, its journal and run directory. */
export type RunnerOptions = {
  readonly runId: string;
  readonly version: string;
  readonly maxRounds: number;
  readonly lang: Lang;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols: number;
  readonly rows: number;
  readonly blockedTimeoutMs: number;
  readonly readyTimeoutMs: number;
  readonly agents: Readonly<Record<Role, AgentSpec>>;
  readonly journal: Journal;
  /** The run's directory, and the same as the agents reach it from `cwd` (for file delivery). */
  readonly runDir: string;
  readonly runPath: string;
  readonly delivery?: DeliveryPolicy;
  /** mnemosyne, with `--memory`. */
  readonly memory?: Memory | null;
  /** A run picked up with `--resume`: its restored state (paused; `resumeRun()` goes on). */
  readonly restored?: RelayState;
  /** The restored state again for agents that lived on while relevo was away (`PaneOpener.livedOn`). */
  readonly relive?: (livedOn: Readonly<Record<Role, boolean>>) => RelayState;
  /** Where the agents run (default: relevo's own pseudo-terminals). */
  readonly panes?: PaneOpener;
  /** Journaled, so `--resume` finds tmux panes again. */
  readonly tmuxSocket?: string | null;
  /** A relay of several: journaled in `run_started`, and named to its agents (RELEVO_RELAY, RELEVO_PORT). */
  readonly relay?: RelayInfo;
};

type ConfigInputs = Pick<RunnerOptions, 'maxRounds' | 'lang' | 'agents' | 'delivery' | 'runPath' | 'panes'>;

/** Per role: the role prompt goes in the first message (an agent in a pane relevo attached to, or launched without a flag for it). */
export function inlineRolePrompt(o: Pick<RunnerOptions, 'agents' | 'panes'>): Record<Role, boolean> {
  const inline = (role: Role) => {
    const { launch } = o.agents[role].profile.data;
    return o.panes?.attached === true || (launch.role_prompt_args === undefined && launch.role_prompt_env === undefined);
  };
  return { planner: inline('planner'), builder: inline('builder') };
}

/** The machine's settings for a run. */
export function relayConfig(o: ConfigInputs): RelayConfig {
  return {
    maxRounds: o.maxRounds,
    lang: o.lang,
    inlineRolePrompt: inlineRolePrompt(o),
    delivery: o.delivery ?? DEFAULT_DELIVERY,
    runPath: o.runPath,
  };
}

/** A resumed run whose agents (some) lived on: its state tells them nothing they know already. */
export function relived(options: RunnerOptions, opener: PaneOpener): RunnerOptions {
  const livedOn = { planner: opener.livedOn?.('planner') ?? false, builder: opener.livedOn?.('builder') ?? false };
  if (options.restored === undefined || options.relive === undefined || !(livedOn.planner || livedOn.builder)) return options;
  return { ...options, restored: options.relive(livedOn) };
}
