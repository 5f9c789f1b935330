/**
 * Which rows of a headless xterm changed since a painter last asked: screen.ts's helper (only
 * screen.ts imports @xterm/headless; this sees the part of it it reads, by shape).
 */
/** Rows of the live screen, `from` to `to` (both included; `from` > `to`: none). */
export type RowRange = { readonly from: number; readonly to: number };

/** What the damage tracker reads of xterm: its resize events, and the input handler's refresh requests. */
type DamageSource = {
  onResize(listener: () => void): unknown;
};
type RefreshRows = { onRequestRefreshRows?: (listener: (rows: { start: number; end: number } | undefined) => void) => unknown };

/**
 * Which rows of the live screen changed, as xterm's own renderer learns it: the input handler's
 * dirty rows after each parse (not in the public API of @xterm/headless: looked up by shape, and
 * without it every row counts as changed; a buffer switch asks for all of them), and every row on
 * a resize. A scroll needs no listener of its own: xterm marks the scrolled region dirty itself,
 * and the rows outside it did not move. (xterm's public onScroll fires for every line a flood
 * scrolls, through two emitters: ≈ 2 % of a flood's time, for nothing the refresh request lacks.)
 */
export class DamageTracker {
  #from = 0;
  #to = Number.POSITIVE_INFINITY;
  readonly #known: boolean;

  constructor(term: DamageSource) {
    const input = (term as { _core?: { _inputHandler?: RefreshRows } })._core?._inputHandler;
    this.#known = typeof input?.onRequestRefreshRows === 'function';
    input?.onRequestRefreshRows?.((rows) => (rows ? this.#mark(rows.start, rows.end) : this.#all()));
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
