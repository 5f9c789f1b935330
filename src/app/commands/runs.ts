import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkpointKey,
  checkpointMismatch,
  checkpointPath,
  formatHeader,
  type HandoffCheckpoint,
  type JournalLine,
  type JournalLoss,
  type JournalRebuilt,
  journaledCheckpoints,
  journalLineSchema,
  ROLES,
  type Role,
  rebuiltText,
} from '../../protocol/index.js';
import { parseJsonLines } from '../../protocol/json-lines.js';
import { parseFlags, unexpectedArgument } from '../config/args.js';
import { selfIn } from '../config/self.js';
import { RUNS_USAGE, SHOW_USAGE } from '../config/usage.js';
import { ConfigError } from '../faults/errors.js';
import { stopLeftovers } from '../run/leftovers.js';
import { CheckpointStore } from '../store/checkpoints.js';
import { lockHolder } from '../store/locks.js';
import { readGoal, rebuildable } from '../store/rebuild.js';

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

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
  const base = {
    id,
    started_at: started?.ts ?? null,
    goal,
    rounds,
    max_rounds: maxRounds,
    ...(started?.follows !== undefined ? { follows: started.follows } : {}),
    ...(rebuilt !== undefined ? { rebuilt } : {}),
  };
  if (lines.some((l) => l.type === 'done')) return { ...base, state: 'done' };
  if (goal === null && lines.some((l) => l.type === 'no_goal')) return { ...base, state: 'no_goal' };
  if (pause?.type === 'paused') return { ...base, state: 'paused', reason: pause.reason };
  return { ...base, state: live ? 'running' : 'interrupted' };
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
  const rows = [
    ['ID', 'STARTED', 'ROUNDS', 'STATE', 'GOAL'],
    ...runs.map((r) => [
      r.id,
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

/** A run whose journal is lost (`--resume` rebuilds it): its goal from a line that survived, else goal.txt. */
function lostJournal(id: string, dir: string, reason: JournalLoss, lines: JournalLine[]): { summary: RunSummary; lines: JournalLine[] } {
  let goal = lines.findLast((l) => l.type === 'goal')?.text ?? null;
  try {
    goal ??= readGoal(dir);
  } catch {
    // An unreadable goal.txt: the goal is shown as unknown.
  }
  return { summary: { id, started_at: null, goal, rounds: 0, max_rounds: null, state: 'journal_lost', reason }, lines };
}

function loadRun(runsDir: string, id: string): { summary: RunSummary; lines: JournalLine[] } {
  const dir = join(runsDir, id);
  let text: string;
  try {
    text = readFileSync(join(dir, 'events.jsonl'), 'utf8');
  } catch (error) {
    // Checkpoints or goal.txt left: the journal is lost, and --resume rebuilds it.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rebuildable(dir)) return lostJournal(id, dir, 'missing', []);
    const reason = `events.jsonl: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
    return { summary: { id, started_at: null, goal: null, rounds: 0, max_rounds: null, state: 'unreadable', reason }, lines: [] };
  }
  const lines = parseJournalText(text);
  const live = lockHolder(dir) !== null;
  // A run starting now has not written its first line yet; one that is not running lost it.
  if (!live && !lines.some((l) => l.type === 'run_started')) return lostJournal(id, dir, text === '' ? 'empty' : 'cut', lines);
  return { summary: summarizeRun(id, lines, live), lines };
}

/** Run ids under `runsDir`, newest first (ids sort by time). */
function runIds(runsDir: string): string[] {
  try {
    return readdirSync(runsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

function handoffsOf(runDir: string, id: string, lines: readonly JournalLine[], warn: (message: string) => void): HandoffView[] {
  const store = new CheckpointStore(runDir, id);
  const journaled = journaledCheckpoints(lines);
  const views: HandoffView[] = [];
  for (const lane of ROLES) {
    for (const seq of store.seqs(lane)) {
      try {
        const { checkpoint: c, body, offered, acked, evidence } = store.read(lane, seq);
        const mismatch = checkpointMismatch(evidence, journaled.get(checkpointKey(lane, seq)));
        const status = acked ? 'acked' : offered ? 'offered' : 'pending';
        const supersedes = c.supersedes !== undefined ? { supersedes: c.supersedes } : {};
        views.push({
          lane,
          seq,
          round: c.round,
          from: c.from,
          to: c.to,
          created_at: c.created_at,
          sha256: c.sha256,
          status,
          ...supersedes,
          ...(c.note !== undefined ? { note: c.note } : {}),
          digest_ok: mismatch === null,
          ...(mismatch !== null ? { mismatch } : {}),
          body,
        });
      } catch (error) {
        warn(`skipped ${checkpointPath(lane, seq)}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  return views.sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.seq - b.seq || ROLES.indexOf(a.lane) - ROLES.indexOf(b.lane),
  );
}

/** Everything a run kept: where it stands, its handoffs in order (with their bodies), its `<done>` summary. */
export type RunRecord = { readonly summary: RunSummary; readonly handoffs: readonly HandoffView[]; readonly done: string | null };

/** One run read back from its journal and checkpoints (`show`, the TUI's history); an unreadable checkpoint is skipped with `warn`. */
export function readRun(runsDir: string, id: string, warn: (message: string) => void): RunRecord {
  const { summary, lines } = loadRun(runsDir, id);
  const handoffs = handoffsOf(join(runsDir, id), id, lines, warn);
  const done = lines.findLast((l) => l.type === 'done');
  return { summary, handoffs, done: done?.type === 'done' ? done.summary : null };
}

function flagsOf(command: 'runs' | 'show', args: readonly string[]) {
  const context = { where: command, hint: `usage: ${command === 'show' ? SHOW_USAGE : RUNS_USAGE}` };
  const { values, positionals } = parseFlags(
    args,
    { 'state-dir': { type: 'string', default: '.relevo' }, json: { type: 'boolean', default: false } },
    context,
  );
  if (values['state-dir'] === '') throw new ConfigError('--state-dir', 'empty');
  if (positionals.length > (command === 'show' ? 1 : 0)) throw unexpectedArgument(positionals.at(-1), context);
  return { stateDir: values['state-dir'], json: values.json, run: positionals[0] };
}

/** `relevo-tui runs` and `relevo-tui show`: what happened in past runs, read from the state dir. */
export async function runHistory(args: readonly string[], _env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const command = args[0] === 'show' ? 'show' : 'runs';
  try {
    const { stateDir, json, run } = flagsOf(command, args.slice(1));
    const runsDir = join(stateDir, 'runs');
    const ids = runIds(runsDir);
    if (command === 'runs') {
      await stopLeftovers(stateDir, (line) => io.stderr.write(`relevo-tui: ${line}\n`));
      const runs = ids.map((id) => loadRun(runsDir, id).summary);
      if (json) io.stdout.write(`${JSON.stringify(runs)}\n`);
      else if (runs.length === 0) io.stderr.write(`no runs in ${stateDir}\n`);
      else io.stdout.write(formatRunsTable(runs));
      return 0;
    }
    const id = run ?? ids[0];
    if (id === undefined) throw new ConfigError('show', `no runs in ${runsDir}`);
    if (!ids.includes(id)) throw new ConfigError('show', `no run ${id} in ${runsDir} (see ${selfIn(stateDir, 'runs')})`);
    const { summary, handoffs, done: summaryText } = readRun(runsDir, id, (message) => io.stderr.write(`relevo-tui: show: ${message}\n`));
    const { reason: why, rebuilt } = summary;
    const reason = { ...(why !== undefined ? { reason: why } : {}), ...(rebuilt ? { rebuilt } : {}) };
    if (json)
      io.stdout.write(`${JSON.stringify({ id, state: summary.state, ...reason, goal: summary.goal, handoffs, done: summaryText })}\n`);
    else io.stdout.write(formatShow(summary, handoffs, summaryText));
    return 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`relevo-tui: ${error.toString()}\n`);
      return 2;
    }
    io.stderr.write(`relevo-tui: ${command}: ${(error as Error).message.split('\n')[0]}\n`);
    return 1;
  }
}
