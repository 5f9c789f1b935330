// The timers of the sim's current turn: all cancelled together when the turn stops.
export class TurnTimers {
  readonly #timers = new Set<NodeJS.Timeout>();

  /** `action` in `ms`, unless the turn is cancelled first. */
  after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      action();
    }, ms);
    this.#timers.add(timer);
  }

  cancel(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
