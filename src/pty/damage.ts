/** Which rows of a headless xterm changed since a painter last asked: screen.ts's helper. */
import type { XtermInternals } from './xterm-internals.js';

/** Rows of the live screen, `from` to `to` (both included; `from` > `to`: none). */
export type RowRange = { readonly from: number; readonly to: number };

/** What the damage tracker reads of xterm's public API: its resize events. */
type DamageSource = {
  onResize(listener: () => void): unknown;
};

/**
 * Which rows of the live screen changed, as xterm's own renderer learns it: the rows each parse
 * dirtied (an xterm internal; without it every row counts as changed), and every row on a resize.
 * Scrolls need no listener: xterm marks the scrolled region dirty, and xterm's public onScroll
 * fires once per scrolled line, a cost in a flood for nothing the dirty rows lack.
 */
export class DamageTracker {
  #from = 0;
  #to = Number.POSITIVE_INFINITY;
  readonly #known: boolean;

  constructor(term: DamageSource, onRefreshRows: XtermInternals['onRefreshRows']) {
    this.#known = onRefreshRows !== undefined;
    onRefreshRows?.((rows) => (rows ? this.#mark(rows.start, rows.end) : this.#all()));
    term.onResize(() => this.#all());
  }

  /** The rows changed since the last call (every row when xterm does not say), forgotten once returned. */
  take(): RowRange {
    const rows = this.#known ? { from: this.#from, to: this.#to } : { from: 0, to: Number.POSITIVE_INFINITY };
    this.#from = Number.POSITIVE_INFINITY;
    this.#to = -1;
    return rows;
  }

  /** Every row changed (the painted view moved). */
  all(): void {
    this.#all();
  }

  #mark(from: number, to: number): void {
    this.#from = Math.min(this.#from, from);
    this.#to = Math.max(this.#to, to);
  }

  #all(): void {
    this.#mark(0, Number.POSITIVE_INFINITY);
  }
}
