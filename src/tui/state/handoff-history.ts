/**
 * The history panel (`C-] h`): every handoff of the run in order, read from its checkpoints and
 * journal (so a resumed run shows its past too), and one handoff's whole body. Pure: a record in, a
 * view out; keys move the view.
 */
import type { RunRecord } from '../../app/commands/runs.js';
import { checkpointPath, formatHeader, type Role, rebuiltText } from '../../protocol/index.js';
import { isEscape, splitKeys } from '../../pty/keys.js';
import { wrapKept } from '../paint/width.js';

export type HistoryEntry = {
  readonly path: string;
  readonly round: number;
  readonly from: Role;
  readonly to: Role;
  /** `acked`, `offered`, `pending`, `edited` when a later checkpoint replaced it, `mismatch` when its files changed after it was journaled. */
  readonly status: 'acked' | 'offered' | 'pending' | 'edited' | 'mismatch';
  readonly replacedBy: string | null;
  readonly time: string;
  /** The round header, then the body, as the receiving agent was (or will be) typed it. */
  readonly lines: readonly string[];
};

export type HistoryView = {
  readonly run: string;
  readonly state: string;
  /** The run's journal was lost and `--resume` rebuilt it: the `journal_rebuilt` line in words. */
  readonly rebuilt?: string;
  readonly goal: string | null;
  readonly entries: readonly HistoryEntry[];
  readonly done: string | null;
  readonly selected: number;
  /** The handoff whose body is shown (an index into `entries`), or null for the list. */
  readonly open: number | null;
  /** Rows scrolled down: in the list, the first entry shown; in a body, its first row shown (a long line wraps onto rows). */
  readonly scroll: number;
};

/** The columns inside the panel (its border and padding) of a panel `width` columns wide. */
export const historyInner = (width: number) => Math.max(10, width - 4);

/** One row of a handoff's body on screen: a line, or the part of a long line that wrapped onto it. */
export type BodyRow = {
  readonly text: string;
  /** The line it belongs to, from 0. */
  readonly line: number;
};

/** A handoff's lines wrapped to `width` columns (a tab as spaces), the rows it takes in the panel. */
export function bodyRows(entry: HistoryEntry, width: number): BodyRow[] {
  return entry.lines.flatMap((text, line) => wrapKept(text.replace(/\t/g, '    '), width).map((row) => ({ text: row, line })));
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const clock = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '--:--:--' : `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
};

export function historyView(record: RunRecord, state: string): HistoryView {
  // A pending handoff edited before it was sent (C-] e) is replaced by a new checkpoint of its lane.
  const replacedBy = new Map<string, string>();
  for (const h of record.handoffs)
    if (h.supersedes !== undefined) replacedBy.set(checkpointPath(h.lane, h.supersedes), `${h.lane} #${h.seq}`);
  const entries = record.handoffs.map((h): HistoryEntry => {
    const path = checkpointPath(h.lane, h.seq);
    const later = replacedBy.get(path) ?? null;
    const header = h.round >= 1 ? formatHeader(h.round, h.from) : `[relevo ronda ${h.round} · de ${h.from}]`;
    return {
      path,
      round: h.round,
      from: h.from,
      to: h.to,
      status: !h.digest_ok ? 'mismatch' : later !== null && h.status !== 'acked' ? 'edited' : h.status,
      replacedBy: later,
      time: clock(h.created_at),
      lines: [
        header,
        ...h.body.replace(/\n$/, '').split('\n'),
        ...(h.note !== undefined ? ['', '[note from the person]', ...h.note.split('\n')] : []),
      ],
    };
  });
  const { id, goal, rebuilt } = record.summary;
  return {
    run: id,
    state,
    ...(rebuilt ? { rebuilt: rebuiltText(rebuilt) } : {}),
    goal: goal ?? (rebuilt?.goal_from === 'lost' ? '(lost with the journal)' : null),
    entries,
    done: record.done,
    selected: 0,
    open: null,
    scroll: 0,
  };
}

const UP = new Set(['\x1b[A', '\x1bOA', 'k']);
const DOWN = new Set(['\x1b[B', '\x1bOB', 'j']);

/**
 * The view after `data` was typed, or null when the panel closes: ↑ ↓ (k j) and PgUp PgDn move, Home
 * End jump, Enter opens the selected handoff, Esc (or q) goes back to the list, and from the list
 * closes the panel. `rows` is how many list entries or body rows fit, in a panel `width` columns wide.
 */
export function historyKeys(view: HistoryView, data: string, rows: number, width: number): HistoryView | null {
  let v: HistoryView | null = view;
  for (const key of splitKeys(data)) {
    if (v === null) break;
    v = historyKey(v, key, Math.max(1, rows), width);
  }
  return v;
}

function historyKey(v: HistoryView, key: string, rows: number, width: number): HistoryView | null {
  if (isEscape(key) || key === 'q') return v.open === null ? null : { ...v, open: null, scroll: listScroll(v.selected, v.scroll, rows) };
  const step = UP.has(key) ? -1 : DOWN.has(key) ? 1 : key === '\x1b[5~' ? -rows : key === '\x1b[6~' ? rows : 0;
  const jump =
    key === '\x1b[H' || key === '\x1b[1~' || key === 'g' ? -Infinity : key === '\x1b[F' || key === '\x1b[4~' || key === 'G' ? Infinity : 0;
  if (v.open !== null) {
    const open = v.entries[v.open];
    const last = Math.max(0, (open ? bodyRows(open, historyInner(width)).length : 0) - rows);
    const scroll = Math.min(last, Math.max(0, jump !== 0 ? (jump < 0 ? 0 : last) : v.scroll + step));
    return { ...v, scroll };
  }
  if (key === '\r' || key === '\n') return v.entries.length === 0 ? v : { ...v, open: v.selected, scroll: 0 };
  const end = Math.max(0, v.entries.length - 1);
  const selected = Math.min(end, Math.max(0, jump !== 0 ? (jump < 0 ? 0 : end) : v.selected + step));
  return { ...v, selected, scroll: listScroll(selected, v.scroll, rows) };
}

/** The list's first shown entry, moved just enough to keep `selected` in view. */
function listScroll(selected: number, scroll: number, rows: number): number {
  if (selected < scroll) return selected;
  if (selected >= scroll + rows) return selected - rows + 1;
  return scroll;
}
