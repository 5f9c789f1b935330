/**
 * The whole-screen oracle: relevo's compositor writing into a headless terminal emulator that
 * stands for the person's terminal, driven by a seeded walk of what happens to a TUI (resizes,
 * agent output, toasts, overlays, the goal prompt, copy mode, focus and zoom, the relay's state),
 * and after every step compared cell for cell with a compositor that paints the same state from
 * scratch at the same size.
 */
import { EventEmitter } from 'node:events';
import stripAnsi from 'strip-ansi';
import { vi } from 'vitest';
import { ROLES, type Role } from '../../src/protocol/index.js';
import { Screen } from '../../src/pty/screen.js';
import { copyMode, enterCopy, leaveCopy } from '../../src/tui/actions/copy-mode.js';
import { editLine, emptyLine } from '../../src/tui/input/line-editor.js';
import { type HistoryView, historyKeys } from '../../src/tui/state/handoff-history.js';
import { Store, type TuiState } from '../../src/tui/state/store.js';
import { Compositor, firstLayout, type PaneViews } from '../../src/tui/view/compositor.js';
import { RealTerminal } from '../../src/tui/view/terminal.js';
import { type Step, stepText } from './oracle-steps.js';
import { quietStdin, stub } from './stub.js';
import { tuiState } from './tui-state.js';

/** The person's terminal: what relevo writes is parsed in order, at the size the terminal had then. */
export class PersonTerminal extends EventEmitter {
  readonly isTTY = true;
  columns: number;
  rows: number;
  readonly screen: Screen;
  #unparsed: string[] = [];

  /** `margin`: the emulator is that much wider and taller than the size relevo is told, so a paint past the edge shows. */
  constructor(cols: number, rows: number, margin = 0) {
    super();
    this.columns = cols;
    this.rows = rows;
    this.screen = new Screen({ cols: cols + margin, rows: rows + margin, scrollback: 0 });
  }

  /** Whole-screen clears relevo wrote (each relayout starts with one). */
  clears = 0;

  write(data: string): boolean {
    this.#unparsed.push(data);
    this.clears += data.split('\x1b[2J').length - 1;
    return true;
  }

  async parse(): Promise<void> {
    const data = this.#unparsed.splice(0).join('');
    if (data !== '') await this.screen.write(data);
  }

  /**
   * The window changes size: what relevo wrote before is parsed only now, at the new size (a
   * resize races relevo's writes), then relevo hears of it.
   */
  async resize(cols: number, rows: number): Promise<void> {
    this.screen.resize(cols, rows);
    this.columns = cols;
    this.rows = rows;
    await this.parse();
    this.emit('resize');
  }
}

/** An agent's pane as the compositor sees it: a real screen, sized by relevo as a PTY would be. */
class TestPane {
  readonly screen: Screen;
  constructor(cols: number, rows: number) {
    this.screen = new Screen({ cols, rows, scrollback: 200 });
  }
  resize(cols: number, rows: number): void {
    if (cols !== this.screen.cols || rows !== this.screen.rows) this.screen.resize(cols, rows);
  }
}

type Size = { readonly cols: number; readonly rows: number };
/** Each agent's pane, sized as AgentPane sizes it: never below its CLI's minimum. */
type Panes = Readonly<Record<Role, { readonly pane: TestPane; resize(cols: number, rows: number): void }>>;

/** One compositor on one person's terminal. */
export type Tui = {
  readonly person: PersonTerminal;
  readonly store: Store;
  readonly compositor: Compositor;
};

/** relevo's compositor painting `state` (and the agents' `panes`, once given) into a person's terminal of `cols`×`rows`. */
export function openTui(cols: number, rows: number, state: TuiState, panes: PaneViews | null, margin = 0): Tui {
  const person = new PersonTerminal(cols, rows, margin);
  const term = new RealTerminal({ stdin: quietStdin(), stdout: stub<NodeJS.WriteStream>(person) });
  const store = new Store(state);
  term.enter();
  const compositor = new Compositor(term, store);
  compositor.relayout();
  if (panes !== null) compositor.attach(panes);
  return { person, store, compositor };
}

export function closeTui(tui: Tui): void {
  tui.compositor.dispose();
  tui.store.dispose();
  tui.person.screen.dispose();
}

/** Lets every timer, immediate and paint the steps armed run, then parses what was written. */
async function settle(tui: Tui): Promise<void> {
  await vi.advanceTimersByTimeAsync(500);
  await tui.person.parse();
}

export type Divergence = { readonly step: number; readonly what: string };

/** The relevo under test, with its agents, driven step by step. */
export class OracleRun {
  readonly #panes: Panes;
  readonly #tui: Tui;
  readonly #copy: ReturnType<typeof copyMode>;
  #toastId = 0;
  /** How many steps of each kind could happen and were done. */
  readonly done = new Map<Step['kind'], number>();
  /** What went wrong in the middle of a step (a regrow's shrunk screen), for the check after it. */
  #wrongWithin: string | null = null;

  /** `minSize`: the smallest terminal the agents' CLIs are given (a smaller pane is a cropped window onto it). */
  constructor(cols: number, rows: number, minSize?: Size) {
    const inner = firstLayout(cols, rows).panes.planner!.inner;
    const least = minSize ?? { cols: 1, rows: 1 };
    const pane = () => {
      const test = new TestPane(Math.max(inner.width, least.cols), Math.max(inner.height, least.rows));
      return { pane: test, resize: (c: number, r: number) => test.resize(Math.max(c, least.cols), Math.max(r, least.rows)) };
    };
    this.#panes = { planner: pane(), builder: pane() };
    this.#tui = openTui(cols, rows, tuiState(), this.#panes);
    this.#tui.person.on('resize', () => this.#tui.compositor.resized());
    const { store, compositor } = this.#tui;
    const runner = { agents: this.#panes } as never;
    this.#copy = copyMode({ store, runner, compositor, toast: (text) => this.#toast(text), clipboard: () => {} });
  }

  get state(): TuiState {
    return this.#tui.store.state;
  }

  /** The screen of the agent in `role`. */
  screen(role: Role): Screen {
    return this.#panes[role].pane.screen;
  }

  #toast(text: string): void {
    const id = ++this.#toastId;
    this.#tui.store.update((s) => ({ toasts: [...s.toasts.slice(-4), { id, text, level: 'info' }] }));
  }

  /** Whether `step` can happen with what is on screen now (a shrunk walk may hold steps that cannot). */
  #possible(step: Step): boolean {
    const s = this.state;
    const bare = s.overlay === 'none' && s.scroll === null && s.prompt === null;
    switch (step.kind) {
      case 'help':
        return step.open ? s.overlay === 'none' : s.overlay === 'help';
      case 'history-open':
        return s.overlay === 'none';
      case 'history-keys':
        return s.overlay === 'history' && s.history != null;
      case 'prompt':
        return step.keys === null ? bare : s.prompt !== null && s.overlay === 'none';
      case 'copy':
        return step.keys === null ? bare : s.scroll !== null && s.overlay === 'none';
      case 'focus':
      case 'zoom':
      case 'peek':
        return s.overlay === 'none';
      case 'drag':
        return s.overlay === 'none' && s.prompt === null;
      default:
        return true;
    }
  }

  /** Does what the TUI does for `step` (the same store changes and compositor calls as app.tsx and its modules). */
  async apply(step: Step): Promise<void> {
    if (!this.#possible(step)) return;
    this.done.set(step.kind, (this.done.get(step.kind) ?? 0) + 1);
    const { store, compositor, person } = this.#tui;
    switch (step.kind) {
      case 'resize':
        for (const [cols, rows] of step.sizes) await person.resize(cols, rows);
        break;
      case 'output':
        await this.screen(step.role).write(step.text);
        compositor.schedule(step.role);
        break;
      case 'regrow':
        await this.#regrow(step.text, step.shrink);
        break;
      case 'toast':
        this.#toast(step.text);
        break;
      case 'expire':
        store.update((s) => ({ toasts: s.toasts.slice(1) }));
        break;
      case 'help':
        store.update({ overlay: step.open ? 'help' : 'none' });
        break;
      case 'history-open':
        store.update({ overlay: 'history', history: step.view, scroll: null });
        break;
      case 'history-keys': {
        const next = historyKeys(store.state.history!, step.keys, compositor.historyRows(), compositor.view.chrome.width);
        store.update(next === null ? { overlay: 'none', history: null } : { history: next });
        break;
      }
      case 'prompt':
        if (step.keys === null) store.update({ prompt: emptyLine });
        else
          for (const key of step.keys) {
            const line = store.state.prompt;
            if (line === null) break;
            const result = editLine(line, key, []);
            store.update({ prompt: 'state' in result ? result.state : null });
          }
        break;
      case 'copy':
        if (step.keys === null) store.update(enterCopy(this.screen(store.state.focus)));
        else this.#copy.keys(step.keys);
        break;
      case 'focus': {
        const was = store.state.focus;
        if (store.state.scroll !== null) store.update(leaveCopy(this.screen(was)));
        store.update({ focus: was === 'planner' ? 'builder' : 'planner' });
        break;
      }
      case 'zoom':
        store.update((s) => ({ zoom: !s.zoom }));
        break;
      case 'peek':
        this.#copy.peek(store.state.focus === 'planner' ? 'builder' : 'planner', step.lines);
        break;
      case 'drag': {
        const screen = this.screen(store.state.focus);
        this.#copy.drag({ line: screen.text.viewTop + step.from[0], col: step.from[1] }, step.to[0], step.to[1]);
        if (step.end) this.#copy.dragEnd();
        break;
      }
      case 'relay':
        store.update((s) => ({ relay: { ...s.relay, ...step.relay } }));
        break;
      case 'agent':
        store.update((s) => ({ agents: { ...s.agents, [step.role]: { ...s.agents[step.role], state: step.state } } }));
        break;
      case 'chrome':
        store.update(step.patch);
        break;
    }
  }

  /**
   * The focused agent writes `text`, the window shrinks to `shrink` (checked there), the agent
   * redraws its box below the cursor, and the window grows back:
   * its screen then shows again the rows it showed before down to the cursor's, right above the
   * cursor (a shrink drops the rows below the cursor, so a grow may pull older lines in on top, as in tmux).
   */
  async #regrow(text: string, [cols, rows]: readonly [number, number]): Promise<void> {
    const { person, store } = this.#tui;
    const screen = this.screen(store.state.focus);
    await screen.write(text);
    this.#tui.compositor.schedule(store.state.focus);
    const before = screen.snapshot().viewport.slice(0, screen.cursorRow + 1);
    const height = screen.rows;
    const [wide, tall] = [person.columns, person.rows];
    await person.resize(cols, rows);
    this.#wrongWithin = await this.check();
    // The agent redraws its box at the new size, as inline CLIs do: a row below the cursor again.
    await screen.write(`\r\n${'─'.repeat(10)}\x1b[A\r`);
    this.#tui.compositor.schedule(store.state.focus);
    await person.resize(wide, tall);
    await settle(this.#tui);
    const top = screen.cursorRow + 1 - before.length;
    const after = screen.snapshot().viewport.slice(Math.max(0, top), screen.cursorRow + 1);
    // Grown back to a terminal below relevo's minimum, the panes are not laid out: the screen stays small.
    if (this.#wrongWithin === null && screen.rows >= height && (top < 0 || after.join('\n') !== before.join('\n')))
      this.#wrongWithin = `after growing back, the pane shows\n${after.join('\n')}\n--- instead of\n${before.join('\n')}`;
  }

  /** The person's terminal once everything armed has run: its rows as text, and how many times relevo cleared it. */
  async shown(): Promise<{ readonly rows: readonly string[]; readonly clears: number }> {
    await settle(this.#tui);
    return { rows: this.#tui.person.screen.snapshot().viewport, clears: this.#tui.person.clears };
  }

  /** After a step has settled: where the person's terminal differs from a fresh paint of the same state, or null. */
  async check(): Promise<string | null> {
    const within = this.#wrongWithin;
    this.#wrongWithin = null;
    if (within !== null) return within;
    await settle(this.#tui);
    const live = this.#tui.person;
    const fresh = openTui(live.columns, live.rows, this.#tui.store.state, this.#panes, MARGIN);
    try {
      await settle(fresh);
      return outside(fresh.person) ?? difference(live.screen, fresh.person.screen);
    } finally {
      closeTui(fresh);
    }
  }

  close(): void {
    closeTui(this.#tui);
    for (const role of ROLES) this.#panes[role].pane.screen.dispose();
  }
}

/** Columns and rows past the edge of the fresh paint's terminal, where nothing may be painted. */
export const MARGIN = 12;

/** Where a fresh paint reached past the terminal's edge (it would wrap or scroll a real one), or null. */
export function outside(person: PersonTerminal): string | null {
  const { screen, columns, rows } = person;
  for (let y = 0; y < screen.rows; y++) {
    const past = y < rows ? screen.styledRow(y, MARGIN, columns) : screen.styledRow(y, screen.cols);
    if (stripAnsi(past).trim() !== '')
      return `a fresh paint at ${columns}×${rows} reached past the edge on row ${y}: ${JSON.stringify(stripAnsi(past))}`;
  }
  return null;
}

/** The first row (text and attributes) or cursor in which two terminals differ, shown with both screens; null when equal. */
export function difference(live: Screen, fresh: Screen): string | null {
  const rows: number[] = [];
  for (let y = 0; y < live.rows; y++) if (live.styledRow(y, live.cols) !== fresh.styledRow(y, live.cols)) rows.push(y);
  const [a, b] = [live.cursor(), fresh.cursor()];
  const cursor = a.visible !== b.visible || (a.visible && (a.row !== b.row || a.col !== b.col));
  if (rows.length === 0 && !cursor) return null;
  const show = (s: Screen) =>
    s
      .snapshot()
      .viewport.map((line, y) => `${String(y).padStart(2)}${rows.includes(y) ? '!' : '|'}${line}`)
      .join('\n');
  const where =
    rows.length > 0 ? `rows ${rows.join(', ')} differ` : `the cursor differs (${JSON.stringify(a)} against ${JSON.stringify(b)})`;
  return `${where} at ${live.cols}×${live.rows}\n--- the person's terminal\n${show(live)}\n--- a fresh paint\n${show(fresh)}`;
}

/** Runs `steps` on a new relevo at `cols`×`rows`; the first step after which the screen is wrong, or null. */
export async function walk(cols: number, rows: number, steps: readonly Step[]): Promise<Divergence | null> {
  const run = new OracleRun(cols, rows);
  try {
    for (let i = 0; i < steps.length; i++) {
      await run.apply(steps[i]!);
      const wrong = await run.check();
      if (wrong !== null) return { step: i, what: wrong };
    }
    return null;
  } finally {
    run.close();
  }
}

/**
 * The shortest step list found that still goes wrong: steps are taken out, in chunks and then one
 * at a time, as long as the walk still diverges (for `ms` at most, so a failure reports in reasonable time).
 */
export async function shrink(cols: number, rows: number, steps: readonly Step[], ms = 60_000): Promise<readonly Step[]> {
  // Date, not performance: the oracle fakes performance, never Date.
  const deadline = Date.now() + ms;
  let kept = [...steps];
  const first = await walk(cols, rows, kept);
  if (first !== null) kept = kept.slice(0, first.step + 1);
  for (let chunk = Math.max(1, Math.floor(kept.length / 2)); chunk >= 1; chunk = Math.floor(chunk / 2)) {
    for (let at = 0; at < kept.length && Date.now() < deadline; ) {
      const fewer = [...kept.slice(0, at), ...kept.slice(at + chunk)];
      const diverged = await walk(cols, rows, fewer);
      if (diverged !== null) kept = fewer.slice(0, diverged.step + 1);
      else at += chunk;
    }
  }
  return kept;
}

/** A failure's report: the seed, the shortest steps that reproduce it, and what differed. */
export async function report(seed: number, cols: number, rows: number, steps: readonly Step[], found: Divergence): Promise<string> {
  const shortest = await shrink(cols, rows, steps);
  const again = await walk(cols, rows, shortest);
  const lines = shortest.map((s, i) => `  ${i}: ${stepText(s)}`);
  return [
    `seed ${seed}: the screen went wrong after step ${found.step} of the walk, starting at ${cols}×${rows}`,
    `the shortest steps found that reproduce it (${shortest.length}):`,
    ...lines,
    again?.what ?? found.what,
  ].join('\n');
}

export type { HistoryView };
