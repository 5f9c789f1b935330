import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkpointKey,
  checkpointMismatch,
  checkpointPath,
  type JournalLine,
  type JournalLoss,
  journaledCheckpoints,
  ROLES,
} from '../../protocol/index.js';
import { parseFlags, unexpectedArgument } from '../config/args.js';
import { selfIn } from '../config/self.js';
import { RUNS_USAGE, SHOW_USAGE } from '../config/usage.js';
import { ConfigError } from '../faults/errors.js';
import { stopLeftovers } from '../run/leftovers.js';
import { CheckpointStore } from '../store/checkpoints.js';
import { lockHolder } from '../store/locks.js';
import { readGoal, rebuildable } from '../store/rebuild.js';
import { stateDirPath } from '../store/state-dir.js';
import { formatRunsTable, formatShow, type HandoffView, parseJournalText, type RunSummary, summarizeRun } from './run-summary.js';

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

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

export function loadRun(runsDir: string, id: string): { summary: RunSummary; lines: JournalLine[] } {
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
export function runIds(runsDir: string): string[] {
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
    const { stateDir: given, json, run } = flagsOf(command, args.slice(1));
    // A linked worktree's runs are its main repository's.
    const stateDir = stateDirPath(given, process.cwd());
    const runsDir = join(stateDir, 'runs');
    const ids = runIds(runsDir);
    if (command === 'runs') {
      await stopLeftovers(stateDir, (line) => io.stderr.write(`relevo-tui: ${line}\n`));
      const runs = ids.map((id) => loadRun(runsDir, id).summary);
      if (json) io.stdout.write(`${JSON.stringify(runs)}\n`);
      else if (runs.length === 0) io.stderr.write(`no runs in ${given}\n`);
      else io.stdout.write(formatRunsTable(runs));
      return 0;
    }
    const id = run ?? ids[0];
    if (id === undefined) throw new ConfigError('show', `no runs in ${join(given, 'runs')}`);
    if (!ids.includes(id)) throw new ConfigError('show', `no run ${id} in ${join(given, 'runs')} (see ${selfIn(given, 'runs')})`);
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
