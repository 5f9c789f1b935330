/**
 * The workspace's git anchor, started as soon as an agent's end-of-turn hook reported (its turn is
 * over, its tools are done), so its git processes run while relevo still waits for the screen's
 * turn end instead of after it. The screen's turn end takes it if it is recent enough; otherwise
 * (or with no hook) a new one is taken then, as before.
 */
import type { GitAnchor, Role } from '../../protocol/index.js';
import { gitAnchor } from '../store/git.js';

/** A report older than this when the screen ends the turn (a person typing, a stuck screen) gets a new anchor. */
const FRESH_MS = 2000;

export class EarlyAnchors {
  readonly #taken: Partial<Record<Role, { readonly at: number; readonly anchor: Promise<GitAnchor | null> }>> = {};

  /** `anchor` takes one (tests count its calls). */
  constructor(private readonly anchor: (cwd: string) => Promise<GitAnchor | null> = gitAnchor) {}

  /** The role's hook reported its turn over: its anchor starts now. */
  reported(role: Role, cwd: string): void {
    const anchor = this.anchor(cwd);
    anchor.catch(() => undefined); // an anchor never taken must not be an unhandled rejection; the taker still sees it
    this.#taken[role] = { at: Date.now(), anchor };
  }

  /**
   * The screen saw the role's turn end: the anchor started at its hook's report if that came in this
   * turn (at or after `since`, when relevo sent the turn its message) and recently, else a new one.
   */
  take(role: Role, cwd: string, since: number): Promise<GitAnchor | null> {
    const early = this.#taken[role];
    delete this.#taken[role];
    const fits = early !== undefined && early.at >= since && Date.now() - early.at <= FRESH_MS;
    return fits ? early.anchor : this.anchor(cwd);
  }
}
