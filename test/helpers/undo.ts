/** What a test set up and must take down when it ends: the one way tests undo. */
import { afterEach } from 'vitest';

type Step = () => unknown;

export class Undo {
  private steps: Step[] = [];

  /** Steps to run when the test ends (the last added runs first). */
  add(...steps: Step[]): void {
    this.steps.push(...steps);
  }

  /** Runs every step, last first, even past one that fails; then throws the first failure. */
  async run(): Promise<void> {
    const steps = this.steps.reverse();
    this.steps = [];
    const errors: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}

/** An Undo run after each test of the file (for tests that run one at a time). */
export function undoAfterEach(): Undo {
  const undo = new Undo();
  afterEach(() => undo.run());
  return undo;
}

/** An Undo of its own for one test, run when it finishes (for tests that run at once: `it.concurrent`). */
export function undoWhenFinished(onTestFinished: (fn: () => Promise<void>) => void): Undo {
  const undo = new Undo();
  onTestFinished(() => undo.run());
  return undo;
}
