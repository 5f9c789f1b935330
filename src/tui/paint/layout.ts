import type { Role } from '../../protocol/index.js';

/** A rectangle on the real terminal, 0-based. */
export type Rect = { readonly top: number; readonly left: number; readonly width: number; readonly height: number };

export type PaneBox = {
  /** The framed box, border included. */
  readonly frame: Rect;
  /** Inside the border, below the title line: where the agent's screen is painted (its PTY size). */
  readonly inner: Rect;
};

export type Layout = {
  readonly arrangement: 'side-by-side' | 'stacked' | 'zoomed';
  readonly panes: Readonly<Partial<Record<Role, PaneBox>>>;
  /** The status band and the chrome below the panes. */
  readonly chrome: Rect;
};

/** The smallest terminal relevo lays out (the band keeps both agents' states down to 30 columns); below it, one line says so. */
export const MIN_SIZE = { cols: 30, rows: 10 } as const;

export const fitsLayout = (cols: number, rows: number): boolean => cols >= MIN_SIZE.cols && rows >= MIN_SIZE.rows;

/** Nothing laid out: the terminal is smaller than MIN_SIZE. */
export const noLayout = (cols: number, rows: number): Layout => ({
  arrangement: 'zoomed',
  panes: {},
  chrome: { top: rows, left: 0, width: cols, height: 0 },
});

/** Side by side from this many columns; below it, stacked when there are more rows than STACK_ROWS. */
export const SIDE_BY_SIDE_COLS = 160;
export const STACK_ROWS = 40;

function box(top: number, left: number, width: number, height: number): PaneBox {
  // A rounded border (1 cell each side); the title sits in the top border line.
  return {
    frame: { top, left, width, height },
    inner: { top: top + 1, left: left + 1, width: Math.max(1, width - 2), height: Math.max(1, height - 2) },
  };
}

/**
 * Where each pane goes: side by side on wide terminals, stacked on tall ones, and the focused pane
 * alone (zoomed) when asked or when the terminal is too small for two usable panes.
 */
export function layout(cols: number, rows: number, chromeRows: number, focus: Role, zoom: boolean): Layout {
  const paneRows = Math.max(3, rows - chromeRows);
  const chrome: Rect = { top: paneRows, left: 0, width: cols, height: rows - paneRows };
  if (zoom) return { arrangement: 'zoomed', panes: { [focus]: box(0, 0, cols, paneRows) }, chrome };
  if (cols >= SIDE_BY_SIDE_COLS) {
    const left = Math.floor(cols / 2);
    return {
      arrangement: 'side-by-side',
      panes: { planner: box(0, 0, left, paneRows), builder: box(0, left, cols - left, paneRows) },
      chrome,
    };
  }
  if (rows > STACK_ROWS) {
    const top = Math.floor(paneRows / 2);
    return { arrangement: 'stacked', panes: { planner: box(0, 0, cols, top), builder: box(top, 0, cols, paneRows - top) }, chrome };
  }
  // Narrow and short: two panes would both be too small to use; show the focused one.
  return { arrangement: 'zoomed', panes: { [focus]: box(0, 0, cols, paneRows) }, chrome };
}
