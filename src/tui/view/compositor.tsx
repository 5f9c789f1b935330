import { ROLES, type Role } from '../../protocol/index.js';
import type { Screen } from '../../pty/screen.js';
import { Burst } from '../paint/burst.js';
import { fitsLayout, type Layout, layout, MIN_SIZE, noLayout } from '../paint/layout.js';
import { withoutColor } from '../paint/no-color.js';
import { OffscreenInk } from '../paint/offscreen.js';
import { PanePainter } from '../paint/painter.js';
import type { Store, TuiState } from '../state/store.js';
import Chrome, { MESSAGE_ROWS } from './components/Chrome.js';
import { HISTORY_CHROME_ROWS } from './components/HistoryPanel.js';
import { copyOn, copySpans } from './copy-view.js';
import { chromeLines, paneFrame, paneTitle, sizeNote, tooSmall } from './frame.js';
import { Overlays } from './overlays.js';
import type { RealTerminal } from './terminal.js';

/** The message area (questions, toasts), the status band and the goal line (or the goal prompt). */
export const CHROME_ROWS = MESSAGE_ROWS + 2;

/** A burst of resizes is laid out once, when it has been still this long, or this long after its first resize. */
const RESIZE_QUIET_MS = 40;
const RESIZE_MAX_MS = 200;

const SYNC_BEGIN = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';

/**
 * What the compositor paints of an agent: its screen, and how its terminal follows its box (the
 * agent may keep a larger size, its CLI's minimum: the box is then a window onto it; or keep its
 * size until its turn ends, then say so in `onResized`).
 */
export type PaneView = {
  readonly pane: { readonly screen: Screen };
  resize(cols: number, rows: number): void;
  readonly onResized?: (listener: () => void) => { dispose(): void };
};
export type PaneViews = Readonly<Record<Role, PaneView>>;

/** Where the panes go on a terminal of this size before anything is focused or zoomed: the agents' first PTY size. */
export function firstLayout(cols: number, rows: number): Layout {
  return layout(cols, rows, CHROME_ROWS, 'planner', false);
}

/**
 * Paints the whole screen as a view of the store, from writers that never see each other: each
 * agent's headless screen (a PanePainter per visible pane, damage-tracked), the pane frames with
 * their titles, relevo's chrome and the open overlay (Ink, rendered off screen, painted as lines cut
 * to their rectangles). A change of layout, overlay or size repaints everything, so the terminal
 * always shows what a first paint of the same state at that size shows (test/tui/screen-oracle).
 * Toasts live in the chrome's message area, never over a pane; the real cursor ends where the
 * focused agent's is.
 */
export class Compositor {
  readonly #term: RealTerminal;
  readonly #store: Store;
  /** The agents' panes: none on the first frame, painted while the run opens (`attach`). */
  #agents: PaneViews | null;
  readonly #painters: Partial<Record<Role, PanePainter>> = {};
  /** Each painted agent's resize that waited for its turn: the screen is laid out again (its size and crop mark). */
  readonly #resizeWatch: Partial<Record<Role, { dispose(): void }>> = {};
  readonly #chrome: OffscreenInk;
  readonly #overlays = new Overlays();
  #view: Layout;
  /** The state the screen was last laid out for (its layout and overlay). */
  #laidOut: TuiState;
  /** A resize came and its relayout waits for the burst to end: nothing is painted at the old layout meanwhile. */
  readonly #resize = new Burst(() => this.relayout(), RESIZE_QUIET_MS, RESIZE_MAX_MS);
  /** While another program (an editor) has the terminal, relevo paints nothing. */
  #suspended = false;
  #disposed = false;
  /** The pane titles as last painted, to repaint the frames only when one changes. */
  #framesTitle = '';
  /** The cursor sequence the terminal was last given (every paint ends with one); '' when unknown. */
  #cursorShown = '';
  /** A relayout is composing its one frame: the chrome's new lines are taken into it, not painted on their own. */
  #composing = false;

  constructor(term: RealTerminal, store: Store, agents: PaneViews | null = null) {
    this.#term = term;
    this.#store = store;
    this.#agents = agents;
    this.#laidOut = store.state;
    this.#view = this.#layoutFor(store.state);
    this.#chrome = new OffscreenInk(this.#chromeNode(store.state), this.#view.chrome.width);
    this.#chrome.onFrame(() => this.#paintChrome());
    store.onChange((s) => this.#follow(s));
  }

  get view(): Layout {
    return this.#view;
  }

  /** The agents have started: their panes are painted in their boxes from now on. */
  attach(agents: PaneViews): void {
    this.#agents = agents;
    this.relayout();
  }

  /** The terminal was resized: laid out again once the burst is over. */
  resized(): void {
    this.#resize.event();
  }

  /** Lays everything out again at the terminal's size: the PTYs follow their boxes, and the whole screen is repainted in one frame. */
  relayout(): void {
    this.#resize.cancel();
    if (this.#suspended || this.#disposed) return;
    const s = this.#store.state;
    this.#laidOut = s;
    const { cols, rows } = this.#term;
    if (!fitsLayout(cols, rows)) {
      this.#view = noLayout(cols, rows);
      for (const role of ROLES) this.#dropPainter(role);
      this.#cursorShown = HIDE_CURSOR;
      this.#paint(SYNC_BEGIN + tooSmall(cols, rows, MIN_SIZE) + HIDE_CURSOR + SYNC_END);
      return;
    }
    this.#view = this.#layoutFor(s);
    let panes = '';
    for (const role of ROLES) {
      const painter = this.#painterFor(role);
      painter?.invalidate();
      // Under an overlay the panes are not painted; closing it lays everything out again.
      if (painter && s.overlay === 'none') panes += `\x1b[0m${painter.damage()}`;
    }
    // The frames after the painters: a pane's crop mark follows its screen's size at this layout.
    let frame = `${SYNC_BEGIN}\x1b[0m\x1b[2J${this.#frames(s)}${panes}`;
    this.#composing = true;
    try {
      this.#chrome.rerender(this.#chromeNode(s), this.#view.chrome.width);
    } finally {
      this.#composing = false;
    }
    frame += chromeLines(this.#view.chrome, this.#chrome.lines) + this.#overlays.paint(s, this.#paneArea());
    this.#cursorShown = this.#cursor();
    this.#paint(`${frame}${this.#cursorShown}${SYNC_END}`);
  }

  /** How many entries (or body lines) the history panel shows at once. */
  historyRows(): number {
    return Math.max(1, this.#view.chrome.top - HISTORY_CHROME_ROWS);
  }

  /** The part of the role's screen its pane shows (rows cut above, columns cut on the left); none when it is hidden. */
  window(role: Role): { readonly top: number; readonly left: number } {
    return this.#painters[role]?.window ?? { top: 0, left: 0 };
  }

  /** Moves the real cursor to the focused pane's (after the focus moved without a relayout). */
  placeCursor(): void {
    this.#write('');
  }

  /** The pane's screen changed (or its view scrolled): paint it at its next frame slot. */
  schedule(role: Role): void {
    this.#painters[role]?.schedule();
  }

  /** The role's agent was started again: its new screen gets a painter, sized to its box. */
  paneReplaced(role: Role): void {
    this.#dropPainter(role);
    this.relayout();
  }

  /** Another program takes the terminal: nothing is painted until `resume`. */
  suspend(): void {
    this.#suspended = true;
  }

  /** The terminal is relevo's again: everything is repainted. */
  resume(): void {
    this.#suspended = false;
    this.relayout();
  }

  /** Ends the painting (once: a start that failed disposes what a run may have disposed already). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#resize.cancel();
    for (const role of ROLES) this.#dropPainter(role);
    this.#chrome.dispose();
    this.#overlays.dispose();
  }

  #layoutFor(s: TuiState): Layout {
    return layout(this.#term.cols, this.#term.rows, CHROME_ROWS, s.focus, s.zoom);
  }

  #chromeNode(s: TuiState) {
    return <Chrome state={s} width={this.#view.chrome.width} />;
  }

  /** Nothing but a relayout may paint: a resize is waiting for its relayout, or the terminal is not relevo's. */
  get #held(): boolean {
    return this.#suspended || this.#disposed || this.#resize.pending || !fitsLayout(this.#term.cols, this.#term.rows);
  }

  /** A painter for the role's pane when it is shown, sized to its box (its agent's PTY too); none when it is hidden. */
  #painterFor(role: Role): PanePainter | undefined {
    const box = this.#view.panes[role];
    const agent = this.#agents?.[role];
    if (!box || !agent) {
      this.#dropPainter(role);
      return undefined;
    }
    agent.resize(box.inner.width, box.inner.height);
    const painter = this.#painters[role];
    if (painter) {
      painter.resize(box.inner);
      return painter;
    }
    const watch = agent.onResized?.(() => {
      if (!this.#resize.pending) this.relayout();
    });
    if (watch) this.#resizeWatch[role] = watch;
    // The focused pane's cursor goes inside each frame's synchronized-output bracket.
    this.#painters[role] = new PanePainter(this.#paneSink, agent.pane.screen, box.inner, {
      trailer: () => this.#cursorMove(),
      invert: (row) => copySpans(this.#store.state, role, this.#agents?.[role].pane.screen, row),
      inverting: () => copyOn(this.#store.state, role) !== null,
    });
    return this.#painters[role];
  }

  #dropPainter(role: Role): void {
    this.#painters[role]?.dispose();
    delete this.#painters[role];
    this.#resizeWatch[role]?.dispose();
    delete this.#resizeWatch[role];
  }

  /** Writes a part of relevo's own paint, followed by the cursor put back in the focused pane; nothing while painting is held. */
  #write(text: string): void {
    if (this.#held) return;
    this.#cursorShown = this.#cursor();
    this.#paint(text + this.#cursorShown);
  }

  /** relevo's own paint, NO_COLOR applied (never to an agent's screen). */
  #paint(text: string): void {
    if (this.#suspended || this.#disposed) return;
    this.#term.write(this.#store.state.color === false ? withoutColor(text) : text);
  }

  /** Where the panes go: the overlays cover it. */
  #paneArea() {
    return { top: 0, left: 0, width: this.#term.cols, height: this.#view.chrome.top };
  }

  /** Panes are not painted under an overlay (closing it repaints them whole), nor while a relayout is due. */
  readonly #paneSink = {
    write: (s: string) => {
      if (this.#store.state.overlay === 'none' && !this.#held) this.#term.write(s);
      else this.#cursorShown = '';
    },
  };

  /** The cursor sequence if the cursor is not already there, else ''. */
  #cursorMove(): string {
    const seq = this.#cursor();
    if (seq === this.#cursorShown) return '';
    this.#cursorShown = seq;
    return seq;
  }

  #cursor(): string {
    const s = this.#store.state;
    const painter = this.#painters[s.focus];
    if (painter === undefined) return HIDE_CURSOR;
    const copy = copyOn(this.#store.state, s.focus);
    if (copy === null) return painter.cursorSequence(s.overlay === 'none');
    // In copy mode the cursor is copy mode's own.
    const at = { row: copy.cursor.line - (this.#agents?.[s.focus].pane.screen.text.viewTop ?? 0), col: copy.cursor.col, visible: true };
    return painter.cursorSequence(s.overlay === 'none', at);
  }

  #paintChrome(): void {
    if (!this.#composing) this.#write(chromeLines(this.#view.chrome, this.#chrome.lines));
  }

  /** The pane frames with their titles and crop marks (none under the history panel, which covers them). */
  #frames(s: TuiState): string {
    this.#framesTitle = ROLES.map((r) => paneTitle(r, s)).join('|');
    if (s.overlay === 'history') return '';
    return ROLES.map((role) => {
      const box = this.#view.panes[role];
      return box ? paneFrame(box.frame, paneTitle(role, s), s.focus === role, this.#cropMark(role)) : '';
    }).join('');
  }

  /** The note on the role's pane when its screen is not its box's size (see `sizeNote`). */
  #cropMark(role: Role): string {
    const screen = this.#agents?.[role].pane.screen;
    const inner = this.#view.panes[role]?.inner;
    return screen === undefined || inner === undefined || this.#painters[role] === undefined ? '' : sizeNote(screen, inner);
  }

  /**
   * A store change: a new layout or overlay lays everything out again; otherwise the chrome
   * re-renders, an open history panel follows, changed titles repaint the frames, and copy mode's
   * changes repaint its pane.
   */
  #follow(s: TuiState): void {
    const was = this.#laidOut;
    const moved = s.overlay !== was.overlay || s.focus !== was.focus || s.zoom !== was.zoom;
    if (moved && (s.overlay !== was.overlay || JSON.stringify(this.#layoutFor(s)) !== JSON.stringify(this.#view))) {
      if (!this.#resize.pending) this.relayout();
      return;
    }
    this.#laidOut = s;
    this.#chrome.rerender(this.#chromeNode(s), this.#view.chrome.width);
    if (s.overlay === 'history' && s.history !== was.history) this.#write(this.#overlays.paint(s, this.#paneArea()));
    // The frames go under the help box: it is painted again over them.
    if (ROLES.map((r) => paneTitle(r, s)).join('|') !== this.#framesTitle)
      this.#write(this.#frames(s) + (s.overlay === 'help' ? this.#overlays.paint(s, this.#paneArea()) : ''));
    if (s.scroll !== was.scroll || s.copy !== was.copy || s.focus !== was.focus || s.peek !== was.peek)
      for (const role of ROLES) this.schedule(role);
  }
}
