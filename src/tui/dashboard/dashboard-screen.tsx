import { withoutColor } from '../paint/no-color.js';
import { OffscreenInk } from '../paint/offscreen.js';
import { clip } from '../paint/width.js';
import type { RealTerminal } from '../view/terminal.js';
import Dashboard from './Dashboard.js';
import type { DashboardView } from './table.js';

/**
 * The dashboard on the whole terminal: laid out at the terminal's size every time it is shown, each
 * line cut to the width and the screen to its rows, so a resize shows what a first paint at the new
 * size shows. `plain` (NO_COLOR) keeps the weights and drops the colours.
 */
export class DashboardScreen {
  readonly #term: Pick<RealTerminal, 'cols' | 'rows' | 'write'>;
  readonly #plain: boolean;
  readonly #ink: OffscreenInk;
  #view: DashboardView;

  constructor(term: Pick<RealTerminal, 'cols' | 'rows' | 'write'>, view: DashboardView, options: { readonly plain: boolean }) {
    this.#term = term;
    this.#view = view;
    this.#plain = options.plain;
    this.#ink = new OffscreenInk(this.#node(), term.cols);
  }

  /** Paints `view` (by default the one shown) at the terminal's size now. */
  show(view: DashboardView = this.#view): void {
    this.#view = view;
    this.#ink.rerender(this.#node(), this.#term.cols);
    const { cols, rows } = this.#term;
    const lines = this.#ink.lines.slice(0, rows).map((line, i) => `\x1b[${i + 1};1H\x1b[0m\x1b[2K${clip(line, cols)}\x1b[0m`);
    const frame = `\x1b[?2026h${lines.join('')}\x1b[0m\x1b[J\x1b[?2026l`;
    this.#term.write(this.#plain ? withoutColor(frame) : frame);
  }

  dispose(): void {
    this.#ink.dispose();
  }

  #node() {
    return <Dashboard view={this.#view} width={this.#term.cols} height={this.#term.rows} />;
  }
}
