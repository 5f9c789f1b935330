/** At most `max` relays starting their agents at once: agent CLIs take seconds of CPU to start. */
import type { Role } from '../../protocol/index.js';

type Starter = { readonly agents: Readonly<Record<Role, { readonly state: string; onState(listener: () => void): { dispose(): void } }>> };

/** How long a relay counts as starting at most, when an agent's screen never says what it is doing. */
const STARTING_AT_MOST_MS = 30_000;

export class StartGate {
  #starting = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** Resolves when this relay may start; `leave` must follow once its agents have started (or it failed to). */
  async enter(): Promise<void> {
    if (this.#starting < this.max) {
      this.#starting++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#starting--;
  }
}

/** Resolves once each agent's screen says something (busy, idle, blocked) or it exited, or after a bound. */
export function agentsStarted(runner: Starter): Promise<void> {
  const started = () => Object.values(runner.agents).every((a) => a.state !== 'unknown');
  if (started()) return Promise.resolve();
  return new Promise((resolve) => {
    const subs: { dispose(): void }[] = [];
    const done = () => {
      clearTimeout(timer);
      for (const s of subs) s.dispose();
      resolve();
    };
    const timer = setTimeout(done, STARTING_AT_MOST_MS);
    timer.unref();
    for (const a of Object.values(runner.agents))
      subs.push(
        a.onState(() => {
          if (started()) done();
        }),
      );
  });
}
