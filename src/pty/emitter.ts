export type Disposable = { dispose(): void };
export type Listener<T> = (value: T) => void;
/** Subscribing to an event: returns the handle that unsubscribes. */
export type Event<T> = (listener: Listener<T>) => Disposable;

/** A typed event source: `event(listener)` subscribes and returns the unsubscribe handle. */
export class Emitter<T> {
  readonly #listeners = new Set<Listener<T>>();

  readonly event = (listener: Listener<T>): Disposable => {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.#listeners]) listener(value);
  }

  dispose(): void {
    this.#listeners.clear();
  }
}
