import { formatDuration, type RelayState, ROLES, type Role, type Stall, StallWatcher } from '../../protocol/index.js';
import type { AgentPane } from '../../pty/agent.js';
import { Emitter, type Event } from '../../pty/emitter.js';
import type { Journal } from '../store/journal.js';

/** Per role, the line the status band shows for it (a held delivery, a stall), or null. */
export type Notes = Readonly<Record<Role, string | null>>;

export type Watched = {
  readonly agents: Readonly<Record<Role, AgentPane>>;
  readonly state: RelayState;
  readonly onChange: Event<RelayState>;
  /** An exited agent runs again: `agents[role]` is a new AgentPane. */
  readonly onAgentRestarted?: Event<Role>;
};

export const heldNote = (role: Role, round: number) => `${role}: your draft holds round ${round} — send it or clear it`;
export const stallNote = (s: Stall) =>
  s.why === 'busy'
    ? `${s.role}: stalled — busy ${formatDuration(s.forMs)} with no turn end`
    : `${s.role}: stalled — flapping busy/idle for ${formatDuration(s.forMs)} with no turn end`;

/**
 * What needs the person: a delivery held by their draft, an agent that never ends its turn.
 * Journaled once each (`delivery_held`; `stalled`, with how detection read the screen; the TUI turns
 * them into toasts and one OSC 9), and kept as band notes until the delivery goes on or the turn
 * ends. Never acts on the relay.
 */
export class Attention {
  readonly #onChange = new Emitter<Notes>();
  readonly onChange = this.#onChange.event;
  #held: Record<Role, string | null> = { planner: null, builder: null };
  #stalled: Record<Role, string | null> = { planner: null, builder: null };
  /** Armed only while a turn could stall, for the moment it would: idle agents leave no timer. */
  #timer: NodeJS.Timeout | undefined;

  constructor(runner: Watched, journal: Pick<Journal, 'append'>, stallAfterMs: number, clock: () => number = Date.now) {
    const stalls = new StallWatcher({ stallAfterMs }, (role, stall) => {
      // What the profile's rules make of the screen then: a stall is most often a rule that no longer fits the CLI.
      if (stall)
        journal.append({
          type: 'stalled',
          role,
          why: stall.why,
          for_ms: Math.round(stall.forMs),
          detection: runner.agents[role].explain(),
        });
      this.#set('stalled', role, stall ? stallNote(stall) : null);
    });
    const arm = () => {
      clearTimeout(this.#timer);
      const wait = stalls.nextCheck(clock());
      this.#timer = wait === null ? undefined : setTimeout(tick, wait).unref();
    };
    const tick = () => {
      stalls.tick(clock());
      arm();
    };
    const watch = (role: Role) => {
      const agent = runner.agents[role];
      agent.hold.onChange((on) => {
        if (!on) return this.#set('held', role, null);
        // Paused already: the held delivery gives up at once (the message stays pending).
        if (runner.state.phase === 'paused') agent.hold.withdraw();
        const round = runner.state.pending?.round ?? runner.state.round;
        journal.append({ type: 'delivery_held', role, round });
        this.#set('held', role, heldNote(role, round));
      });
      agent.onTurnBegan(() => {
        stalls.turnBegan(role, clock());
        arm();
      });
      agent.onTurnEnded(() => {
        stalls.turnEnded(role);
        arm();
      });
      agent.onState((state) => {
        stalls.state(role, state, clock());
        arm();
      });
    };
    for (const role of ROLES) watch(role);
    runner.onAgentRestarted?.(watch);
    runner.onChange((state) => {
      if (state.phase === 'paused') for (const role of ROLES) runner.agents[role].hold.withdraw();
    });
  }

  get notes(): Notes {
    return { planner: this.#held.planner ?? this.#stalled.planner, builder: this.#held.builder ?? this.#stalled.builder };
  }

  /** What waits on the person now, the most pressing first: a draft holding a delivery, else a stalled turn. */
  get waiting(): 'draft' | 'stalled' | null {
    if (this.#held.planner !== null || this.#held.builder !== null) return 'draft';
    return this.#stalled.planner !== null || this.#stalled.builder !== null ? 'stalled' : null;
  }

  #set(kind: 'held' | 'stalled', role: Role, note: string | null): void {
    const map = kind === 'held' ? this.#held : this.#stalled;
    if (map[role] === note) return;
    map[role] = note;
    this.#onChange.fire(this.notes);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#onChange.dispose();
  }
}
