/**
 * The dashboard laid out at a size, as lines of styled spans: the title, the columns' header, the
 * rows under their group labels (scrolled to keep the selection in view), the footer. Pure, so a
 * paint at a size depends on nothing but the rows, the state, the time and the size.
 */
import { columns, cut, fit } from '../paint/width.js';
import { confirmText, type DashboardState, selectedIndex, visibleRows } from './dashboard-state.js';
import { ageText, GROUPS, groupOf, needsYou, type RelayRow, type RowGroup, stateText } from './rows.js';

/** How a span is drawn: the component maps each to Ink's weights and colours. */
export type Tone = 'plain' | 'title' | 'dim' | 'label' | 'urgent' | 'working' | 'done' | 'ask';
/** `id` keeps the span apart from its neighbours (the column it belongs to, or its part of the line). */
export type Span = { readonly id: string; readonly text: string; readonly tone: Tone };
/** One line of the screen; a selected line is drawn inverse across the whole width. */
export type TableLine = { readonly id: string; readonly spans: readonly Span[]; readonly selected: boolean };

export type DashboardView = {
  readonly rows: readonly RelayRow[];
  readonly state: DashboardState;
  readonly now: number;
  /** The goal of a new relay being typed (`c`), shown on the last line. */
  readonly prompt?: { readonly text: string; readonly cursor: number } | null;
  /** What the last action said (a merge done, a refusal), until the next key. */
  readonly notice?: string | null;
};

const FOOTER_KEYS = '↑↓ move · Enter open · c new · p pause · r resume · m merge · x remove · / filter · q quit';
/** The keys, shorter when the terminal is narrower: spaced by two spaces, then Enter as ⏎ (80 columns hold that), then cut. */
const FOOTER_FORMS = [FOOTER_KEYS, FOOTER_KEYS.replaceAll(' · ', '  '), FOOTER_KEYS.replaceAll(' · ', '  ').replace('Enter', '⏎')];
const EMPTY_TEXT = 'no relays yet — c starts one';
const LABELS: Readonly<Record<RowGroup, string>> = { 'needs-you': 'needs you', working: 'working', rest: 'idle · finished' };

type ColumnId = 'name' | 'host' | 'state' | 'round' | 'turn' | 'diff' | 'git' | 'age' | 'handoff';
type Column = {
  readonly id: ColumnId;
  readonly header: string;
  readonly gap: number;
  readonly right?: boolean;
  readonly cell: (row: RelayRow, now: number) => string;
};

const count = (n: number | null, sign: string) => (n === null ? '' : `${sign}${n}`);
const pair = (a: string, b: string) => [a, b].filter((s) => s !== '').join(' ');
const firstLine = (text: string | null) => (text ?? '').split(/\r?\n/)[0]!.replace(/\s+/g, ' ').trim();

/** Every column, left to right; the handoff takes what the others leave. */
const COLUMNS: readonly Column[] = [
  { id: 'name', header: 'relay', gap: 0, cell: (row) => row.name },
  // Where a relay's agents run: shown only when some relay is on another machine.
  { id: 'host', header: 'host', gap: 2, cell: (row) => row.host ?? '' },
  { id: 'state', header: 'state', gap: 2, cell: stateText },
  { id: 'round', header: 'round', gap: 2, right: true, cell: (row) => `${row.round}/${row.maxRounds}` },
  { id: 'turn', header: '', gap: 1, cell: (row) => (row.turn === null ? '' : `→ ${row.turn}`) },
  { id: 'diff', header: '+/−', gap: 2, cell: (row) => pair(count(row.added, '+'), count(row.removed, '−')) },
  { id: 'git', header: '↑↓', gap: 2, cell: (row) => pair(count(row.ahead, '↑'), count(row.behind, '↓')) },
  { id: 'age', header: 'age', gap: 2, right: true, cell: (row, now) => ageText(now - row.changedAt) },
  { id: 'handoff', header: 'last handoff', gap: 2, cell: (row) => firstLine(row.lastHandoff) },
];
/** Dropped one by one, in this order, while the row is wider than the terminal. */
const DROP_ORDER: readonly ColumnId[] = ['handoff', 'diff', 'git', 'turn', 'age', 'host', 'round'];
const MARKER = 2;
const NAME_MAX = 32;
const HOST_MAX = 20;
const STATE_MAX = 24;
const UNREACHABLE_MAX = 56;
const HANDOFF_MIN = 12;

type Laid = { readonly column: Column; readonly width: number; readonly gap: number };

const usedBy = (laid: readonly Laid[]) => MARKER + laid.reduce((sum, c) => sum + c.gap + c.width, 0);
const narrow = (laid: readonly Laid[]) => laid.map((c) => ({ ...c, gap: Math.min(1, c.gap) }));

/**
 * The columns shown at `cols` and their widths: a column no row fills is left out; the rest fit with
 * two spaces between them, else with one, else the columns of DROP_ORDER go one by one.
 */
function layColumns(rows: readonly RelayRow[], now: number, cols: number): Laid[] {
  // A host out of reach keeps its count-down whole in the state column.
  const cap = (column: Column, row: RelayRow) =>
    column.id === 'name'
      ? NAME_MAX
      : column.id === 'host'
        ? HOST_MAX
        : column.id === 'state'
          ? row.unreachable
            ? UNREACHABLE_MAX
            : STATE_MAX
          : Infinity;
  const natural = (column: Column) => {
    const widths = rows.map((row) => Math.min(cap(column, row), columns(column.cell(row, now))));
    if (Math.max(0, ...widths) === 0) return 0;
    return Math.max(columns(column.header), ...widths);
  };
  let laid: Laid[] = COLUMNS.map((column) => ({ column, gap: column.gap, width: column.id === 'handoff' ? HANDOFF_MIN : natural(column) }));
  laid = laid.filter((c) => c.width > 0);
  for (const id of DROP_ORDER) {
    if (usedBy(laid) <= cols) break;
    if (usedBy(narrow(laid)) <= cols) {
      laid = narrow(laid);
      break;
    }
    laid = laid.filter((c) => c.column.id !== id);
  }
  // Still too wide: the name gives way (to 8 columns); the line is cut at the edge anyway.
  if (usedBy(laid) > cols) laid = narrow(laid);
  const over = usedBy(laid) - cols;
  if (over > 0) laid = laid.map((c) => (c.column.id === 'name' ? { ...c, width: Math.max(8, c.width - over) } : c));
  const room = cols - usedBy(laid);
  return laid.map((c) => (c.column.id === 'handoff' ? { ...c, width: c.width + room } : c));
}

/** One line of cells under the laid columns, each fitted (cut with `…`) and padded to its width. */
function cellsLine(laid: readonly Laid[], text: (column: Column) => string, tone: (column: Column) => Tone): Span[] {
  return laid.map(({ column, width, gap }) => {
    const fitted = fit(text(column), width);
    const pad = ' '.repeat(width - columns(fitted));
    return { id: column.id, text: ' '.repeat(gap) + (column.right ? pad + fitted : fitted + pad), tone: tone(column) };
  });
}

function stateTone(row: RelayRow): Tone {
  if (row.phase === 'done') return 'done';
  if (needsYou(row)) return 'urgent';
  return row.phase === 'working' || row.phase === 'starting' ? 'working' : 'dim';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function titleText(view: DashboardView, shown: number): string {
  const waiting = view.rows.filter(needsYou).length;
  const parts = ['relevo', plural(view.rows.length, 'relay', 'relays')];
  if (waiting > 0) parts.push(`${waiting} need${waiting === 1 ? 's' : ''} you`);
  if (view.state.filter !== '') parts.push(`filter “${view.state.filter}”: ${shown} shown`);
  return parts.join(' · ');
}

/** `goal › ` and the text typed, the cursor shown as a bar, its end kept in view. */
function promptLine(prompt: NonNullable<DashboardView['prompt']>, cols: number): TableLine {
  const chars = [...prompt.text];
  const typed = `${chars.slice(0, prompt.cursor).join('')}▏${chars.slice(prompt.cursor).join('')}`;
  const lead = 'goal › ';
  const room = Math.max(1, cols - columns(lead));
  let tail = typed;
  while (columns(tail) > room - 1 && tail !== '') tail = [...tail].slice(1).join('');
  const shown = columns(typed) <= room ? typed : `…${tail}`;
  const hint = fit('  Enter starts the relay · Esc cancels', cols - columns(lead) - columns(shown));
  return {
    id: 'footer',
    spans: [
      { id: 'typed', text: fit(`${lead}${shown}`, cols), tone: 'ask' },
      { id: 'hint', text: hint, tone: 'dim' },
    ],
    selected: false,
  };
}

function footer(view: DashboardView, cols: number): TableLine {
  const { state } = view;
  if (view.prompt) return promptLine(view.prompt, cols);
  if (view.notice) return { id: 'footer', spans: [{ id: 'notice', text: fit(view.notice, cols), tone: 'ask' }], selected: false };
  if (state.confirm !== null)
    return { id: 'footer', spans: [{ id: 'ask', text: fit(confirmText(state.confirm, view.rows), cols), tone: 'ask' }], selected: false };
  if (state.filtering) {
    const typed = fit(`/${state.filter}▏`, cols);
    const hint = fit('  Enter keeps · Esc clears', cols - columns(typed));
    return {
      id: 'footer',
      spans: [
        { id: 'typed', text: typed, tone: 'ask' },
        { id: 'hint', text: hint, tone: 'dim' },
      ],
      selected: false,
    };
  }
  const keys = FOOTER_FORMS.find((form) => columns(form) <= cols) ?? fit(FOOTER_FORMS.at(-1)!, cols);
  return { id: 'footer', spans: [{ id: 'keys', text: keys, tone: 'dim' }], selected: false };
}

/** The body: each group's label, then its rows; the index of the selected row's line. */
function body(view: DashboardView, shown: readonly RelayRow[], cols: number): { lines: TableLine[]; at: number } {
  const selected = selectedIndex(view.state, shown);
  const laid = layColumns(shown, view.now, cols);
  const lines: TableLine[] = [];
  let at = -1;
  for (const group of GROUPS) {
    const members = shown.filter((row) => groupOf(row) === group);
    if (members.length === 0) continue;
    lines.push({
      id: group,
      spans: [{ id: 'label', text: fit(`${LABELS[group]} · ${members.length}`, cols), tone: 'label' }],
      selected: false,
    });
    for (const row of members) {
      const on = shown.indexOf(row) === selected;
      if (on) at = lines.length;
      const spans = cellsLine(
        laid,
        (column) => column.cell(row, view.now),
        (column) => (column.id === 'state' ? stateTone(row) : column.id === 'age' || column.id === 'handoff' ? 'dim' : 'plain'),
      );
      lines.push({ id: `row ${row.name}`, spans: [{ id: 'marker', text: on ? '▸ ' : '  ', tone: 'plain' }, ...spans], selected: on });
    }
  }
  return { lines, at };
}

/** The whole screen at `cols` × `height`: exactly `height` lines, none wider than `cols`. */
export function dashboardLines(view: DashboardView, cols: number, height: number): TableLine[] {
  const blank = (id: string): TableLine => ({ id, spans: [], selected: false });
  const shown = visibleRows(view.rows, view.state.filter);
  const top: TableLine[] = [];
  if (height >= 3)
    top.push({ id: 'title', spans: [{ id: 'title', text: fit(titleText(view, shown.length), cols), tone: 'title' }], selected: false });
  let lines: TableLine[];
  let at = -1;
  if (shown.length === 0) {
    const empty = view.rows.length === 0 ? EMPTY_TEXT : `no relay matches “${view.state.filter}”`;
    lines = [blank('above empty'), { id: 'empty', spans: [{ id: 'empty', text: fit(empty, cols), tone: 'dim' }], selected: false }];
  } else {
    if (height >= 4) {
      const laid = layColumns(shown, view.now, cols);
      top.push({
        id: 'header',
        spans: [
          { id: 'marker', text: '  ', tone: 'dim' },
          ...cellsLine(
            laid,
            (column) => column.header,
            () => 'dim',
          ),
        ],
        selected: false,
      });
    }
    ({ lines, at } = body(view, shown, cols));
  }
  const room = Math.max(0, height - top.length - (height >= 2 ? 1 : 0));
  // Scrolled just enough that the selected row is on screen, at the bottom when it is below the first screenful.
  const start = Math.max(0, Math.min(at - room + 1, lines.length - room));
  const window = lines.slice(start, start + room);
  while (window.length < room) window.push(blank(`blank ${window.length}`));
  const all = [...top, ...window, ...(height >= 2 ? [footer(view, cols)] : [])].slice(0, Math.max(0, height));
  return all.map((line) => ({ ...line, spans: edged(line.spans, cols, line.selected) }));
}

/** Spans cut at `cols` columns; a selected line's padded to the edge, so its inverse spans the width. */
function edged(spans: readonly Span[], cols: number, pad: boolean): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const span of spans) {
    const text = cut(span.text, cols - used);
    if (text !== '') out.push({ ...span, text });
    used += columns(text);
    if (text !== span.text) break;
  }
  if (pad && used < cols) out.push({ id: 'pad', text: ' '.repeat(cols - used), tone: 'plain' });
  return out;
}
