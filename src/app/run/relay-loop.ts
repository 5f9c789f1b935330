import type { Effect, RelayEvent } from '../../protocol/index.js';
import { faultEvent } from '../faults/fault.js';

/** What the loop drives: the machine's step, the effects' performer, and who hears the outcome. */
export type LoopHooks = {
  /** Advances the relay state by `event`; returns the effects to perform, in order. */
  step(event: RelayEvent): readonly Effect[];
  perform(effect: Effect): void;
  /** A checkpoint effect that was not performed because an earlier effect failed: written later. */
  deferred(effect: Extract<Effect, { type: 'checkpoint' }>): void;
  /** The queue is empty again: the state is final for now. */
  settled(): void;
};

/**
 * Run-to-completion for the relay: an event raised while another's effects run (a refused ack, a
 * fault) is queued and handled after them, never inside them. An effect that fails stops the rest
 * of its event (nothing is delivered after a failed write) and pauses the relay with the reason.
 */
export class RelayLoop {
  readonly #queue: RelayEvent[] = [];
  #draining = false;

  constructor(private readonly hooks: LoopHooks) {}

  push(event: RelayEvent): void {
    this.#queue.push(event);
    if (this.#draining) return;
    this.#draining = true;
    try {
      this.#drain();
    } finally {
      this.#draining = false;
    }
  }

  #drain(): void {
    let listenersFailed = false;
    for (;;) {
      for (let event = this.#queue.shift(); event !== undefined; event = this.#queue.shift()) this.#handle(event);
      try {
        this.hooks.settled();
      } catch (error) {
        // A listener failed: the relay pauses once for it.
        if (listenersFailed) return;
        listenersFailed = true;
        this.#queue.push(faultEvent(error));
        continue;
      }
      if (this.#queue.length === 0) return;
    }
  }

  #handle(event: RelayEvent): void {
    let effects: readonly Effect[];
    try {
      effects = this.hooks.step(event);
    } catch (error) {
      if (event.type !== 'fault') this.#queue.unshift(faultEvent(error));
      return;
    }
    for (const [i, effect] of effects.entries()) {
      try {
        this.hooks.perform(effect);
      } catch (error) {
        // A fault's own pause that cannot be journaled lives in the state (memory) only.
        if (event.type === 'fault') continue;
        const rest = effects.slice(i + 1);
        for (const later of rest) if (later.type === 'checkpoint') this.hooks.deferred(later);
        const stopped = [effect, ...rest].find((e): e is Extract<Effect, { type: 'deliver' }> => e.type === 'deliver');
        this.#queue.unshift(faultEvent(error, stopped?.message.to));
        return;
      }
    }
  }
}
