import type { RelayEvent, RelayState } from '../../protocol/index.js';
import type { Event } from '../../pty/emitter.js';

/** setTimeout's longest wait; a reset further off is waited for in steps. */
const LONGEST_MS = 2_147_483_647;

/**
 * Goes on at a usage limit's reset: while the relay is paused `rate_limited` with a `resumeAt`, one
 * timer (not keeping the process alive) dispatches `limit-reset` then. Any other state (the person
 * resumed, another pause) clears it, and so does `dispose` when the run stops.
 */
export class LimitClock {
  #timer: NodeJS.Timeout | undefined;
  #at: number | null = null;
  readonly #sub: { dispose(): void };

  constructor(
    state: RelayState,
    changes: Event<RelayState>,
    private readonly dispatch: (event: RelayEvent) => void,
    private readonly clock: () => number = Date.now,
  ) {
    this.#sub = changes((s) => this.#follow(s));
    this.#follow(state);
  }

  /** When the clock will go on by itself (epoch ms), or null. */
  get due(): number | null {
    return this.#at;
  }

  #follow(state: RelayState): void {
    const p = state.pause;
    const at = state.phase === 'paused' && p?.reason === 'rate_limited' && p.resumeAt !== undefined ? p.resumeAt : null;
    if (at === this.#at) return;
    this.#clear();
    this.#at = at;
    if (at !== null) this.#arm(at);
  }

  #arm(at: number): void {
    const wait = Math.max(0, at - this.clock());
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        if (wait > LONGEST_MS) return this.#arm(at);
        this.dispatch({ type: 'limit-reset' });
      },
      Math.min(wait, LONGEST_MS),
    ).unref();
  }

  #clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  dispose(): void {
    this.#clear();
    this.#at = null;
    this.#sub.dispose();
  }
}
