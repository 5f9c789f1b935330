/**
 * Text measured in terminal columns, not in UTF-16 code units: a CJK character or an emoji takes
 * two columns, a combining mark none. Every fit and cut of the TUI's own text (toasts, the band,
 * pane titles, the goal prompt) goes through here. Widths come from `string-width` (the library Ink
 * measures with); cuts fall between graphemes, so an emoji or an accented letter is never split.
 */
import stringWidth from 'string-width';
import { plainWidth } from './plain-width.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many columns `text` takes (escape sequences count for nothing). */
export function columns(text: string): number {
  return plainWidth(text) ?? stringWidth(text);
}

/** `text` as graphemes with their widths, in order. */
export function cells(text: string): { readonly text: string; readonly index: number; readonly width: number }[] {
  return Array.from(graphemes.segment(text), (g) => ({ text: g.segment, index: g.index, width: columns(g.segment) }));
}

/** The longest start of `text` that fits in `width` columns (a wide character that would straddle the edge is left out). */
export function cut(text: string, width: number): string {
  let used = 0;
  let end = 0;
  for (const cell of cells(text)) {
    if (used + cell.width > width) break;
    used += cell.width;
    end = cell.index + cell.text.length;
  }
  return text.slice(0, end);
}

/** `text` if it fits in `width` columns, else cut to leave room for a closing `…`. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  return columns(text) <= width ? text : `${cut(text, width - 1)}…`;
}

/** `text` fitted to `width` columns and padded with spaces to exactly that many. */
export function fitPadded(text: string, width: number): string {
  const fitted = fit(text, width);
  return fitted + ' '.repeat(Math.max(0, width - columns(fitted)));
}

/** Where the grapheme before `index` starts (0 at the start): one step left, never into an emoji. */
export function graphemeBefore(text: string, index: number): number {
  let start = 0;
  for (const cell of cells(text)) {
    if (cell.index >= index) break;
    start = cell.index;
  }
  return start;
}

/** Where the grapheme at `index` ends (the text's length at its end): one step right. */
export function graphemeAfter(text: string, index: number): number {
  for (const cell of cells(text)) if (cell.index + cell.text.length > index) return cell.index + cell.text.length;
  return text.length;
}

/**
 * The start of `text` that fits in `width` columns, for a row that must take something: a character
 * wider than the whole row still goes, alone, so a wrapping loop always moves on.
 */
function head(text: string, width: number): string {
  return cut(text, width) || (cells(text)[0]?.text ?? text);
}

/** `text` broken into lines of at most `width` columns: at spaces, and inside a word too long for a line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && columns(line) + 1 + columns(word) <= width) {
      line = `${line} ${word}`;
      continue;
    }
    if (line !== '') lines.push(line);
    let rest = word;
    while (columns(rest) > width) {
      const row = head(rest, width);
      lines.push(row);
      rest = rest.slice(row.length);
    }
    line = rest;
  }
  return line !== '' || lines.length === 0 ? [...lines, line] : lines;
}

/** An escape sequence at `lastIndex`: CSI, OSC (ended by BEL or ST) or a two-byte escape. */
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/y;

/**
 * A styled line cut to `width` columns, its escape sequences kept (they take no column): what is
 * painted never reaches past its rectangle, so the terminal never wraps or scrolls under relevo.
 */
export function clip(line: string, width: number): string {
  if (columns(line) <= width) return line;
  let out = '';
  let used = 0;
  for (let i = 0; i < line.length; ) {
    ESCAPE.lastIndex = i;
    const sequence = ESCAPE.exec(line);
    if (sequence !== null) {
      out += sequence[0];
      i += sequence[0].length;
      continue;
    }
    const next = line.indexOf('\x1b', i + 1);
    const run = line.slice(i, next < 0 ? line.length : next);
    for (const cell of cells(run)) {
      if (used + cell.width > width) return out;
      used += cell.width;
      out += cell.text;
    }
    i += run.length;
  }
  return out;
}

/**
 * One line of text broken into rows of at most `width` columns, its spacing kept (indentation, runs
 * of spaces): after the spaces where a row runs out, inside a word only when it is longer than a row.
 * The spaces a row ends on are dropped; a line that is one row is returned as it is.
 */
export function wrapKept(line: string, width: number): string[] {
  if (columns(line) <= width) return [line];
  const rows: string[] = [];
  let row = '';
  for (const token of line.match(/\s+|\S+/gu) ?? []) {
    if (columns(row) + columns(token) <= width) {
      row += token;
      continue;
    }
    if (/^\s/u.test(token)) {
      // The row ends on these spaces.
      if (row !== '') rows.push(row);
      row = '';
      continue;
    }
    if (row.trim() !== '' && columns(token) <= width) {
      rows.push(row.trimEnd());
      row = token;
      continue;
    }
    // A word longer than a row: it fills this row (after its indentation or its first words), then the next ones.
    let rest = token;
    while (columns(row) + columns(rest) > width) {
      const part = row === '' ? head(rest, width) : cut(rest, width - columns(row));
      rows.push(row + part);
      row = '';
      rest = rest.slice(part.length);
    }
    row = rest;
  }
  return row !== '' || rows.length === 0 ? [...rows, row] : rows;
}
