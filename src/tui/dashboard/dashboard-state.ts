import { isEscape, isPaste, pastedText, splitKeys } from '../../pty/keys.js';
import { graphemeBefore } from '../paint/width.js';
import { filterRows, orderRows, type RelayRow } from './rows.js';

/**
 * The dashboard's own state: the selected relay (by name, so it stays on the same relay when the
 * rows reorder), the filter and whether it is being typed, and the merge or remove waiting for y.
 */
export type DashboardState = {
  readonly selected: string | null;
  readonly filter: string;
  readonly filtering: boolean;
  readonly confirm: { readonly action: 'merge' | 'remove'; readonly name: string } | null;
};

export const initialDashboard: DashboardState = { selected: null, filter: '', filtering: false, confirm: null };

/** What a key asks of the wiring: open a relay's view, start a new relay, pause, resume, merge, remove, quit. */
export type DashboardAction =
  | { readonly kind: 'open'; readonly name: string }
  | { readonly kind: 'new' }
  | { readonly kind: 'pause'; readonly name: string }
  | { readonly kind: 'resume'; readonly name: string }
  | { readonly kind: 'merge'; readonly name: string }
  | { readonly kind: 'remove'; readonly name: string }
  | { readonly kind: 'quit' };

/** A key as the dashboard reads it: a named key, or text typed (a character, or a paste made one line). */
export type DashboardKey = 'up' | 'down' | 'enter' | 'backspace' | 'escape' | { readonly text: string };

export type DashboardStep = { readonly state: DashboardState; readonly action?: DashboardAction };

const NAMED: Readonly<Record<string, DashboardKey>> = {
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\r': 'enter',
  '\n': 'enter',
  '\x7f': 'backspace',
  '\b': 'backspace',
  // Ctrl-C cancels what is being typed or asked, as Esc does; it never quits relevo from here.
  '\x03': 'escape',
};

/**
 * The dashboard's keys in what the terminal sent (one read may hold several): arrows (CSI or SS3),
 * Enter, Backspace, Esc (alone or as Alt sends it) and Ctrl-C, characters typed, a paste as one
 * line of text. Other escape sequences and control bytes are ignored.
 */
export function dashboardKeys(data: string): DashboardKey[] {
  const keys: DashboardKey[] = [];
  for (const key of splitKeys(data)) {
    const named = NAMED[key];
    if (named !== undefined) keys.push(named);
    else if (isPaste(key)) keys.push({ text: pastedText(key).replace(/\s*[\r\n]+\s*/g, ' ') });
    else if (isEscape(key)) keys.push('escape');
    else if (!/[\x00-\x1f\x7f]/.test(key)) keys.push({ text: key });
  }
  return keys;
}

/** The rows shown, in their order: the filter's matches, needs you first. */
export function visibleRows(rows: readonly RelayRow[], filter: string): RelayRow[] {
  return orderRows(filterRows(rows, filter));
}

/** The row the selection is on among `shown`: the selected one, else (none yet, or filtered out) the first. */
export function selectedIndex(state: DashboardState, shown: readonly RelayRow[]): number {
  if (shown.length === 0) return -1;
  return Math.max(
    0,
    shown.findIndex((row) => row.name === state.selected),
  );
}

/** The selected relay's name among the rows shown, or null when none is shown. */
export function selectedName(state: DashboardState, rows: readonly RelayRow[]): string | null {
  const shown = visibleRows(rows, state.filter);
  return shown[selectedIndex(state, shown)]?.name ?? null;
}

/** The line asking before a merge or a remove: `merge relevo/x into main? y/n`. */
export function confirmText(confirm: NonNullable<DashboardState['confirm']>, rows: readonly RelayRow[]): string {
  if (confirm.action === 'remove') return `remove ${confirm.name} and its worktree? y/n`;
  const base = rows.find((row) => row.name === confirm.name)?.base;
  return base ? `merge ${confirm.name} into ${base}? y/n` : `merge ${confirm.name}? y/n`;
}

/** Moves the selection `by` rows among those shown, stopping at either end. */
function move(state: DashboardState, rows: readonly RelayRow[], by: number): DashboardState {
  const shown = visibleRows(rows, state.filter);
  if (shown.length === 0) return state;
  const i = Math.min(shown.length - 1, Math.max(0, selectedIndex(state, shown) + by));
  return { ...state, selected: shown[i]!.name };
}

/** A key while the filter is typed: text goes into it, Backspace takes a character back, Esc clears it, Enter keeps it. */
function filterKey(state: DashboardState, rows: readonly RelayRow[], key: DashboardKey): DashboardStep {
  if (typeof key === 'object') return { state: { ...state, filter: state.filter + key.text } };
  switch (key) {
    case 'up':
      return { state: move(state, rows, -1) };
    case 'down':
      return { state: move(state, rows, 1) };
    case 'enter':
      return { state: { ...state, filtering: false } };
    case 'escape':
      return { state: { ...state, filter: '', filtering: false } };
    case 'backspace':
      return state.filter === ''
        ? { state: { ...state, filtering: false } }
        : { state: { ...state, filter: state.filter.slice(0, graphemeBefore(state.filter, state.filter.length)) } };
  }
}

/**
 * One key: ↑/↓ (k/j) move, Enter opens, c starts a new relay, p pauses, r resumes, m and x ask
 * first (y confirms, any other key cancels), / types a filter, Esc clears a filter kept, q quits.
 * Keys naming a relay do nothing when no relay is shown.
 */
export function dashboardKey(state: DashboardState, rows: readonly RelayRow[], key: DashboardKey): DashboardStep {
  if (state.confirm !== null) {
    const { action, name } = state.confirm;
    const idle = { ...state, confirm: null };
    return typeof key === 'object' && (key.text === 'y' || key.text === 'Y')
      ? { state: idle, action: { kind: action, name } }
      : { state: idle };
  }
  if (state.filtering) return filterKey(state, rows, key);
  const name = selectedName(state, rows);
  const text = typeof key === 'object' ? key.text : null;
  if (key === 'up' || text === 'k') return { state: move(state, rows, -1) };
  if (key === 'down' || text === 'j') return { state: move(state, rows, 1) };
  if (key === 'escape') return { state: { ...state, filter: '' } };
  if (text === '/') return { state: { ...state, filtering: true } };
  if (text === 'c') return { state, action: { kind: 'new' } };
  if (text === 'q') return { state, action: { kind: 'quit' } };
  if (name === null) return { state };
  // The selection is pinned to the relay acted on, so it stays there however the rows reorder.
  const on = { ...state, selected: name };
  if (key === 'enter') return { state: on, action: { kind: 'open', name } };
  if (text === 'p') return { state: on, action: { kind: 'pause', name } };
  if (text === 'r') return { state: on, action: { kind: 'resume', name } };
  if (text === 'm') return { state: { ...on, confirm: { action: 'merge', name } } };
  if (text === 'x') return { state: { ...on, confirm: { action: 'remove', name } } };
  return { state };
}

/** Every key of `data` in turn from `state`: where the dashboard ends and what was asked on the way. */
export function dashboardInput(
  state: DashboardState,
  rows: readonly RelayRow[],
  data: string,
): { state: DashboardState; actions: DashboardAction[] } {
  const actions: DashboardAction[] = [];
  let now = state;
  for (const key of dashboardKeys(data)) {
    const step = dashboardKey(now, rows, key);
    now = step.state;
    if (step.action) actions.push(step.action);
  }
  return { state: now, actions };
}
