import { type HostOutOfReach, hostOfPane, ROLES, type Role } from '../../protocol/index.js';
import type { AgentPane } from '../../pty/agent.js';
import { Emitter, type Event } from '../../pty/emitter.js';
import type { Journal } from '../store/journal.js';

export type ReachWatched = {
  readonly agents: Readonly<Record<Role, AgentPane>>;
  /** An exited agent runs again: `agents[role]` is a new AgentPane. */
  readonly onAgentRestarted?: Event<Role>;
};

/**
 * Whether the agents' host answers: out of reach while any agent's pane is (its ssh failed), back
 * once none is. Journaled once per change (`unreachable`, `reachable`; headless prints them), and
 * shown by the band and the dashboard with a count-down to the next look. Never acts on the relay:
 * the agents keep working on the host meanwhile.
 */
export class Reachability {
  readonly #onChange = new Emitter<HostOutOfReach | null>();
  readonly onChange = this.#onChange.event;
  #out: { host: string; since: number } | null = null;
  #disposed = false;

  constructor(
    private readonly runner: ReachWatched,
    private readonly journal: Pick<Journal, 'append'>,
    private readonly clock: () => number = Date.now,
  ) {
    const watch = (role: Role) => runner.agents[role].pane.onUpdate(() => this.#check());
    for (const role of ROLES) watch(role);
    runner.onAgentRestarted?.((role) => {
      watch(role);
      this.#check();
    });
    this.#check();
  }

  /** The host out of reach now, with the soonest next look of its panes; null while it answers. */
  get current(): HostOutOfReach | null {
    if (this.#out === null) return null;
    const due = ROLES.flatMap((role) => {
      const pane = this.runner.agents[role].pane;
      return pane.unreachable ? [pane.retryAt ?? null] : [];
    });
    const times = due.filter((t): t is number => t !== null);
    return { host: this.#out.host, retryAt: times.length > 0 ? Math.min(...times) : null };
  }

  #check(): void {
    if (this.#disposed) return;
    const panes = ROLES.map((role) => this.runner.agents[role].pane).filter((pane) => pane.exited === null && pane.unreachable);
    const first = panes[0];
    if (first !== undefined && this.#out === null) {
      const host = hostOfPane(first.where) ?? first.where;
      this.#out = { host, since: this.clock() };
      this.journal.append({ type: 'unreachable', host, detail: (first.unreachable ?? '').slice(0, 240) });
      this.#onChange.fire(this.current);
    } else if (first === undefined && this.#out !== null) {
      const { host, since } = this.#out;
      this.#out = null;
      this.journal.append({ type: 'reachable', host, for_ms: Math.max(0, Math.round(this.clock() - since)) });
      this.#onChange.fire(null);
    }
  }

  dispose(): void {
    this.#disposed = true;
    this.#onChange.dispose();
  }
}
