import { readFileSync, writeFileSync } from 'node:fs';

/** The most goals kept. */
const KEEP = 100;

/**
 * The goals given to the goal prompt, oldest first, kept in the state directory
 * (`goal-history.json`) so ↑ finds them in the next run too. A convenience: a file that cannot be
 * read starts an empty history, one that cannot be written is left as it was.
 */
export class GoalHistory {
  #goals: readonly string[] = [];

  constructor(readonly file: string) {
    try {
      this.#goals = (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).filter((g): g is string => typeof g === 'string');
    } catch {
      /* no history yet */
    }
  }

  get goals(): readonly string[] {
    return this.#goals;
  }

  /** `goal` becomes the newest (once: an earlier copy is dropped), and the file is rewritten. */
  add(goal: string): void {
    this.#goals = [...this.#goals.filter((g) => g !== goal), goal].slice(-KEEP);
    try {
      writeFileSync(this.file, JSON.stringify(this.#goals, null, 1));
    } catch {
      /* the history is a convenience */
    }
  }
}
