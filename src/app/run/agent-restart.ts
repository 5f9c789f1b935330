import { type RelayEvent, ROLES, type Role } from '../../protocol/index.js';
import { AgentPane } from '../../pty/agent.js';
import type { Pane } from '../../pty/pane.js';
import type { Profile } from '../../pty/profile.js';
import type { HookSlot } from '../replies/reply-reader.js';
import type { AgentWatch } from './agent-watch.js';
import { recordAgents } from './leftovers.js';
import type { PaneOpener, PaneRequest } from './panes.js';

/** How a restart went: the new agent's pid, or why relevo cannot start that agent again. */
export type Restart =
  | { readonly ok: true; readonly pid?: number }
  | { readonly ok: false; readonly why: 'running' }
  /** Its pane is one relevo cannot start an agent in again (a tmux or Herdr pane it attached to): `where` it ran. */
  | { readonly ok: false; readonly why: 'not_owned'; readonly where: string };

/** What restarting an agent needs of the run: the one agents record the relay and the TUI share. */
export type RestartContext = {
  readonly agents: Record<Role, AgentPane>;
  readonly opener: PaneOpener;
  /** The request the agent was first started with (same command, launch flags, environment). */
  readonly requests: Readonly<Record<Role, PaneRequest>>;
  readonly profiles: Readonly<Record<Role, Profile>>;
  readonly watch: AgentWatch;
  readonly hooks: Readonly<Record<Role, HookSlot>>;
  /** The run's directory: its lock records the agents' pids for a later leftover sweep. */
  readonly runDir: string;
  dispatch(event: RelayEvent): void;
  fault(error: unknown): void;
  /** The agents record holds a new AgentPane for `role`: views re-subscribe. */
  replaced(role: Role): void;
};

/** Exited agents whose new process is being started. */
const replacing = new WeakSet<AgentPane>();

/**
 * Starts an exited agent again in a new pane (relevo's own terminal, or a new one on the relay's host)
 * with the request it was first started with, puts it in the shared agents record (watched like the first one, its hook slot cleared, its
 * pid in the lock), then tells the relay (`agent-restarted`), which sends what the agent needs.
 */
export async function restartAgent(ctx: RestartContext, role: Role): Promise<Restart> {
  const old = ctx.agents[role];
  if (old.pane.exited === null || replacing.has(old)) return { ok: false, why: 'running' };
  const reopen = ctx.opener.reopen;
  if (reopen === undefined) return { ok: false, why: 'not_owned', where: old.pane.where };
  // Once: a second `C-] r` while the new process starts does not start another.
  replacing.add(old);
  let pane: Pane;
  try {
    pane = await reopen(role, ctx.requests[role]);
  } catch (error) {
    replacing.delete(old);
    throw error;
  }
  ctx.watch.stop(role);
  const agent = new AgentPane(role, pane, ctx.profiles[role]);
  ctx.agents[role] = agent;
  ctx.watch.watch(role, agent);
  // A new conversation: the last turn's hook report and thread belong to the process that died.
  Object.assign(ctx.hooks[role], { report: null, since: 0, sent: null, thread: null });
  ctx.replaced(role);
  old.dispose();
  old.pane.dispose();
  const pid = pane.owned ? pane.pid : undefined;
  try {
    recordAgents(ctx.runDir, panesOf(ctx.agents));
  } catch (error) {
    // An agent the lock does not name could not be found after a crash: the relay pauses with why.
    ctx.fault(error);
  }
  ctx.dispatch({ type: 'agent-restarted', role, ...(pid !== undefined ? { pid } : { pane: pane.where }) });
  return { ok: true, ...(pid !== undefined ? { pid } : {}) };
}

const panesOf = (agents: Readonly<Record<Role, AgentPane>>): Record<Role, Pane> =>
  Object.fromEntries(ROLES.map((role) => [role, agents[role].pane])) as Record<Role, Pane>;
