import type { Rect } from '../paint/layout.js';
import { OffscreenInk } from '../paint/offscreen.js';
import type { TuiState } from '../state/store.js';
import Help from './components/Help.js';
import History from './components/HistoryPanel.js';
import { chromeLines } from './frame.js';

/** The widest the help box gets on a wide terminal. */
const HELP_WIDTH = 90;

/**
 * The overlays over the pane area: the help, centred, and the history panel, filling it. Each is
 * an Ink tree rendered off screen, laid out at the area's size every time it is painted, and
 * painted as lines cut to their rectangle. A tree exists only while its overlay is open.
 */
export class Overlays {
  #help: OffscreenInk | null = null;
  #history: OffscreenInk | null = null;

  /** What the open overlay paints over `area` (the pane area), or '' when none is open. */
  paint(s: TuiState, area: Rect): string {
    if (s.overlay !== 'help') this.#help = dispose(this.#help);
    if (s.overlay !== 'history' || !s.history) this.#history = dispose(this.#history);
    if (area.width <= 0 || area.height <= 0) return '';
    if (s.overlay === 'help') return this.#paintHelp(s.prefix, area);
    if (s.overlay === 'history' && s.history) {
      const node = <History view={s.history} width={area.width} height={area.height} />;
      this.#history ??= new OffscreenInk(node, area.width);
      this.#history.rerender(node, area.width);
      return chromeLines(area, this.#history.lines);
    }
    return '';
  }

  #paintHelp(prefix: string, area: Rect): string {
    const width = Math.min(HELP_WIDTH, area.width);
    let node = <Help prefix={prefix} width={width} />;
    this.#help ??= new OffscreenInk(node, width);
    this.#help.rerender(node, width);
    // Taller than the area: laid out again at the area's height, its list cut.
    if (this.#help.lines.length > area.height) {
      node = <Help prefix={prefix} width={width} rows={area.height} />;
      this.#help.rerender(node, width);
    }
    const lines = this.#help.lines.slice(0, area.height);
    const top = area.top + Math.floor((area.height - lines.length) / 2);
    const left = area.left + Math.floor((area.width - width) / 2);
    return chromeLines({ top, left, width, height: lines.length }, lines);
  }

  dispose(): void {
    this.#help = dispose(this.#help);
    this.#history = dispose(this.#history);
  }
}

function dispose(ink: OffscreenInk | null): null {
  ink?.dispose();
  return null;
}
