import type { ReactElement } from 'react';
import { withoutColor } from './no-color.js';
import { OffscreenInk } from './offscreen.js';
import { clip } from './width.js';

/** The terminal a whole-screen view paints on: its size now, and where the bytes go. */
export type WholeTerminal = { readonly cols: number; readonly rows: number; write(data: string): void };

/**
 * An Ink view over the whole terminal (the agent picker, the dashboard): laid out at the terminal's
 * size every time it is shown, each line cut to the width and the screen to its rows, so a resize
 * shows what a first paint at the new size shows. `plain` (NO_COLOR) keeps the weights, drops the colours.
 */
export class WholeScreen<V> {
  readonly #term: WholeTerminal;
  readonly #node: (view: V, cols: number, rows: number) => ReactElement;
  readonly #plain: boolean;
  readonly #ink: OffscreenInk;
  #view: V;

  constructor(term: WholeTerminal, view: V, node: (view: V, cols: number, rows: number) => ReactElement, plain: boolean) {
    this.#term = term;
    this.#view = view;
    this.#node = node;
    this.#plain = plain;
    this.#ink = new OffscreenInk(node(view, term.cols, term.rows), term.cols);
  }

  /** Paints `view` (by default the one shown) at the terminal's size now. */
  show(view: V = this.#view): void {
    this.#view = view;
    const { cols, rows } = this.#term;
    this.#ink.rerender(this.#node(view, cols, rows), cols);
    const lines = this.#ink.lines.slice(0, rows).map((line, i) => `\x1b[${i + 1};1H\x1b[0m\x1b[2K${clip(line, cols)}\x1b[0m`);
    const frame = `\x1b[?2026h${lines.join('')}\x1b[0m\x1b[J\x1b[?2026l`;
    this.#term.write(this.#plain ? withoutColor(frame) : frame);
  }

  dispose(): void {
    this.#ink.dispose();
  }
}
