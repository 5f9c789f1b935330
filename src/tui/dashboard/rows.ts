import { type HostOutOfReach, unreachableText } from '../../protocol/index.js';

/**
 * The dashboard's rows: one per relay, plain data the wiring fills from each relay's journal and its
 * worktree's git status, and how they are ordered ("needs you" first), filtered and counted. Pure.
 */

export type RelayPhase = 'starting' | 'working' | 'idle' | 'paused' | 'done' | 'merged' | 'ended';

/** What waits on the person while a relay works: a permission prompt, a draft holding a delivery, a stalled turn. */
export type RelayAttention = 'blocked' | 'draft' | 'stalled';

export type RelayRow = {
  /** The relay's branch (`relevo/add-pagination`), or its run id when it has no worktree. */
  readonly name: string;
  readonly runId: string;
  readonly phase: RelayPhase;
  /** Why it is paused or ended (a pause reason: `agent_blocked`, `rate_limited`, `setup_failed`, `user`, `max_rounds`…); null otherwise. */
  readonly reason: string | null;
  readonly attention: RelayAttention | null;
  readonly round: number;
  readonly maxRounds: number;
  /** Whose turn it is; null when neither works (done, ended). */
  readonly turn: 'planner' | 'builder' | null;
  /** The first line of the last handoff. */
  readonly lastHandoff: string | null;
  /** The branch the relay merges into (`main`); null without a worktree. */
  readonly base: string | null;
  /** Lines added and removed, commits ahead of and behind the base: null without a worktree or when unknown. */
  readonly added: number | null;
  readonly removed: number | null;
  readonly ahead: number | null;
  readonly behind: number | null;
  /** Uncommitted or untracked files in its worktree: null without a worktree or when unknown. */
  readonly dirty: boolean | null;
  /** Epoch ms of its last journal line: its age is now minus this. */
  readonly changedAt: number;
  /** Run by this relevo now (else only on disk, resumable). */
  readonly live: boolean;
  /** Its agents' host (an ssh destination) for a relay on another machine, else absent or null. */
  readonly host?: string | null;
  /** Its agents' host while it cannot be reached (the row stays, saying so); absent or null while it answers. */
  readonly unreachable?: HostOutOfReach | null;
};

/** The dashboard's groups, in their order on screen. */
export type RowGroup = 'needs-you' | 'working' | 'rest';
export const GROUPS: readonly RowGroup[] = ['needs-you', 'working', 'rest'];

/** True when the relay waits on the person: an agent blocked, a draft held, a stall, a pause, or done and not yet merged. */
export function needsYou(row: RelayRow): boolean {
  return row.attention !== null || row.phase === 'paused' || row.phase === 'done';
}

export function groupOf(row: RelayRow): RowGroup {
  if (needsYou(row)) return 'needs-you';
  return row.phase === 'working' || row.phase === 'starting' ? 'working' : 'rest';
}

/** Within "needs you", the most pressing first: an agent blocked, a pause, a held draft, a stall, then done and not merged. */
function urgency(row: RelayRow): number {
  if (row.attention === 'blocked') return 0;
  if (row.phase === 'paused') return 1;
  if (row.attention === 'draft') return 2;
  if (row.attention === 'stalled') return 3;
  return 4;
}

/** Needs you first (the most pressing first), then working and starting, then idle, ended and merged; in each the most recently changed first (stable). */
export function orderRows(rows: readonly RelayRow[]): RelayRow[] {
  const rank = (row: RelayRow) => GROUPS.indexOf(groupOf(row));
  const pressing = (row: RelayRow) => (groupOf(row) === 'needs-you' ? urgency(row) : 0);
  return [...rows].sort((a, b) => rank(a) - rank(b) || pressing(a) - pressing(b) || b.changedAt - a.changedAt);
}

/**
 * The rows whose name, state as shown (its pause reason or attention flag: `paused: rate_limited`,
 * `blocked`) or last handoff holds `query` (any case); every row for an empty query.
 */
export function filterRows(rows: readonly RelayRow[], query: string): RelayRow[] {
  const needle = query.toLowerCase();
  if (needle === '') return [...rows];
  return rows.filter((row) => [row.name, stateText(row), row.lastHandoff].some((field) => field?.toLowerCase().includes(needle)));
}

/** How many relays other than `current` need the person (for the band of one relay's view). */
export function othersNeedingYou(rows: readonly RelayRow[], current: string): number {
  return rows.filter((row) => row.name !== current && needsYou(row)).length;
}

/** The band's words for that count: nothing for none. */
export function othersText(n: number): string {
  if (n <= 0) return '';
  return n === 1 ? '1 other needs you' : `${n} others need you`;
}

/** A row's state in a word or two: `blocked`, `paused: rate_limited`, `working`, `done ✓`; `unreachable: box — retrying in 4 s`. */
export function stateText(row: RelayRow, now = Date.now()): string {
  if (row.unreachable && !['done', 'merged', 'ended'].includes(row.phase)) return unreachableText(row.unreachable, now);
  if (row.attention !== null && row.phase !== 'paused') return row.attention;
  switch (row.phase) {
    case 'paused':
    case 'ended':
      return row.reason ? `${row.phase}: ${row.reason}` : row.phase;
    case 'done':
      return 'done ✓';
    default:
      return row.phase;
  }
}

/** An age in its largest whole unit: `12s`, `4m`, `2h`, `3d`. */
export function ageText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
