import type { Role } from '../../protocol/index.js';
import type { Screen } from '../../pty/screen.js';
import { type CopyState, spansOn } from '../state/copy-text.js';
import type { TuiState } from '../state/store.js';

/** Copy mode's state, when it is on the role's pane. */
export function copyOn(s: TuiState, role: Role): CopyState | null {
  return s.scroll !== null && s.focus === role ? (s.copy ?? null) : null;
}

/** What copy mode shows in reverse video on a row of the role's view of `screen`. */
export function copySpans(s: TuiState, role: Role, screen: Screen | undefined, row: number) {
  const copy = copyOn(s, role);
  if (copy === null || screen === undefined) return undefined;
  return spansOn(copy, screen.text.viewTop + row, screen.cols);
}
