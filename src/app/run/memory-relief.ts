/**
 * Gives memory back once relevo has gone still: one full collection shrinks the young generation
 * V8 grew for a flood (and would keep until its own reducer runs), drops compiled code and compacts
 * the old generation. Retried at most `TRIES` times; a still relevo arms no timer.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long relevo must be still (no pane output, no key) before it collects. */
export const RELIEF_MS = 15_000;
const TRIES = 3;
/** The young generation's size once shrunk (V8's smallest is 1 MB a semi-space). */
const SHRUNK_BYTES = 4 * 1024 * 1024;
/**
 * V8's flags for the one collection: flush all compiled code not running now (V8 itself flushes
 * only code unused for a long while, and never in a forced collection), and compact every page.
 * Set for that collection only; these are V8's defaults again after it.
 */
const RELIEVING = ['stress-flush-code', 'flush-baseline-code', 'compact-on-every-full-gc'];

const youngBytes = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/** V8's `gc()`, made available for a moment (node starts without --expose-gc); null where it cannot be. */
export function exposedGc(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** `gc` as a collection that gives back all it can: compiled code flushed, the old generation compacted. */
export function relievingGc(gc: () => void): () => void {
  return () => {
    setFlagsFromString(RELIEVING.map((flag) => `--${flag}`).join(' '));
    try {
      gc();
    } finally {
      setFlagsFromString(RELIEVING.map((flag) => `--no-${flag}`).join(' '));
    }
  };
}

export type ReliefOptions = {
  readonly stillMs?: number;
  readonly gc?: (() => void) | null;
  /** The young generation's size now (tests give their own). */
  readonly young?: () => number;
  readonly now?: () => number;
};

export class MemoryRelief {
  readonly #stillMs: number;
  readonly #gc: (() => void) | null;
  readonly #young: () => number;
  readonly #now: () => number;
  #last: number;
  #timer: NodeJS.Timeout | undefined;
  #tries = 0;
  #disposed = false;

  constructor(options: ReliefOptions = {}) {
    this.#stillMs = options.stillMs ?? RELIEF_MS;
    const gc = options.gc === undefined ? exposedGc() : options.gc;
    this.#gc = gc === null ? null : relievingGc(gc);
    this.#young = options.young ?? youngBytes;
    this.#now = options.now ?? (() => performance.now());
    this.#last = this.#now();
  }

  /** Something happened (output, a key): the still period starts again. Cheap: one clock read, at most one timer armed. */
  activity(): void {
    this.#last = this.#now();
    this.#tries = 0;
    if (this.#timer === undefined) this.#arm(this.#stillMs);
  }

  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    if (this.#disposed || this.#gc === null) return;
    this.#timer = setTimeout(() => this.#check(), ms);
    this.#timer.unref();
  }

  #check(): void {
    this.#timer = undefined;
    const still = this.#now() - this.#last;
    if (still < this.#stillMs) {
      this.#arm(this.#stillMs - still);
      return;
    }
    // Only after activity that grew the young generation: a collection also sets V8's memory reducer
    // waking the process often for a while, not worth it for what keys or a prompt allocate.
    if (this.#young() <= SHRUNK_BYTES) return;
    this.#gc?.();
    if (this.#young() > SHRUNK_BYTES && ++this.#tries < TRIES) this.#arm(this.#stillMs);
  }
}
