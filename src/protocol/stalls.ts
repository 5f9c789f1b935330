import type { Role } from './roles.js';
import type { StallKind } from './schemas/journal.js';
import type { AgentState } from './schemas/profile.js';

/** A turn counts as stalled when it is busy longer than this (`--stall-after`, `stall_after`). */
export const DEFAULT_STALL_AFTER_MS = 20 * 60_000;
/** …or when its state changes this many times within FLAP_WINDOW_MS with no turn end. */
export const FLAP_CHANGES = 10;
export const FLAP_WINDOW_MS = 30_000;

export type StallSettings = { readonly stallAfterMs: number; readonly flapChanges?: number; readonly flapWindowMs?: number };
export type Stall = { readonly role: Role; readonly why: StallKind; readonly forMs: number };

type Track = { began: number | null; changes: number[]; stalled: boolean; blocked: boolean };

/**
 * Notices agents that never end their turn: busy past `stallAfterMs`, or flapping busy/idle. Each
 * stall is reported once (`report(role, stall)`) and cleared when the turn ends (`report(role, null)`).
 * The clock is passed in: `now` on every call, `tick(now)` to look at the time.
 */
export class StallWatcher {
  readonly #tracks = new Map<Role, Track>();
  readonly #flapChanges: number;
  readonly #flapWindowMs: number;

  constructor(
    private readonly settings: StallSettings,
    private readonly report: (role: Role, stall: Stall | null) => void,
  ) {
    this.#flapChanges = settings.flapChanges ?? FLAP_CHANGES;
    this.#flapWindowMs = settings.flapWindowMs ?? FLAP_WINDOW_MS;
  }

  #track(role: Role): Track {
    const known = this.#tracks.get(role);
    if (known !== undefined) return known;
    const t: Track = { began: null, changes: [], stalled: false, blocked: false };
    this.#tracks.set(role, t);
    return t;
  }

  turnBegan(role: Role, now: number): void {
    this.turnEnded(role);
    this.#track(role).began = now;
  }

  /** The turn ended (or the agent exited): a stall shown for it is cleared. */
  turnEnded(role: Role): void {
    const t = this.#track(role);
    t.began = null;
    t.changes = [];
    if (!t.stalled) return;
    t.stalled = false;
    this.report(role, null);
  }

  state(role: Role, state: AgentState | 'exited', now: number): void {
    if (state === 'exited') {
      this.turnEnded(role);
      return;
    }
    const t = this.#track(role);
    // Time spent waiting on a prompt is not time busy: the clock starts again when it is answered.
    // Waiting on a prompt or on a usage limit's reset is not stalling.
    const waits = state === 'blocked' || state === 'limited';
    if (t.blocked && !waits && t.began !== null) t.began = now;
    t.blocked = waits;
    t.changes = [...t.changes.filter((at) => now - at < this.#flapWindowMs), now];
    if (t.changes.length >= this.#flapChanges) this.#stall(role, t, 'flapping', now - t.changes[0]!);
  }

  tick(now: number): void {
    for (const [role, t] of this.#tracks) {
      // An agent waiting on a prompt is the blocked timeout's business, not a stall.
      if (t.began !== null && !t.blocked && now - t.began >= this.settings.stallAfterMs) this.#stall(role, t, 'busy', now - t.began);
    }
  }

  /**
   * Milliseconds from `now` until `tick` can find a turn busy too long (at least 1), or null while
   * no turn could stall (none running, each blocked or already reported): no clock to watch.
   */
  nextCheck(now: number): number | null {
    let next: number | null = null;
    for (const t of this.#tracks.values()) {
      if (t.began === null || t.blocked || t.stalled) continue;
      const wait = Math.max(1, t.began + this.settings.stallAfterMs - now);
      next = next === null ? wait : Math.min(next, wait);
    }
    return next;
  }

  #stall(role: Role, t: Track, why: StallKind, forMs: number): void {
    if (t.stalled) return;
    t.stalled = true;
    this.report(role, { role, why, forMs });
  }
}

/** `20m`, `90s`, `1h30m`, `500ms` → milliseconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.trim().matchAll(/(\d+)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim()) return null;
  return parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]!]!, 0);
}

/** Milliseconds as people read them: `45s`, `20m`, `1h5m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  return m % 60 === 0 ? `${Math.floor(m / 60)}h` : `${Math.floor(m / 60)}h${m % 60}m`;
}
