import type { Journal } from '../store/journal.js';
import type { Memory } from '../store/memory.js';

/** What the run hands to mnemosyne (with `--memory`): each store journaled, none waited on by the relay. */
export class MemoryWrites {
  /** Stores still running: waited for on stop. */
  readonly #running = new Set<Promise<void>>();
  #journalClosed = false;

  constructor(
    private readonly memory: Memory | null | undefined,
    private readonly journal: Journal,
    private readonly fault: (error: unknown) => void,
  ) {}

  /** `--memory` was asked for and mnemosyne is not installed: the relay goes on without it. */
  get blocked(): boolean {
    return this.memory?.status.state === 'blocked';
  }

  /** Stores `text` in mnemosyne, journaling the outcome; the relay never waits on it. */
  remember(text: string, round?: number): void {
    const memory = this.memory;
    if (memory?.status.state !== 'ready') return;
    const write = memory
      .store(text)
      .then((r) => {
        if (this.#journalClosed) return;
        const at = round !== undefined ? { round } : {};
        this.journal.append(
          r.ok
            ? { type: 'memory', state: 'stored', ...at, ...(r.id ? { id: r.id.slice(0, 240) } : {}) }
            : { type: 'memory', state: 'failed', ...at, detail: r.detail.slice(0, 240) },
        );
      })
      .catch(this.fault);
    this.#running.add(write);
    void write.finally(() => this.#running.delete(write));
  }

  /** Waits for the stores still running; outcomes after that are no longer journaled. */
  async close(): Promise<void> {
    await Promise.all(this.#running);
    this.#journalClosed = true;
  }
}
