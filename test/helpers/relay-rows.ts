import type { RelayRow } from '../../src/tui/dashboard/rows.js';

/** The dashboard tests' clock: every row's age is measured from here. */
export const NOW = Date.UTC(2026, 11, 6, 7, 0, 0);

/** A relay row: working on round 1 of 10, changed a minute ago, in a worktree off main; `over` changes any field. */
export function relayRow(name: string, over: Partial<RelayRow> = {}): RelayRow {
  return {
    name,
    runId: `run-${name.replace(/\W/g, '-')}`,
    phase: 'working',
    reason: null,
    attention: null,
    round: 1,
    maxRounds: 10,
    turn: 'builder',
    lastHandoff: null,
    base: 'main',
    added: 0,
    removed: 0,
    ahead: 0,
    behind: 0,
    dirty: false,
    changedAt: NOW - 60_000,
    live: true,
    ...over,
  };
}

/** Four relays as a person meets them: one blocked on a permission prompt, one done, one working, one idle. */
export const FOUR: readonly RelayRow[] = [
  relayRow('relevo/retry-api', {
    round: 2,
    turn: 'planner',
    lastHandoff: 'Retries with backoff are in; the 429 path has a test.\nDetails follow.',
    added: 64,
    removed: 7,
    ahead: 2,
    changedAt: NOW - 12_000,
  }),
  relayRow('relevo/pagination', {
    attention: 'blocked',
    round: 3,
    lastHandoff: 'Add cursor pagination to GET /users, 50 a page.',
    added: 120,
    removed: 4,
    ahead: 3,
    changedAt: NOW - 4 * 60_000,
  }),
  relayRow('relevo/docs', {
    phase: 'idle',
    turn: null,
    round: 1,
    lastHandoff: 'Write the README section on worktrees.',
    added: 0,
    removed: 0,
    changedAt: NOW - 3 * 86_400_000,
  }),
  relayRow('relevo/dark-mode', {
    phase: 'done',
    turn: null,
    round: 4,
    lastHandoff: 'Goal met: the theme follows prefers-color-scheme.',
    added: 310,
    removed: 42,
    ahead: 5,
    behind: 1,
    changedAt: NOW - 2 * 3_600_000,
  }),
];
