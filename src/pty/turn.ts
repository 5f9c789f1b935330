import type { AgentState } from '../protocol/index.js';

export type TurnSignal = 'ended' | 'blocked' | 'limited' | 'unblocked';

/**
 * Decides when an agent's turn is over, apart from detection and with the clock passed in:
 * after `begin`, the agent must show activity (a busy state, or any output when busy is not
 * required), then be idle with the screen unchanged for `quietMs`, or only `evidenceQuietMs` once
 * the agent itself said the turn is over (its hook reported, or an `ends_turn` rule matched); a
 * final report (the hook's `ends_turn`) ends it at the next look, whatever the screen shows.
 * Blocked (a prompt waits on the person) and limited (a usage limit) never end a turn.
 */
export class TurnTracker {
  #active = false;
  #activity = false;
  #held: 'blocked' | 'limited' | null = null;
  /** The agent was seen busy in this turn: a limit shown before that is the last turn's screen, not this one's. */
  #busySeen = false;
  #beganVersion = 0;
  #evidence = false;
  #final = false;

  constructor(
    private readonly quietMs: number,
    private readonly requireBusy: boolean,
    private readonly evidenceQuietMs: number = quietMs,
  ) {}

  get active(): boolean {
    return this.#active;
  }

  get blocked(): boolean {
    return this.#held !== null;
  }

  /** A message was submitted: a turn starts. `version` is the screen's version at that moment; `taken`: it started before (activity seen). */
  begin(version: number, taken = false): void {
    this.#active = true;
    this.#activity = taken;
    this.#held = null;
    this.#busySeen = taken;
    this.#evidence = false;
    this.#final = false;
    this.#beganVersion = version;
  }

  /** The agent's own end-of-turn report arrived for this turn: the short quiet is then enough, or none when `final`. */
  evidence(final = false): void {
    if (!this.#active) return;
    this.#evidence = true;
    this.#final ||= final;
  }

  cancel(): void {
    this.#active = false;
    this.#held = null;
  }

  /**
   * Feed the current state. `quietFor` is how long the screen has been unchanged; `saysDone` that
   * the rule that decided the state is the agent's word that its turn is over.
   * Returns a signal, and `recheckIn` ms when only the quiet window is missing.
   */
  observe(state: AgentState, version: number, quietFor: number, saysDone = false): { signal: TurnSignal | null; recheckIn: number | null } {
    if (!this.#active) return { signal: null, recheckIn: null };
    if (state === 'busy') this.#busySeen = true;
    if (state === 'limited' && !this.#busySeen) return { signal: null, recheckIn: null };
    if (state === 'blocked' || state === 'limited') {
      this.#activity = true;
      if (this.#held === state) return { signal: null, recheckIn: null };
      this.#held = state;
      return { signal: state, recheckIn: null };
    }
    const wasBlocked = this.#held !== null;
    this.#held = null;
    if (this.#final) {
      this.#active = false;
      return { signal: 'ended', recheckIn: null };
    }
    if (state === 'busy' || (!this.requireBusy && version !== this.#beganVersion)) this.#activity = true;
    if (state === 'idle' && this.#activity) {
      const quietMs = this.#evidence || saysDone ? Math.min(this.evidenceQuietMs, this.quietMs) : this.quietMs;
      if (quietFor >= quietMs) {
        this.#active = false;
        return { signal: 'ended', recheckIn: null };
      }
      return { signal: wasBlocked ? 'unblocked' : null, recheckIn: quietMs - quietFor };
    }
    return { signal: wasBlocked ? 'unblocked' : null, recheckIn: null };
  }
}
