/** What `runs` and `show` say about a run, read from its journal lines: its state, rounds, goal, and their tables. */
import {
  checkpointPath,
  formatHeader,
  type HandoffCheckpoint,
  type JournalLine,
  type JournalRebuilt,
  journalLineSchema,
  type Role,
  rebuiltText,
} from '../../protocol/index.js';
import { parseJsonLines } from '../../protocol/json-lines.js';

/**
 * `no_goal`: relevo was quit before the run got its goal (nothing was started, nothing to resume);
 * `journal_lost`: its events.jsonl is missing, empty or cut before `run_started` (`--resume` rebuilds it).
 */
export type RunState = 'done' | 'paused' | 'running' | 'interrupted' | 'no_goal' | 'journal_lost' | 'unreadable';
export type RunSummary = {
  readonly id: string;
  readonly started_at: string | null;
  readonly goal: string | null;
  readonly rounds: number;
  readonly max_rounds: number | null;
  readonly state: RunState;
  /** Why it paused; for `unreadable`, what failed; for `journal_lost`, how (`missing`, `empty`, `cut`). */
  readonly reason?: string;
  /** Its journal was lost and `--resume` rebuilt it: what the `journal_rebuilt` line says. */
  readonly rebuilt?: JournalRebuilt;
  /** The run it follows: a next goal given after that run's done, to the same agents. */
  readonly follows?: string;
  /** The relay it is (its branch), when it runs in a worktree of its own (`relevo-tui new`). */
  readonly relay?: string;
  /** Its agents' host (an ssh destination), for a relay on another machine. */
  readonly host?: string;
  /** The host its journal last said was out of reach (no `reachable` since). */
  readonly unreachable?: string;
};
export type HandoffView = Readonly<
  Pick<HandoffCheckpoint, 'seq' | 'round' | 'from' | 'to' | 'created_at' | 'sha256' | 'supersedes' | 'note'> & {
    lane: Role;
    status: 'acked' | 'offered' | 'pending';
    /** False when its files differ from its journal line (or its own sha256, offer, ack): `mismatch` says how. */
    digest_ok: boolean;
    mismatch?: string;
    body: string;
  }
>;

const GOAL_COLUMNS = 40;

/** The valid lines of `events.jsonl`; a torn line (killed mid-write) or one that fails the schema is skipped. */
export function parseJournalText(text: string): JournalLine[] {
  return parseJsonLines(text, journalLineSchema);
}

/** Where a run stands: `live` says whether the process holding its lock is alive. */
export function summarizeRun(id: string, lines: readonly JournalLine[], live: boolean): RunSummary {
  const of = <T extends JournalLine['type']>(type: T) => lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);
  const started = of('run_started')[0];
  const rebuilt = of('journal_rebuilt').at(-1);
  // A goal lost with the journal: its `goal` line only tells the planner so.
  const goal = rebuilt?.goal_from === 'lost' ? null : (of('goal')[0]?.text ?? null);
  const rounds = Math.max(
    0,
    ...of('delivered')
      .filter((d) => d.kind === 'handoff' && d.from === 'planner')
      .map((d) => d.round),
  );
  const maxRounds = of('resumed').at(-1)?.budget ?? started?.max_rounds ?? null;
  const lastPause = lines.findLastIndex((l) => l.type === 'paused');
  const pause =
    lastPause >= 0 && !lines.slice(lastPause).some((l) => l.type === 'resumed' || l.type === 'run_resumed') ? lines[lastPause] : undefined;
  const lastOut = lines.findLastIndex((l) => l.type === 'unreachable');
  const out = lastOut >= 0 && !lines.slice(lastOut).some((l) => l.type === 'reachable') ? lines[lastOut] : undefined;
  const base = {
    id,
    started_at: started?.ts ?? null,
    goal,
    rounds,
    max_rounds: maxRounds,
    ...(started?.follows !== undefined ? { follows: started.follows } : {}),
    ...(started?.worktree !== undefined ? { relay: started.worktree.branch } : {}),
    ...(started?.worktree?.host !== undefined ? { host: started.worktree.host } : {}),
    ...(rebuilt !== undefined ? { rebuilt } : {}),
  };
  if (lines.some((l) => l.type === 'done')) return { ...base, state: 'done' };
  if (goal === null && lines.some((l) => l.type === 'no_goal')) return { ...base, state: 'no_goal' };
  if (pause?.type === 'paused') return { ...base, state: 'paused', reason: pause.reason };
  if (!live) return { ...base, state: 'interrupted' };
  return { ...base, state: 'running', ...(out?.type === 'unreachable' ? { unreachable: out.host } : {}) };
}

const LABELS: Partial<Record<RunState, (reason?: string) => string>> = {
  paused: (reason) => `paused: ${reason}`,
  no_goal: () => 'no goal',
  journal_lost: (reason) => `journal lost (${reason})`,
};

/** `done`, `paused: max_rounds`, `no goal`, `journal lost (missing)`, `unreadable`, …; `(journal rebuilt)` after a rebuilt one's. */
export function stateLabel(s: Pick<RunSummary, 'state' | 'reason' | 'rebuilt'>): string {
  const label = LABELS[s.state]?.(s.reason) ?? s.state;
  return s.rebuilt !== undefined ? `${label} (journal rebuilt)` : label;
}

/** The first line of `text`, cut to `width` characters with `…`. */
export function cut(text: string, width: number): string {
  const chars = [...(text.split('\n')[0] ?? '')];
  return chars.length <= width ? chars.join('') : `${chars.slice(0, width - 1).join('')}…`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
/** Local `YYYY-MM-DD HH:MM`. */
export function localMinute(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** The runs as an aligned table with a header row. */
export function formatRunsTable(runs: readonly RunSummary[]): string {
  // The RELAY column only where a run is a relay of several (`relevo-tui new`).
  const relays = runs.some((r) => r.relay !== undefined);
  const rows = [
    ['ID', ...(relays ? ['RELAY'] : []), 'STARTED', 'ROUNDS', 'STATE', 'GOAL'],
    ...runs.map((r) => [
      r.id,
      ...(relays ? [r.relay ?? '-'] : []),
      r.started_at ? localMinute(r.started_at) : '-',
      r.state === 'unreadable' || r.state === 'journal_lost'
        ? '-'
        : r.max_rounds === null
          ? String(r.rounds)
          : `${r.rounds}/${r.max_rounds}`,
      stateLabel(r),
      r.goal === null ? '-' : cut(r.goal, GOAL_COLUMNS),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

const STATUS_TEXT = { acked: 'acked', offered: 'offered (not acked)', pending: 'pending' } as const;

/** `show`'s text: the run line, each handoff under its header, then the `<done>` summary. */
export function formatShow(run: RunSummary, handoffs: readonly HandoffView[], done: string | null): string {
  const follows = run.follows !== undefined ? ` · follows ${run.follows}` : '';
  const out = [`run ${run.id} · ${stateLabel(run)}${follows} · goal: ${run.goal === null ? '-' : (run.goal.split('\n')[0] ?? '')}`];
  if (run.rebuilt !== undefined) out.push(rebuiltText(run.rebuilt));
  if (run.state === 'journal_lost')
    out.push(`its journal is lost (events.jsonl ${run.reason}): --resume ${run.id} rebuilds it from its checkpoints and goal.txt`);
  for (const h of handoffs) {
    const mismatch = h.digest_ok ? '' : ` · CHECKPOINT MISMATCH (${h.mismatch ?? 'digest'}): never typed`;
    const extra = `${h.supersedes !== undefined ? ` · replaces ${h.supersedes}` : ''}${mismatch}`;
    out.push('', `── ${checkpointPath(h.lane, h.seq)} · round ${h.round} · ${h.from} → ${h.to} · ${STATUS_TEXT[h.status]}${extra}`);
    out.push(h.round >= 1 ? formatHeader(h.round, h.from) : `[relevo ronda ${h.round} · de ${h.from}]`, h.body.replace(/\n$/, ''));
    if (h.note !== undefined) out.push('', '[note from the person]', h.note);
  }
  if (done !== null) out.push('', '<done>', done, '</done>');
  return `${out.join('\n')}\n`;
}
