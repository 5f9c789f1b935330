/**
 * Coalesces a burst of events (a window being dragged sends a resize per step) into one call of
 * `run`: once the burst has been still `quietMs`, or `maxMs` after its first event while it goes on.
 */
export class Burst {
  #timer: NodeJS.Timeout | null = null;
  #since = 0;

  constructor(
    private readonly run: () => void,
    private readonly quietMs: number,
    private readonly maxMs: number,
  ) {}

  /** A call of `run` is waiting for the burst to end. */
  get pending(): boolean {
    return this.#timer !== null;
  }

  event(): void {
    if (this.#timer === null) this.#since = Date.now();
    else clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.#since + this.maxMs - Date.now()));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.run();
    }, wait);
  }

  cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
