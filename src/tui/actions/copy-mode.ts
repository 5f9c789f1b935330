import type { RelayRunner } from '../../app/run/runner.js';
import type { Role } from '../../protocol/index.js';
import { isEscape, splitKeys } from '../../pty/keys.js';
import type { Screen } from '../../pty/screen.js';
import { editLine, emptyLine } from '../input/line-editor.js';
import { columns } from '../paint/width.js';
import { type CopyState, type Direction, findMatch, type Point, selectionText } from '../state/copy-text.js';
import type { Store, TuiState } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';
import type { Compositor } from '../view/compositor.js';

export type CopyDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly compositor: Compositor;
  readonly toast: Toaster;
  /** Puts text on the person's clipboard (OSC 52 to relevo's terminal). */
  readonly clipboard: (text: string) => void;
};

/**
 * Copy mode on `screen` (the focused pane's): the view stays where it is, copy mode's cursor starts
 * where the program's is (or on the view's last row when the view does not show it).
 */
export function enterCopy(screen: Screen, leaveAtBottom = false): Pick<TuiState, 'scroll' | 'copy'> {
  const { viewTop, liveTop } = screen.text;
  const line = liveTop + screen.cursorRow;
  const shown = line >= viewTop && line < viewTop + screen.rows;
  const cursor = { line: shown ? line : viewTop + screen.rows - 1, col: shown ? screen.cursor().col : 0 };
  const copy: CopyState = { cursor, anchor: null, prompt: null, search: null, match: null, message: null, leaveAtBottom };
  return { scroll: screen.scrolledBack, copy };
}

/**
 * The focus moved: a view the wheel scrolled back while its pane was not focused stays where it is,
 * now in copy mode (a tmux pane in copy mode stays in it when selected); scrolling down to the live
 * screen leaves it.
 */
export function focusPeek(state: TuiState, screen: Screen): Partial<TuiState> {
  return state.peek?.role === state.focus ? { ...enterCopy(screen, true), peek: null } : {};
}

/** Out of copy mode: the view back on the live screen. */
export function leaveCopy(screen: Screen): Pick<TuiState, 'scroll' | 'copy'> {
  screen.scrollViewToBottom();
  return { scroll: null, copy: null };
}

export type CopyMode = {
  /** Keys while copy mode is on. */
  readonly keys: (data: string) => void;
  /** The wheel over the focused pane: `lines` up (negative) or down, entering copy mode when it is off. */
  readonly scroll: (lines: number) => void;
  /** A click inside the focused pane while copy mode is on: the cursor goes to that cell of its view. */
  readonly click: (row: number, col: number) => void;
  /**
   * A drag in the focused pane: copy mode (entered when off) selects from `anchor` (a buffer point)
   * to the cell at `row`, `col` of the view; a row just above or below the view scrolls it a line.
   */
  readonly drag: (anchor: Point, row: number, col: number) => void;
  /** The drag ended: its selection is copied and copy mode ends (tmux's MouseDragEnd1Pane, copy-pipe-and-cancel). */
  readonly dragEnd: () => void;
  /** The wheel over the pane that is not focused: only its view scrolls, keys stay with the focused pane; at its live screen it is live again. */
  readonly peek: (role: Role, lines: number) => void;
};

/**
 * Copy mode, as a tmux user knows it (vi keys): the cursor moves with the arrows or `h` `j` `k` `l`,
 * `0` `^` `$`, pages with PgUp/PgDn (`C-b` `C-f`, half: `C-u` `C-d`), `g` `G` go to the top of the
 * history and the bottom; `/` and `?` search forward and backward, `n` `N` again; `v` (or Space)
 * starts a selection at the cursor, `y` (or Enter) copies it through OSC 52 and leaves; `Esc` or `q`
 * leave. The view follows the cursor.
 */
export function copyMode(deps: CopyDeps): CopyMode {
  const { store, runner, compositor, toast, clipboard } = deps;
  const role = () => store.state.focus;
  const screenOf = () => runner.agents[role()].pane.screen;
  const page = () => Math.max(1, (compositor.view.panes[role()]?.inner.height ?? 2) - 1);

  /** The cursor at `to`, kept inside the buffer, with the view moved to show it. */
  const moved = (screen: Screen, copy: CopyState, to: Point): CopyState => {
    const { length, viewTop } = screen.text;
    const line = Math.max(0, Math.min(length - 1, to.line));
    const col = Math.max(0, Math.min(screen.cols - 1, to.col));
    if (line < viewTop) screen.scrollViewTo(line);
    else if (line >= viewTop + screen.rows) screen.scrollViewTo(line - screen.rows + 1);
    return { ...copy, cursor: { line, col } };
  };
  /** The view moved by `lines`, the cursor with it (it stays on its row of the view). */
  const scrolled = (screen: Screen, copy: CopyState, lines: number): CopyState => {
    const before = screen.text.viewTop;
    screen.scrollView(lines);
    const by = screen.text.viewTop - before;
    return moved(screen, copy, { line: copy.cursor.line + (by !== 0 ? by : lines), col: copy.cursor.col });
  };
  const find = (screen: Screen, copy: CopyState, query: string, dir: Direction): CopyState => {
    const at = findMatch(screen.text, query, copy.cursor, dir);
    const search = { dir, query };
    if (at === null) return { ...copy, search, match: null, message: `"${query}" not found` };
    return { ...moved(screen, copy, at), search, match: { at, width: Math.max(1, columns(query)) }, message: null };
  };
  const lineEnd = (screen: Screen, line: number) => Math.max(0, columns(screen.text.line(line).trimEnd()) - 1);
  const lineStart = (screen: Screen, line: number) => columns(/^\s*/.exec(screen.text.line(line))?.[0] ?? '');
  /** `y`: the selection to the clipboard, said in a toast, and copy mode ends (null); without one, it says so. */
  const yank = (screen: Screen, c: CopyState): CopyState | null => {
    if (c.anchor === null) return { ...c, message: 'nothing selected: v starts a selection' };
    const text = selectionText(screen.text, c.anchor, c.cursor);
    clipboard(text);
    toast(`copied ${Array.from(text).length} characters`);
    return null;
  };

  /** One key: the next state, or null when copy mode ends. */
  const key = (screen: Screen, copy: CopyState, k: string): CopyState | null => {
    if (copy.prompt !== null) {
      const r = editLine(copy.prompt.line, k, []);
      if ('state' in r) return { ...copy, prompt: { ...copy.prompt, line: r.state } };
      const closed = { ...copy, prompt: null };
      return 'submit' in r && r.submit !== '' ? find(screen, closed, r.submit, copy.prompt.dir) : closed;
    }
    const c = { ...copy, message: null };
    const { line, col } = c.cursor;
    const go = (to: Point) => moved(screen, c, to);
    switch (k) {
      case '\x1b[A':
      case '\x1bOA':
      case 'k':
        return go({ line: line - 1, col });
      case '\x1b[B':
      case '\x1bOB':
      case 'j':
        return go({ line: line + 1, col });
      case '\x1b[D':
      case '\x1bOD':
      case 'h':
        return go({ line, col: col - 1 });
      case '\x1b[C':
      case '\x1bOC':
      case 'l':
        return go({ line, col: col + 1 });
      case '0':
      case '\x1b[H':
        return go({ line, col: 0 });
      case '^':
        return go({ line, col: lineStart(screen, line) });
      case '$':
      case '\x1b[F':
        return go({ line, col: lineEnd(screen, line) });
      case '\x1b[5~':
      case '\x02':
        return scrolled(screen, c, -page());
      case '\x1b[6~':
      case '\x06':
        return scrolled(screen, c, page());
      case '\x15':
        return scrolled(screen, c, -Math.ceil(page() / 2));
      case '\x04':
        return scrolled(screen, c, Math.ceil(page() / 2));
      case 'g':
        return go({ line: 0, col: 0 });
      case 'G':
        return go({ line: screen.text.length - 1, col: 0 });
      case '/':
      case '?':
        return { ...c, prompt: { dir: k === '/' ? 'forward' : 'backward', line: emptyLine } };
      case 'n':
      case 'N': {
        if (c.search === null) return { ...c, message: 'no search yet: / or ? searches' };
        const back = (c.search.dir === 'forward') === (k === 'N');
        return { ...find(screen, c, c.search.query, back ? 'backward' : 'forward'), search: c.search };
      }
      case 'v':
      case ' ':
        return { ...c, anchor: c.anchor === null ? c.cursor : null };
      case 'y':
      case '\r':
        return yank(screen, c);
      case 'q':
      case '\x03':
        return null;
      default:
        return isEscape(k) ? null : c;
    }
  };

  /** The new state shown: in the store, the pane repainted, the real cursor on copy mode's. */
  const show = (screen: Screen, copy: CopyState | null) => {
    const r = role();
    store.update(copy === null ? leaveCopy(screen) : { scroll: screen.scrolledBack, copy });
    compositor.schedule(r);
    compositor.placeCursor();
  };
  const current = (screen: Screen) => store.state.copy ?? enterCopy(screen).copy!;

  return {
    keys: (data) => {
      const screen = screenOf();
      let copy: CopyState | null = current(screen);
      for (const k of splitKeys(data)) {
        copy = key(screen, copy, k);
        if (copy === null) break;
      }
      show(screen, copy);
    },
    scroll: (lines) => {
      const screen = screenOf();
      if (store.state.scroll === null) {
        if (lines > 0) return;
        store.update(enterCopy(screen, true));
      }
      const copy = scrolled(screen, current(screen), lines);
      // Back at the live screen with the wheel after the wheel brought copy mode: it ends (tmux's copy-mode -e).
      show(screen, copy.leaveAtBottom && copy.anchor === null && screen.scrolledBack === 0 && lines > 0 ? null : copy);
    },
    click: (row, col) => {
      const screen = screenOf();
      show(screen, moved(screen, current(screen), { line: screen.text.viewTop + row, col }));
    },
    drag: (anchor, row, col) => {
      const screen = screenOf();
      show(screen, { ...moved(screen, current(screen), { line: screen.text.viewTop + row, col }), anchor, match: null, message: null });
    },
    dragEnd: () => {
      const copy = store.state.copy;
      if (store.state.scroll === null || copy == null) return;
      const screen = screenOf();
      show(screen, yank(screen, copy));
    },
    peek: (role, lines) => {
      const screen = runner.agents[role].pane.screen;
      screen.scrollView(lines);
      const back = screen.scrolledBack;
      store.update({ peek: back === 0 ? null : { role, lines: back } });
      compositor.schedule(role);
    },
  };
}
