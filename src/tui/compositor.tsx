import { ROLES, type Role } from '../protocol/index.js';
import type { AgentPane } from '../pty/agent.js';
import Chrome, { MESSAGE_ROWS } from './components/Chrome.js';
import Help from './components/Help.js';
import History, { HISTORY_CHROME_ROWS } from './components/History.js';
import { type CopyState, spansOn } from './copy-text.js';
import { chromeLines, paneFrame } from './frame.js';
import { type Layout, layout } from './layout.js';
import { withoutColor } from './no-color.js';
import { OffscreenInk } from './offscreen.js';
import { PanePainter } from './painter.js';
import type { Store, TuiState } from './store.js';
import type { RealTerminal } from './terminal.js';

/** The message area (questions, toasts), the status band and the goal line (or the goal prompt). */
export const CHROME_ROWS = MESSAGE_ROWS + 2;

const STATE_NAME = { busy: 'working', idle: 'idle', blocked: 'blocked', exited: 'exited', unknown: 'starting' } as const;

/** A pane's title: `planner · claude · working · focus`. */
const title = (role: Role, s: TuiState) =>
  `${role} · ${s.agents[role].name} · ${STATE_NAME[s.agents[role].state]}${s.focus === role ? ' · focus' : ''}`;

/** Where the panes go on a terminal of this size before anything is focused or zoomed: the agents' first PTY size. */
export function firstLayout(cols: number, rows: number): Layout {
  return layout(cols, rows, CHROME_ROWS, 'planner', false);
}

/**
 * Paints the whole screen from three writers that never see each other: each agent's headless
 * screen (a PanePainter per visible pane, damage-tracked), the pane frames with their titles, and
 * relevo's chrome and help (Ink, rendered off screen, painted as lines into their rectangles).
 * Toasts live in the chrome's message area, never over a pane; the real cursor ends where the
 * focused agent's is. Views follow the store.
 */
export class Compositor {
  readonly #term: RealTerminal;
  readonly #store: Store;
  /** The agents' panes: none on the first frame, painted while the run opens (`attach`). */
  #agents: Readonly<Record<Role, AgentPane>> | null;
  readonly #painters: Partial<Record<Role, PanePainter>> = {};
  readonly #chrome: OffscreenInk;
  /** The help, rendered the first time it is opened (its Ink tree costs the first frame otherwise). */
  #help: OffscreenInk | null = null;
  /** The history panel, rendered while it is open. */
  #history: OffscreenInk | null = null;
  #view: Layout;
  /** While another program (an editor) has the terminal, relevo paints nothing. */
  #suspended = false;
  #disposed = false;
  /** The pane titles as last painted, to repaint the frames only when one changes. */
  #framesTitle = '';

  constructor(term: RealTerminal, store: Store, agents: Readonly<Record<Role, AgentPane>> | null = null) {
    this.#term = term;
    this.#store = store;
    this.#agents = agents;
    this.#view = layout(term.cols, term.rows, CHROME_ROWS, store.state.focus, store.state.zoom);
    this.#chrome = new OffscreenInk(<Chrome state={store.state} width={this.#view.chrome.width} />, this.#view.chrome.width);
    this.#chrome.onFrame(() => this.#paintChrome());
    store.onChange((s) => this.#follow(s));
  }

  get view(): Layout {
    return this.#view;
  }

  /** The agents have started: their panes are painted in their boxes from now on. */
  attach(agents: Readonly<Record<Role, AgentPane>>): void {
    this.#agents = agents;
    if (!this.#suspended) this.relayout();
  }

  /** Lays everything out again: the PTYs follow their boxes, and the whole screen is repainted. */
  relayout(): void {
    const s = this.#store.state;
    this.#view = layout(this.#term.cols, this.#term.rows, CHROME_ROWS, s.focus, s.zoom);
    if (!this.#suspended) this.#term.write('\x1b[0m\x1b[2J');
    for (const role of ROLES) {
      const box = this.#view.panes[role];
      const agent = this.#agents?.[role];
      if (!box || !agent) {
        this.#painters[role]?.dispose();
        delete this.#painters[role];
        continue;
      }
      agent.pane.resize(box.inner.width, box.inner.height);
      const painter = this.#painters[role];
      if (painter) painter.resize(box.inner);
      // The focused pane's cursor goes inside each frame's synchronized-output bracket.
      else
        this.#painters[role] = new PanePainter(this.#paneSink, agent.pane.screen, box.inner, {
          trailer: () => this.#cursor(),
          invert: (row) => this.#spans(role, row),
          inverting: () => this.#copy(role) !== null,
        });
      this.#painters[role]!.invalidate();
    }
    this.#paintFrames();
    this.#chrome.resize(this.#view.chrome.width);
    this.#paintChrome();
    if (s.overlay === 'help') this.paintHelp();
    if (s.overlay === 'history') this.#paintHistory(s, true);
  }

  /** How many entries (or body lines) the history panel shows at once. */
  historyRows(): number {
    return Math.max(1, this.#view.chrome.top - HISTORY_CHROME_ROWS);
  }

  /** The history panel over the whole pane area; `fresh` repaints it even if Ink has no new frame. */
  #paintHistory(s: TuiState, fresh = false): void {
    if (!s.history) return;
    const rect = { top: 0, left: 0, width: this.#term.cols, height: this.#view.chrome.top };
    const node = <History view={s.history} width={rect.width} height={rect.height} />;
    if (this.#history === null) {
      this.#history = new OffscreenInk(node, rect.width);
      this.#history.onFrame((lines) => this.#write(chromeLines(rect, lines)));
    } else {
      this.#history.resize(rect.width);
      this.#history.rerender(node);
    }
    if (fresh) this.#write(chromeLines(rect, this.#history.lines));
  }

  /** The help, centred over the panes (they are not painted while it is open). */
  paintHelp(): void {
    const width = this.#helpWidth();
    this.#help ??= new OffscreenInk(<Help prefix={this.#store.state.prefix} />, width);
    const lines = this.#help.lines;
    const top = Math.max(0, Math.floor((this.#view.chrome.top - lines.length) / 2));
    const left = Math.max(0, Math.floor((this.#term.cols - width) / 2));
    this.#write(chromeLines({ top, left, width, height: lines.length }, lines));
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
    this.#painters[role]?.dispose();
    delete this.#painters[role];
    if (!this.#suspended) this.relayout();
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
    for (const role of ROLES) this.#painters[role]?.dispose();
    this.#chrome.dispose();
    this.#help?.dispose();
    this.#history?.dispose();
  }

  /** Chrome and help: each write ends with the cursor put back in the focused pane. */
  #write(text: string): void {
    this.#writeRaw(this.#store.state.color === false ? withoutColor(text) : text);
  }

  #writeRaw(s: string): void {
    if (!this.#suspended) this.#term.write(s + this.#cursor());
  }

  /** Panes are not painted under an overlay; closing it repaints them whole. */
  readonly #paneSink = {
    write: (s: string) => (this.#store.state.overlay === 'none' && !this.#suspended ? this.#term.write(s) : undefined),
  };

  #cursor(): string {
    const s = this.#store.state;
    const copy = this.#copy(s.focus);
    if (copy === null) return this.#painters[s.focus]?.cursorSequence(s.overlay === 'none') ?? '';
    // In copy mode the cursor is copy mode's own.
    const at = { row: copy.cursor.line - (this.#agents?.[s.focus].pane.screen.text.viewTop ?? 0), col: copy.cursor.col, visible: true };
    return this.#painters[s.focus]?.cursorSequence(s.overlay === 'none', at) ?? '';
  }

  /** Copy mode's state, when it is on the role's pane. */
  #copy(role: Role): CopyState | null {
    const s = this.#store.state;
    return s.scroll !== null && s.focus === role ? (s.copy ?? null) : null;
  }

  /** What copy mode shows in reverse video on a row of the role's view. */
  #spans(role: Role, row: number) {
    const copy = this.#copy(role);
    if (copy === null) return undefined;
    const screen = this.#agents?.[role].pane.screen;
    if (screen === undefined) return undefined;
    return spansOn(copy, screen.text.viewTop + row, screen.cols);
  }

  #paintChrome(): void {
    this.#write(chromeLines(this.#view.chrome, this.#chrome.lines));
  }

  #paintFrames(): void {
    const s = this.#store.state;
    this.#framesTitle = ROLES.map((r) => title(r, s)).join('|');
    for (const role of ROLES) {
      const box = this.#view.panes[role];
      if (box && !this.#suspended) this.#write(paneFrame(box.frame, title(role, s), s.focus === role));
    }
  }

  #helpWidth(): number {
    return Math.min(90, this.#term.cols);
  }

  /** A store change: the chrome re-renders, a changed title repaints the frames. */
  #follow(s: TuiState): void {
    this.#chrome.rerender(<Chrome state={s} width={this.#view.chrome.width} />);
    if (s.overlay === 'history') this.#paintHistory(s, this.#history === null);
    else if (this.#history !== null) {
      this.#history.dispose();
      this.#history = null;
    }
    const titles = ROLES.map((r) => title(r, s)).join('|');
    if (titles !== this.#framesTitle && s.overlay === 'none') {
      this.#framesTitle = titles;
      this.#paintFrames();
    }
  }
}
