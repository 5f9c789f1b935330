import { randomBytes } from 'node:crypto';
import { type JournalEntry, ROLES, type Role } from '../../protocol/index.js';
import type { Pane } from '../../pty/pane.js';
import { xtermFallbacks } from '../../pty/xterm-internals.js';
import type { AgentSpec } from '../config/launch.js';
import { untestedEntry } from '../config/versions.js';
import { inlineRolePrompt, type RunnerOptions } from './run-options.js';

/** The link nonce: it stays in the journal, never in what an agent sees. */
const linkNonce = () => randomBytes(16).toString('hex');

/** An agent as the journal records it: command, profile, CLI release, and the pane relevo attached to (none for its own terminal). */
function agentInfo(spec: AgentSpec, pane: Pane | null, inline?: boolean) {
  const { argv, profile, cli } = spec;
  return {
    command: [...argv],
    profile: profile.data.id,
    ...(pane === null || pane.owned ? {} : { pane: pane.where }),
    ...(cli?.status === 'found' ? { cli_version: cli.version } : {}),
    ...(inline === undefined ? {} : { role_prompt: inline ? ('message' as const) : ('launch' as const) }),
  };
}

type RunStarted = Extract<JournalEntry, { type: 'run_started' }>;

/**
 * `run_started`: the run's id and settings, its agents (in `panes`; none yet when `--resume` rebuilds
 * a lost journal from the flags given to it, as a new run takes them), this relevo and a new link nonce.
 */
export function runStartedEntry(
  o: Pick<RunnerOptions, 'runId' | 'version' | 'cwd' | 'maxRounds' | 'lang' | 'agents' | 'tmuxSocket' | 'relay' | 'panes'>,
  panes: Readonly<Record<Role, Pane>> | null,
): RunStarted {
  const inline = inlineRolePrompt(o);
  return {
    type: 'run_started',
    run_id: o.runId,
    version: o.version,
    nonce: linkNonce(),
    cwd: o.cwd,
    max_rounds: o.maxRounds,
    lang: o.lang,
    planner: agentInfo(o.agents.planner, panes?.planner ?? null, inline.planner),
    builder: agentInfo(o.agents.builder, panes?.builder ?? null, inline.builder),
    ...(o.tmuxSocket ? { tmux_socket: o.tmuxSocket } : {}),
    ...(o.relay ? { worktree: o.relay } : {}),
  };
}

/**
 * The run's first journal lines, before any agent is watched: `run_started` (with the link nonce)
 * or `run_resumed` (with what was pending), then each agent whose CLI release is untested, then the
 * state of mnemosyne with `--memory`. A line that cannot be written throws: the run does not start.
 */
export function journalRunStart(
  options: RunnerOptions,
  panes: Readonly<Record<Role, Pane>>,
  hookSocket: string | null,
  /** The run this one follows (a next goal after `done`, same agents). */
  follows?: string,
): void {
  const { journal } = options;
  const socket = hookSocket !== null ? { hook_socket: hookSocket } : {};
  if (options.restored) {
    const p = options.restored.pending;
    journal.append({
      type: 'run_resumed',
      version: options.version,
      planner: agentInfo(options.agents.planner, panes.planner),
      builder: agentInfo(options.agents.builder, panes.builder),
      ...(p ? { pending_kind: p.kind, pending_to: p.to, pending_round: p.round } : {}),
      ...socket,
    });
  } else {
    journal.append({ ...runStartedEntry(options, panes), ...socket, ...(follows !== undefined ? { follows } : {}) });
  }
  for (const role of ROLES) {
    const entry = untestedEntry(role, options.agents[role]);
    if (entry) journal.append(entry);
  }
  // The panes' screens have started: an xterm internal they found missing is journaled with its fallback.
  for (const { internal, found, fallback } of xtermFallbacks()) journal.append({ type: 'xterm_fallback', internal, found, fallback });
  const memory = options.memory;
  if (memory) {
    const st = memory.status;
    journal.append(
      st.state === 'ready'
        ? { type: 'memory', state: 'ready', bank: st.bank }
        : { type: 'memory', state: 'blocked', detail: st.detail.slice(0, 240) },
    );
  }
}
