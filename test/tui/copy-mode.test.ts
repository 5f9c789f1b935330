/**
 * Copy mode and the mouse through the TUI's input router, the real prefix commands and real
 * headless screens (only the runner and the compositor are stand-ins).
 */
import { describe, expect, it } from 'vitest';
import type { RelayRunner } from '../../src/app/run/runner.js';
import type { Role } from '../../src/protocol/index.js';
import { Screen } from '../../src/pty/screen.js';
import { commandRunner } from '../../src/tui/actions/commands.js';
import { inputRouter } from '../../src/tui/actions/input-router.js';
import { KeyRouter } from '../../src/tui/input/keyboard.js';
import { layout } from '../../src/tui/paint/layout.js';
import type { HistoryView } from '../../src/tui/state/handoff-history.js';
import { Store } from '../../src/tui/state/store.js';
import type { Compositor } from '../../src/tui/view/compositor.js';
import { stub } from '../helpers/stub.js';
import { tuiState } from '../helpers/tui-state.js';

/** Both panes side by side on a 160×11 terminal: each agent's screen is 78×5, with 20 lines printed. */
/** `shown`: the part of each agent's screen its pane shows (a cropped pane's window). */
async function tui(shown = { top: 0, left: 0 }) {
  const screens = { planner: new Screen({ cols: 78, rows: 5 }), builder: new Screen({ cols: 78, rows: 5 }) };
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\r\n');
  await Promise.all([screens.planner.write(lines), screens.builder.write(lines)]);
  const typed: string[] = [];
  const written: Record<Role, string[]> = { planner: [], builder: [] };
  const agent = (role: Role) => ({
    type: (d: string) => typed.push(d),
    typePaste: (t: string) => typed.push(`paste:${t}`),
    pane: { screen: screens[role], write: (d: string) => written[role].push(d) },
  });
  const runner = stub<RelayRunner>({
    state: { phase: 'running' },
    agents: { planner: agent('planner'), builder: agent('builder') },
  });
  const store = new Store(tuiState());
  const view = layout(160, 11, 4, 'planner', false);
  const compositor = stub<Compositor>({ view, schedule: () => {}, placeCursor: () => {}, relayout: () => {}, window: () => shown });
  const toasts: string[] = [];
  const toast = (t: string) => void toasts.push(t);
  const run = commandRunner({
    store,
    runner,
    toast,
    finish: () => {},
    editPending: async () => {},
    readHistory: () => ({}) as HistoryView,
  });
  const copied: string[] = [];
  const route = inputRouter({
    store,
    runner,
    compositor,
    toast,
    keys: new KeyRouter('\x1d'),
    run,
    promptKeys: () => {},
    clipboard: (t) => copied.push(t),
  });
  return { screens, store, route, typed, written, toasts, copied };
}

describe('copy mode', () => {
  it('starts at the pane cursor, searches forward and back with n N, says what is not found, selects with v and copies with y', async () => {
    const { screens, store, route, typed, toasts, copied } = await tui();
    const screen = screens.planner;
    route('\x1d[');
    expect(store.state.scroll).toBe(0);
    expect(store.state.copy?.cursor).toEqual({ line: 19, col: 7 });
    route('/line 1\r');
    expect(store.state.copy).toMatchObject({ cursor: { line: 1, col: 0 }, match: { at: { line: 1, col: 0 }, width: 6 } });
    // The view went back to show the match.
    expect(screen.text.viewTop).toBe(1);
    expect(store.state.scroll).toBe(14);
    route('n');
    expect(store.state.copy?.cursor).toEqual({ line: 10, col: 0 });
    route('N');
    expect(store.state.copy?.cursor).toEqual({ line: 1, col: 0 });
    route('?zzz');
    expect(store.state.copy?.prompt?.line.text).toBe('zzz');
    route('\r');
    expect(store.state.copy).toMatchObject({ cursor: { line: 1, col: 0 }, message: '"zzz" not found', prompt: null });
    route('vllllj');
    expect(store.state.copy).toMatchObject({ anchor: { line: 1, col: 0 }, cursor: { line: 2, col: 4 }, message: null });
    route('y');
    expect(copied).toEqual(['line 1\nline']);
    expect(toasts).toEqual(['copied 11 characters']);
    expect(store.state.scroll).toBeNull();
    expect(screen.scrolledBack).toBe(0);
    expect(typed).toEqual([]);
  });

  it('g G go to the top and the bottom, the view follows the cursor, and Esc (alone or glued to a key) leaves', async () => {
    const { screens, store, route } = await tui();
    route('\x1d[');
    route('g');
    expect(store.state.copy?.cursor).toEqual({ line: 0, col: 0 });
    expect(screens.planner.scrolledBack).toBe(15);
    route('G');
    expect(store.state.copy?.cursor).toEqual({ line: 19, col: 0 });
    expect(store.state.scroll).toBe(0);
    // A page is the pane's height less one line: 4 here.
    route('\x1b[5~k');
    expect(store.state.scroll).toBe(4);
    expect(store.state.copy?.cursor).toEqual({ line: 14, col: 0 });
    route('\x1bk');
    expect(store.state.scroll).toBeNull();
    expect(screens.planner.scrolledBack).toBe(0);
    route('\x1d[');
    route('y');
    expect(store.state.copy?.message).toBe('nothing selected: v starts a selection');
  });

  it('paints the selection and the match in reverse video', async () => {
    const screen = new Screen({ cols: 10, rows: 2 });
    await screen.write('abcdef');
    expect(screen.styledRow(0, 10, 0, undefined, [{ from: 1, to: 3 }])).toBe('a\x1b[7mbc\x1b[0mdef    \x1b[0m');
  });
});

describe('the mouse', () => {
  const wheel = (up: boolean, x: number, y: number) => `\x1b[<${up ? 64 : 65};${x};${y}M`;

  it('a click focuses a pane; the wheel over the focused pane scrolls it in copy mode, which scrolling back down leaves', async () => {
    const { screens, store, route, typed } = await tui();
    route('\x1b[<0;100;3M\x1b[<0;100;3m');
    expect(store.state.focus).toBe('builder');
    route('\x1b[<0;10;3M\x1b[<0;10;3m');
    expect(store.state).toMatchObject({ focus: 'planner', scroll: null });
    route(wheel(true, 10, 3));
    expect(store.state).toMatchObject({ focus: 'planner', scroll: 3 });
    expect(screens.planner.scrolledBack).toBe(3);
    route(wheel(true, 10, 3) + wheel(false, 10, 3));
    expect(store.state.scroll).toBe(3);
    route(wheel(false, 10, 3));
    expect(store.state.scroll).toBeNull();
    // In copy mode a click in its pane moves copy mode's cursor there (the screen's row 2, column 9 here).
    route('\x1d[');
    route('\x1b[<0;10;3M\x1b[<0;10;3m');
    expect(store.state.copy?.cursor).toEqual({ line: 16, col: 8 });
    route('q');
    // Over relevo's chrome (the rows below the panes) the mouse does nothing.
    route(`\x1b[<0;100;10M${wheel(true, 100, 10)}`);
    expect(store.state).toMatchObject({ focus: 'planner', scroll: null });
    expect(typed).toEqual([]);
  });

  it('the wheel over the pane not focused scrolls its view only: keys stay with the focused pane, and back at the bottom it is live', async () => {
    const { screens, store, route, typed } = await tui();
    route(wheel(true, 100, 3) + wheel(true, 100, 3));
    expect(store.state).toMatchObject({ focus: 'planner', scroll: null, peek: { role: 'builder', lines: 6 } });
    expect(screens.builder.scrolledBack).toBe(6);
    expect(screens.planner.scrolledBack).toBe(0);
    route('x');
    expect(typed).toEqual(['x']);
    route(wheel(false, 100, 3));
    expect(store.state.peek).toEqual({ role: 'builder', lines: 3 });
    route(wheel(false, 100, 3));
    expect(store.state.peek).toBeNull();
    expect(screens.builder.scrolledBack).toBe(0);
    // Copy mode on the focused pane goes on while the other one is scrolled.
    route('\x1d[');
    route(wheel(true, 100, 3));
    expect(store.state).toMatchObject({ focus: 'planner', scroll: 0, peek: { role: 'builder', lines: 3 } });
    route('k');
    expect(store.state.copy?.cursor).toEqual({ line: 18, col: 7 });
    // Focused, the scrolled pane keeps its view, in copy mode, which the wheel down to the bottom leaves.
    route('\x1b[<0;100;3M');
    route('\x1b[<0;100;3m');
    expect(store.state).toMatchObject({ focus: 'builder', scroll: 3, peek: null });
    expect(screens.planner.scrolledBack).toBe(0);
    route(wheel(false, 100, 3));
    expect(store.state.scroll).toBeNull();
    expect(screens.builder.scrolledBack).toBe(0);
  });

  it('a drag selects from the press to the pointer, in copy mode on that pane, and letting go copies it and leaves', async () => {
    const { screens, store, route, toasts, copied } = await tui();
    // A plain click selects nothing.
    route('\x1b[<0;5;3M\x1b[<0;5;3m');
    expect(store.state.scroll).toBeNull();
    // Pressed on the planner screen's row 1, column 3 ("line 16"), dragged to row 2, column 6 ("line 17").
    route('\x1b[<0;5;3M\x1b[<32;6;3M\x1b[<32;8;4M');
    expect(store.state).toMatchObject({ focus: 'planner', scroll: 0 });
    expect(store.state.copy).toMatchObject({ anchor: { line: 16, col: 3 }, cursor: { line: 17, col: 6 } });
    route('\x1b[<0;8;4m');
    expect(copied).toEqual(['e 16\nline 17']);
    expect(toasts).toEqual(['copied 12 characters']);
    expect(store.state.scroll).toBeNull();
    // On the builder's pane: the press focuses it; past its top edge (onto the frame) the view scrolls a line a move.
    route('\x1b[<0;83;3M\x1b[<32;83;2M\x1b[<32;83;1M\x1b[<32;84;1M');
    expect(store.state).toMatchObject({ focus: 'builder', scroll: 2 });
    expect(screens.builder.scrolledBack).toBe(2);
    expect(store.state.copy).toMatchObject({ anchor: { line: 16, col: 1 }, cursor: { line: 13, col: 2 } });
    // Let go over the chrome: the drag is still the builder's.
    route('\x1b[<0;120;10m');
    expect(copied[1]).toBe('ne 13\nline 14\nline 15\nli');
    expect(store.state.scroll).toBeNull();
    expect(screens.builder.scrolledBack).toBe(0);
  });

  it('an agent that asked for the mouse gets it in its own coordinates and encoding, and its clicks still focus it', async () => {
    const { screens, store, route, typed, written } = await tui();
    await screens.builder.write('\x1b[?1000h\x1b[?1006h');
    // Column 100, row 3 of the terminal is the builder screen's column 19 (its frame starts at 80), row 2.
    route(wheel(true, 100, 3));
    expect(written.builder).toEqual(['\x1b[<64;19;2M']);
    expect(store.state).toMatchObject({ focus: 'planner', scroll: null });
    route('\x1b[<0;100;3M\x1b[<0;100;3m');
    expect(written.builder.slice(1)).toEqual(['\x1b[<0;19;2M', '\x1b[<0;19;2m']);
    expect(store.state.focus).toBe('builder');
    // Its frame is relevo's: the wheel there scrolls the pane.
    route(wheel(true, 100, 1));
    expect(store.state.scroll).toBe(3);
    // In copy mode, the wheel inside the pane scrolls it too.
    route(wheel(true, 100, 3));
    expect(store.state.scroll).toBe(6);
    expect(written.builder).toHaveLength(3);
    // A paste is never read as mouse reports.
    route('\x1b');
    route('\x1b[200~\x1b[<0;100;3M\x1b[201~');
    expect(typed).toEqual(['paste:\x1b[<0;100;3M']);
    expect(written.builder).toHaveLength(3);
  });

  it('a cropped pane: the agent hears the cell of its own screen, the window offset added', async () => {
    const { screens, route, written } = await tui({ top: 11, left: 20 });
    await screens.builder.write('\x1b[?1000h\x1b[?1006h');
    route('\x1b[<0;100;3M');
    expect(written.builder).toEqual(['\x1b[<0;39;13M']);
  });
});
