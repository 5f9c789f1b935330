/**
 * Resizing the terminal as people do, in tmux: at rest after the demo is done and while a relay
 * runs, with the help open during one of them. After each resize both frames' borders, the band
 * and the goal line stand where the layout puts them, and nothing stands outside them; a pane that
 * shrank and grew back shows its agent's lines again.
 */
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/protocol/index.js';
import { layout, type Rect } from '../../src/tui/paint/layout.js';
import { cells, columns } from '../../src/tui/paint/width.js';
import { CHROME_ROWS } from '../../src/tui/view/compositor.js';
import { simCommand } from '../helpers/cli.js';
import { band, freshTmuxServers, keys, start, tmux, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** The screen's rows as cells, a wide character standing in its first column (its second is ''). */
function grid(screen: string, cols: number, rows: number): string[][] {
  const lines = screen.split('\n');
  return Array.from({ length: rows }, (_, y) => {
    const row: string[] = [];
    for (const cell of cells(lines[y] ?? '')) row.push(cell.text, ...Array<string>(Math.max(0, cell.width - 1)).fill(''));
    return [...row, ...Array<string>(Math.max(0, cols - row.length)).fill(' ')].slice(0, cols);
  });
}

const text = (g: string[][], y: number, from: number, to: number) => (g[y] ?? []).slice(from, to).join('');

/** What is wrong with the frame of `role` in `rect` on the screen, or null. */
function frameProblem(g: string[][], role: Role, rect: Rect): string | null {
  const { top, left, width, height } = rect;
  const right = left + width - 1;
  const bottom = top + height - 1;
  if (!text(g, top, left, right + 1).startsWith(`╭─ ${role} · `) || g[top]?.[right] !== '╮')
    return `the ${role}'s top border on row ${top}`;
  // A pane smaller than its agent's minimum says so in its bottom border (`cropped 60×16`).
  if (!/^╰─+(?: cropped \d+×\d+ ─)?╯$/u.test(text(g, bottom, left, right + 1)) || columns(text(g, bottom, left, right + 1)) !== width)
    return `the ${role}'s bottom border on row ${bottom}`;
  for (let y = top + 1; y < bottom; y++)
    if (g[y]?.[left] !== '│' || g[y]?.[right] !== '│')
      return `the ${role}'s side borders on row ${y}: ${JSON.stringify(text(g, y, 0, g[y]!.length))}`;
  return null;
}

/** What is wrong with the screen against the layout at `cols`×`rows` (focus on the planner), or null. */
function layoutProblem(screen: string, cols: number, rows: number, help: boolean): string | null {
  const g = grid(screen, cols, rows);
  const lines = screen.split('\n');
  const wide = lines.findIndex((line) => columns(line) > cols);
  if (wide >= 0) return `row ${wide} is wider than ${cols} columns`;
  const view = layout(cols, rows, CHROME_ROWS, 'planner', false);
  const bandRow = view.chrome.top + CHROME_ROWS - 2;
  if (!text(g, bandRow, 0, cols).startsWith('relevo · ')) return `the band is not on row ${bandRow}`;
  const goal = text(g, rows - 1, 0, cols).trimEnd();
  if (!goal.startsWith('goal: ') || !goal.endsWith('C-] ? help')) return `the goal line is not on row ${rows - 1}: ${JSON.stringify(goal)}`;
  if (help) {
    // The help box stands inside the pane area, whole: its top and bottom corners.
    const area = lines.slice(0, view.chrome.top);
    const top = area.findIndex((l) => l.includes('╭') && l.includes('╮') && !l.includes('╭─ '));
    const bottom = area.findLastIndex((l) => l.includes('╰') && l.includes('╯'));
    if (top < 0 || bottom <= top || !area.some((l) => l.includes('relevo keys — press C-], then:'))) return 'the help box is not whole';
    return null;
  }
  for (const role of ROLES) {
    const box = view.panes[role];
    const wrong = box ? frameProblem(g, role, box.frame) : null;
    if (wrong !== null) return wrong;
  }
  return null;
}

/** Resizes the window and waits until the screen stands as the layout at that size says. */
async function resizeTo(cols: number, rows: number, help = false): Promise<string> {
  const r = await tmux('resize-window', '-t', 'relevo', '-x', String(cols), '-y', String(rows));
  expect(r.exitCode, r.stderr).toBe(0);
  let problem: string | null = null;
  try {
    const laidOut = (s: string) => {
      problem = layoutProblem(s, cols, rows, help);
      return problem === null;
    };
    return await untilScreen(`the layout at ${cols}×${rows}`, laidOut, 20_000);
  } catch (error) {
    throw new Error(`${problem}\n${(error as Error).message}`);
  }
}

const SIZES: readonly (readonly [number, number])[] = [
  [100, 50],
  [150, 40],
  [80, 24],
  [60, 12],
  [200, 50],
];

/** The planner pane's non-blank rows at 200×50, as the person sees them. */
function plannerRows(screen: string): string[] {
  const inner = layout(200, 50, CHROME_ROWS, 'planner', false).panes.planner!.inner;
  return grid(screen, 200, 50)
    .slice(inner.top, inner.top + inner.height)
    .map((row) =>
      row
        .slice(inner.left, inner.left + inner.width)
        .join('')
        .trimEnd(),
    )
    .filter((row) => row !== '');
}

describe('resizing the terminal', () => {
  it('at rest after the demo is done: every resize shows the layout of its size, frames, band and goal line in place; the planner pane grown back shows its rows again', async () => {
    await start(200, 50);
    await untilScreen('the demo done', (s) => band(s).endsWith('done'), 60_000);
    const before = plannerRows(await resizeTo(200, 50));
    for (const [cols, rows] of SIZES) await resizeTo(cols, rows);
    const grown = await resizeTo(200, 50);
    expect(band(grown)).toContain('3/10 · done');
    // Shrunk to 60×12 (a window onto the agent's minimum) and grown back, as tmux pulls its history down.
    const after = plannerRows(grown);
    const back = before.filter((row) => after.includes(row));
    expect(before.length).toBeGreaterThan(20);
    expect(back.length / before.length, `${back.length} of ${before.length} rows back:\n${after.join('\n')}`).toBeGreaterThanOrEqual(0.6);
  });

  it('while the relay runs, with the help open across one resize', async () => {
    await start(200, 50, [
      '--planner',
      simCommand('planner', '--think-ms', '600', '--steps', '6'),
      '--builder',
      simCommand('builder', '--think-ms', '600'),
      '--goal',
      'Resize while it runs',
    ]);
    await untilScreen('the relay running', (s) => band(s).endsWith('running'));
    await resizeTo(100, 50);
    await keys('C-]', '?');
    await untilScreen('the help', (s) => s.includes('relevo keys — press C-], then:'));
    await resizeTo(150, 40, true);
    await resizeTo(80, 24, true);
    await keys('Escape');
    await untilScreen('the help closed', (s) => !s.includes('relevo keys — press'));
    await resizeTo(80, 24);
    await resizeTo(200, 50);
    expect(band(await resizeTo(150, 40))).toMatch(/running|done/);
  });
});
