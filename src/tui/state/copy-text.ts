/**
 * Copy mode's pure parts: its state, searching a pane's lines, the selection's text and where it is
 * painted, and the OSC 52 sequence that puts text on the terminal's clipboard. Lines are numbered as
 * the pane's buffer numbers them (scrollback first); columns are terminal cells.
 */
import type { BufferText, Span } from '../../pty/screen.js';
import type { LineState } from '../input/line-editor.js';
import { cells } from '../paint/width.js';

export type Point = { readonly line: number; readonly col: number };
export type Direction = 'forward' | 'backward';

/** What copy mode holds while it is on (the store's `copy`, beside `scroll`). */
export type CopyState = {
  /** Copy mode's own cursor. */
  readonly cursor: Point;
  /** `v` was pressed here: the selection runs from it to the cursor, both included. */
  readonly anchor: Point | null;
  /** The search prompt, while it is open (`/` forward, `?` backward). */
  readonly prompt: { readonly dir: Direction; readonly line: LineState } | null;
  /** The last search, for `n` and `N`. */
  readonly search: { readonly dir: Direction; readonly query: string } | null;
  /** The match the cursor is on, shown in reverse video. */
  readonly match: { readonly at: Point; readonly width: number } | null;
  /** Said in the message rows: a search that found nothing. */
  readonly message: string | null;
  /** Entered with the wheel: scrolling back down to the live screen leaves it (as tmux's `copy-mode -e`). */
  readonly leaveAtBottom: boolean;
};

/** The lines copy mode reads (a Screen's `text`). */
export type Lines = Pick<BufferText, 'length' | 'line' | 'wrapped'>;

/** The string index where cell column `col` starts (the text's end past its last cell). */
export function indexAt(text: string, col: number): number {
  let at = 0;
  for (const cell of cells(text)) {
    if (at + cell.width > col) return cell.index;
    at += cell.width;
  }
  return text.length;
}

/** The string index of the first cell after column `col` (the one holding it included in none). */
export function indexAfter(text: string, col: number): number {
  let at = 0;
  for (const cell of cells(text)) {
    if (at > col) return cell.index;
    at += cell.width;
  }
  return text.length;
}

/** The cell column where string index `index` starts. */
export function columnAt(text: string, index: number): number {
  let col = 0;
  for (const cell of cells(text)) {
    if (cell.index >= index) return col;
    col += cell.width;
  }
  return col;
}

/** Smart case: a query with no capital letter matches any case. */
const fold = (query: string) => (s: string) => (query === query.toLowerCase() ? s.toLowerCase() : s);

/**
 * The next match of `query` after `from` (forward) or before it (backward), wrapping around the
 * buffer's ends as tmux does; null when it is nowhere. A match is a line's text (soft-wrapped lines
 * are searched one by one).
 */
export function findMatch(lines: Lines, query: string, from: Point, dir: Direction): Point | null {
  if (query === '' || lines.length === 0) return null;
  const f = fold(query);
  const q = f(query);
  const count = lines.length;
  for (let step = 0; step <= count; step++) {
    const line = dir === 'forward' ? (from.line + step) % count : (from.line - step + count * 2) % count;
    const text = f(lines.line(line));
    // Cells are counted only on the cursor's line (the first and the last looked at).
    const edge = step === 0 || step === count;
    const here = edge ? indexAt(text, from.col) : 0;
    const after = edge ? indexAfter(text, from.col) : 0;
    let index: number;
    // Back on the first line after going round: only the part not searched at the start.
    if (dir === 'forward') {
      index = step === 0 ? text.indexOf(q, after) : text.indexOf(q);
      if (step === count && index >= after) index = -1;
    } else {
      index = step === 0 ? (here === 0 ? -1 : text.lastIndexOf(q, here - 1)) : text.lastIndexOf(q);
      if (step === count && index < here) index = -1;
    }
    if (index >= 0) return { line, col: columnAt(text, index) };
  }
  return null;
}

/** The two ends of a selection, first one first. */
export function ordered(a: Point, b: Point): readonly [Point, Point] {
  return a.line < b.line || (a.line === b.line && a.col <= b.col) ? [a, b] : [b, a];
}

/**
 * The selected text, from one end to the other, both cells included: a soft-wrapped line goes on
 * without a break, other lines end with `\n`, trailing spaces dropped.
 */
export function selectionText(lines: Lines, a: Point, b: Point): string {
  const [start, end] = ordered(a, b);
  let out = '';
  for (let line = start.line; line <= end.line && line < lines.length; line++) {
    const text = lines.line(line);
    const from = line === start.line ? indexAt(text, start.col) : 0;
    const to = line === end.line ? indexAt(text, end.col + 1) : text.length;
    const continues = line < end.line && lines.wrapped(line + 1);
    const piece = text.slice(from, Math.max(from, to));
    out += continues ? piece : piece.trimEnd();
    if (line < end.line && !continues) out += '\n';
  }
  return out;
}

/** What copy mode paints in reverse video on `line`: the selection's part of it and the match. */
export function spansOn(copy: CopyState, line: number, width: number): Span[] {
  const spans: Span[] = [];
  if (copy.anchor !== null) {
    const [start, end] = ordered(copy.anchor, copy.cursor);
    if (line >= start.line && line <= end.line)
      spans.push({ from: line === start.line ? start.col : 0, to: line === end.line ? end.col + 1 : width });
  }
  const match = copy.match;
  if (match !== null && match.at.line === line) spans.push({ from: match.at.col, to: match.at.col + match.width });
  return spans;
}

/** OSC 52: the terminal (and tmux with `set-clipboard on`) puts `text` on the clipboard. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** The message rows' line while copy mode is on: the search prompt, or what was said and the keys. */
export function copyQuestion(role: string, scroll: number, copy: CopyState | null | undefined): string {
  if (copy?.prompt) {
    const { dir, line } = copy.prompt;
    return `(search ${dir === 'forward' ? 'down' : 'up'}) ${line.text.slice(0, line.cursor)}▏${line.text.slice(line.cursor)}   Enter finds · Esc cancels`;
  }
  const said = copy?.message ? `${copy.message} · ` : '';
  const select = copy?.anchor ? 'selecting: y copies, v drops it' : 'v selects';
  return `copy mode (${role}): ${said}${scroll} lines up · ↑↓←→ hjkl move · ${select} · / ? search, n N · g G · Esc or q leaves`;
}
