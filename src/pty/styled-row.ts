/**
 * A screen row rendered for a real terminal (screen.ts's `styledRow`): its cells read through
 * xterm's cell API, from xterm's buffer or the compact scrollback alike.
 */
import { mayMismeasure, readSgr } from './screen-buffer.js';
import { copySgr, DEFAULT_SGR, RESET, SGR_FLAG, type Sgr, sameSgr, sgrStep, sgrTransition } from './sgr.js';

/** Columns `from` (included) to `to` (excluded) of a row. */
export type Span = { readonly from: number; readonly to: number };

/** The cell API read here (xterm's IBufferCell). */
type Cell = Parameters<typeof readSgr>[0] & { getWidth(): number; getChars(): string };
/** A line whose cells are read into `cell`. */
export type RowCells<C> = { readonly length: number; getCell(x: number, cell: C): unknown };

export type RowOptions = {
  readonly width: number;
  readonly from: number;
  readonly anchor: number | undefined;
  readonly invert: readonly Span[] | undefined;
};

/** See Screen.styledRow. `cell` and `next` are scratch objects, reused between calls. */
export function renderRow<C extends Cell>(line: RowCells<C> | undefined, cell: C, next: Sgr, o: RowOptions): string {
  const { width, from, anchor, invert } = o;
  const cur: Sgr = { ...DEFAULT_SGR };
  let out = '';
  let col = 0;
  const end = Math.min(line?.length ?? 0, from + width);
  for (let x = Math.max(0, from); x < end && col < width; x++) {
    line!.getCell(x, cell);
    const w = cell.getWidth();
    if (w === 0) {
      // The right half of a wide character whose left half is before `from`.
      if (x === from) {
        out += `${sgrStep(cur, DEFAULT_SGR)} `;
        col++;
      }
      continue;
    }
    readSgr(cell, next);
    // Copy mode's selection and match: shown in reverse video.
    if (invert?.some((span) => x >= span.from && x < span.to)) next.flags ^= SGR_FLAG.INVERSE;
    if (!sameSgr(next, cur)) {
      out += sgrTransition(cur, next);
      copySgr(cur, next);
    }
    if (w > 1 && col + w > width) {
      out += ' '; // cut by the right edge
      col++;
      continue;
    }
    const chars = cell.getChars();
    const resync = anchor !== undefined && mayMismeasure(chars, w);
    // Blank both cells first (ECH): a terminal that draws this narrow leaves no stale cell behind.
    if (resync && w === 2) out += '\x1b[2X';
    out += chars === '' ? ' ' : chars;
    col += w;
    if (resync && col < width) out += `\x1b[${anchor + col + 1}G`;
  }
  if (col < width) {
    out += sgrStep(cur, DEFAULT_SGR) + ' '.repeat(width - col);
    copySgr(cur, DEFAULT_SGR);
  }
  return out + RESET;
}
