import { type RelayEvent, type Role, resetTime } from '../../protocol/index.js';
import type { AgentPane, TurnEnd } from '../../pty/agent.js';
import { MemoryRelief } from './memory-relief.js';

/** What watching an agent needs of the run. */
export type WatchContext = {
  dispatch(event: RelayEvent): void;
  /** A turn began: relevo typed `sent` (null when the person started it). */
  turnBegan(role: Role, sent: string | null): void;
  /** The screen saw the turn end; the run reads the reply from the most exact source. */
  turnEnded(role: Role, screen: TurnEnd): void;
  /** relevo is stopping: an agent it ends is not an agent that died. */
  stopping(): boolean;
  /** How long an agent may stay blocked before the relay pauses. */
  readonly blockedTimeoutMs: number;
};

/**
 * Turns what each agent's pane reports (turns, blocked prompts, usage limits, exits) into relay events, and times
 * how long an agent stays blocked. Its panes' output also tells when relevo has gone still, and
 * can give memory back (memory-relief.ts).
 */
export class AgentWatch {
  readonly #blockedTimers = new Map<Role, NodeJS.Timeout>();
  readonly #relief = new MemoryRelief();

  constructor(private readonly run: WatchContext) {}

  watch(role: Role, agent: AgentPane): void {
    const run = this.run;
    agent.pane.onUpdate(() => this.#relief.activity());
    agent.onTurnBegan(({ sent }) => run.turnBegan(role, sent));
    agent.onTurnEnded((end) => run.turnEnded(role, end));
    agent.onBlocked((detail) => {
      run.dispatch({ type: 'agent-blocked', role, detail });
      this.#clearBlocked(role);
      this.#blockedTimers.set(
        role,
        setTimeout(() => run.dispatch({ type: 'blocked-timeout', role }), run.blockedTimeoutMs),
      );
    });
    // A usage limit pauses the relay until its reset (limit-clock.ts goes on then); the pause names the CLI's profile.
    agent.onLimited(({ rule, reset }) => {
      this.#clearBlocked(role);
      const resetAt = reset === undefined ? null : resetTime(reset, Date.now());
      const detail = reset === undefined ? (rule ?? 'limited') : `${rule}: ${reset}`;
      run.dispatch({ type: 'rate-limited', role, profile: agent.profile.data.id, resetAt, detail });
    });
    agent.onUnblocked(() => {
      this.#clearBlocked(role);
      run.dispatch({ type: 'agent-unblocked', role });
    });
    agent.onExit(({ exitCode, signal, reason }) => {
      this.#clearBlocked(role);
      const why = reason !== undefined ? { reason } : {};
      if (!run.stopping()) run.dispatch({ type: 'agent-exited', role, exitCode, ...(signal ? { signal } : {}), ...why });
    });
  }

  /** No blocked timer is left running (nor the memory relief's). */
  stop(role: Role): void {
    this.#clearBlocked(role);
    this.#relief.dispose();
  }

  #clearBlocked(role: Role): void {
    const timer = this.#blockedTimers.get(role);
    if (timer !== undefined) clearTimeout(timer);
    this.#blockedTimers.delete(role);
  }
}
