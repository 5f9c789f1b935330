import { withoutColor } from '../paint/no-color.js';
import { OffscreenInk } from '../paint/offscreen.js';
import { clip } from '../paint/width.js';
import type { RealTerminal } from '../view/terminal.js';
import AgentPicker from './AgentPicker.js';
import type { PickerState } from './picker-state.js';

/**
 * The agent picker on the whole terminal: laid out at the terminal's size every time it is shown,
 * each line cut to the width and the screen to its rows, so a resize shows what a first paint at
 * the new size shows.
 */
export class PickerScreen {
  readonly #term: RealTerminal;
  readonly #home: string | undefined;
  readonly #plain: boolean;
  readonly #ink: OffscreenInk;
  #state: PickerState;

  constructor(term: RealTerminal, state: PickerState, options: { readonly home: string | undefined; readonly plain: boolean }) {
    this.#term = term;
    this.#state = state;
    this.#home = options.home;
    this.#plain = options.plain;
    this.#ink = new OffscreenInk(this.#node(), term.cols);
  }

  /** Paints `state` (by default the one shown) at the terminal's size now. */
  show(state: PickerState = this.#state): void {
    this.#state = state;
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
    return <AgentPicker state={this.#state} width={this.#term.cols} home={this.#home} />;
  }
}
