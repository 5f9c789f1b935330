import type { AgentState } from '../protocol/index.js';

export type TurnSignal = 'ended' | 'blocked' | 'unblocked';

/**
 * Decides when an agent's turn is over, apart from detection and with the clock passed in:
 * after `begin`, the agent must show activity (a busy state, or any output when busy is not
 * required), then be idle with the screen unchanged for `quietMs`. Blocked never ends a turn.
 */
export class TurnTracker {
  #active = false;
  #activity = false;
  #blocked = false;
  #beganVersion = 0;

  constructor(
    private readonly quietMs: number,
    private readonly requireBusy: boolean,
  ) {}

  get active(): boolean {
    return this.#active;
  }

  get blocked(): boolean {
    return this.#blocked;
  }

  /** A message was submitted: a turn starts. `version` is the screen's version at that moment. */
  begin(version: number): void {
    this.#active = true;
    this.#activity = false;
    this.#blocked = false;
    this.#beganVersion = version;
  }

  cancel(): void {
    this.#active = false;
    this.#blocked = false;
  }

  /**
   * Feed the current state. `quietFor` is how long the screen has been unchanged.
   * Returns a signal, and `recheckIn` ms when only the quiet window is missing.
   */
  observe(state: AgentState, version: number, quietFor: number): { signal: TurnSignal | null; recheckIn: number | null } {
    if (!this.#active) return { signal: null, recheckIn: null };
    if (state === 'blocked') {
      this.#activity = true;
      if (this.#blocked) return { signal: null, recheckIn: null };
      this.#blocked = true;
      return { signal: 'blocked', recheckIn: null };
    }
    const wasBlocked = this.#blocked;
    this.#blocked = false;
    if (state === 'busy' || (!this.requireBusy && version !== this.#beganVersion)) this.#activity = true;
    if (state === 'idle' && this.#activity) {
      if (quietFor >= this.quietMs) {
        this.#active = false;
        return { signal: 'ended', recheckIn: null };
      }
      return { signal: wasBlocked ? 'unblocked' : null, recheckIn: this.quietMs - quietFor };
    }
    return { signal: wasBlocked ? 'unblocked' : null, recheckIn: null };
  }
}
