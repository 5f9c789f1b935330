import type { Role } from '../../protocol/index.js';
import type { Rect } from '../paint/layout.js';
import { clip, columns, fit } from '../paint/width.js';
import type { TuiState } from '../state/store.js';

const STATE_NAME = {
  busy: 'working',
  idle: 'idle',
  blocked: 'blocked',
  limited: 'limited',
  exited: 'exited',
  unknown: 'starting',
} as const;

/**
 * A pane's title: `planner · claude · working · focus`, `zoomed` while it is, and `12 lines up` while
 * the wheel holds its view back unfocused.
 */
export const paneTitle = (role: Role, s: TuiState): string =>
  `${role} · ${s.agents[role].name} · ${STATE_NAME[s.agents[role].state]}${s.peek?.role === role ? ` · ${s.peek.lines} lines up` : ''}${s.focus === role ? ' · focus' : ''}${s.zoom ? ' · zoomed' : ''}`;

const at = (row: number, col: number) => `\x1b[${row + 1};${col + 1}H`;

/**
 * The bottom border's note on a pane whose agent's terminal is not the box's size: `cropped 80×24`
 * for a window onto a larger one (its CLI's minimum), `80×24` for a smaller one (a size that waits
 * for the agent's turn to end), else ''.
 */
export function sizeNote(
  screen: { readonly cols: number; readonly rows: number },
  box: { readonly width: number; readonly height: number },
): string {
  const size = `${screen.cols}×${screen.rows}`;
  if (screen.cols > box.width || screen.rows > box.height) return `cropped ${size}`;
  return screen.cols < box.width || screen.rows < box.height ? size : '';
}

/**
 * A pane's border with its title in the top line: `╭─ planner · claude · working ─╮`, and `note`
 * (a crop mark) at the right of the bottom line. The focused pane gets a bold cyan border.
 * Cursor-addressed, so it can be painted next to anything else.
 */
export function paneFrame(rect: Rect, title: string, focused: boolean, note = ''): string {
  const { top, left, width, height } = rect;
  if (width < 4 || height < 2) return '';
  const color = focused ? '\x1b[1;36m' : '\x1b[2m';
  const label = fit(` ${title} `, width - 4);
  const out = [color, at(top, left), `╭─${label}${'─'.repeat(Math.max(0, width - 3 - columns(label)))}╮`];
  for (let r = 1; r < height - 1; r++) out.push(at(top + r, left), '│', at(top + r, left + width - 1), '│');
  const mark = note === '' ? '' : fit(` ${note} `, width - 4);
  out.push(at(top + height - 1, left), `╰${'─'.repeat(Math.max(0, width - 3 - columns(mark)))}${mark}─╯`, '\x1b[0m');
  return out.join('');
}

/** Paints chrome lines (from Ink) into `rect`, each line cleared to the rectangle's width and cut to it. */
export function chromeLines(rect: Rect, lines: readonly string[]): string {
  const out: string[] = [];
  for (let r = 0; r < rect.height; r++) {
    out.push(at(rect.top + r, rect.left), '\x1b[0m', `\x1b[${rect.width}X`, clip(lines[r] ?? '', rect.width), '\x1b[0m');
  }
  return out.join('');
}

/** A terminal too small for the layout: one line saying so, on a cleared screen. */
export function tooSmall(cols: number, rows: number, need: { readonly cols: number; readonly rows: number }): string {
  const needs = `${need.cols}×${need.rows}`;
  const said = [`terminal ${cols}×${rows} is too small: relevo needs ${needs}`, `too small: needs ${needs}`, `needs ${needs}`];
  const text = fit(said.find((line) => columns(line) <= cols) ?? said.at(-1)!, cols);
  return `\x1b[0m\x1b[2J${at(Math.floor((rows - 1) / 2), 0)}\x1b[1;33m${text}\x1b[0m`;
}
