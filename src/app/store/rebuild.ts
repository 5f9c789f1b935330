import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  type JournalEntry,
  type JournalLine,
  type JournalLoss,
  type JournalRebuilt,
  type Lang,
  planRebuild,
  ROLES,
} from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';
import { stateWrite } from '../faults/fault.js';
import { fsFault } from '../faults/fsfault.js';
import { CheckpointStore, createFile, syncDir } from './checkpoints.js';
import { Journal, readJournal, runIdFor } from './journal.js';

// A run's journal lost (events.jsonl deleted, emptied, cut before `run_started`): `--resume` rebuilds
// it from the checkpoints and `goal.txt`; what to write is planned in protocol/rebuild.ts.

/** `<run>/goal.txt`: the goal, kept outside the journal so a run whose journal is lost keeps it. */
export const GOAL_FILE = 'goal.txt';
const JOURNAL_FILE = 'events.jsonl';

type StartedLine = Extract<JournalLine, { type: 'run_started' }>;

/** Creates `<dir>/goal.txt` exclusively and durably, before the `goal` line is journaled; one that already holds `goal` is kept. */
export function keepGoal(dir: string, goal: string): void {
  const path = join(dir, GOAL_FILE);
  stateWrite(() => {
    try {
      fsFault('goal', path, 'open');
      createFile(path, goal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && readGoal(dir) === goal) return;
      throw error;
    }
    syncDir(dir);
  });
}

/** What `<dir>/goal.txt` holds, or null when there is none. */
export function readGoal(dir: string): string | null {
  try {
    return readFileSync(join(dir, GOAL_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether the run in `dir` kept anything a lost journal can be rebuilt from: a checkpoint or `goal.txt`. */
export function rebuildable(dir: string): boolean {
  if (existsSync(join(dir, GOAL_FILE))) return true;
  return ROLES.some((lane) => {
    try {
      return readdirSync(join(dir, lane, 'checkpoints')).some((name) => /^\d+$/.test(name));
    } catch {
      return false;
    }
  });
}

/** A rebuild that can be done: the goal and the `journal_rebuilt` line to write (with where the damaged journal goes), and what `goal.txt` held. */
export type Rebuild = { readonly goal: string; readonly rebuilt: JournalRebuilt; readonly goalFile: string | null };

/** A run's journal for `--resume`: its lines and `run_started`, or the rebuild it needs. */
export type Resumable =
  | { readonly rebuild: null; readonly lines: JournalLine[]; readonly started: StartedLine }
  | { readonly rebuild: Rebuild };

/** `events.lost-<time>.jsonl`, a name no file in `dir` has. */
function lostName(dir: string): string {
  const base = `events.lost-${runIdFor(new Date())}`;
  for (let n = 0; ; n++) {
    const name = `${base}${n === 0 ? '' : `-${n}`}.jsonl`;
    if (!existsSync(join(dir, name))) return name;
  }
}

/**
 * Reads `<dir>/events.jsonl` for `--resume` (a torn last line cut off). A journal missing, empty or
 * without `run_started` is left as it is, and its rebuild planned (the planner told in `lang` when
 * the goal is lost); a run with nothing to rebuild it from is refused in one line.
 */
export function journalForResume(dir: string, lang: Lang): Resumable {
  const path = join(dir, JOURNAL_FILE);
  const survivors = existsSync(path) ? readJournal(path) : [];
  if (survivors.some((l) => l.type === 'run_started')) {
    const lines = readJournal(path, true);
    return { rebuild: null, lines, started: lines.find((l): l is StartedLine => l.type === 'run_started')! };
  }
  const loss: JournalLoss = !existsSync(path) ? 'missing' : statSync(path).size === 0 ? 'empty' : 'cut';
  const goalFile = readGoal(dir);
  const plan = planRebuild({
    loss,
    survivors,
    goalFile,
    checkpoints: new CheckpointStore(dir, basename(dir)).readAll(),
    lang,
    movedTo: loss === 'cut' ? lostName(dir) : null,
  });
  if (!plan.ok) throw new ConfigError('--resume', `run ${basename(dir)} ${plan.error}`);
  return { rebuild: { goal: plan.goal, rebuilt: plan.rebuilt, goalFile } };
}

/**
 * Writes the rebuilt journal: `start`, the goal, `journal_rebuilt`, from seq 1, in a file written
 * aside and renamed into place once whole; the damaged journal is moved aside first, never deleted.
 * A goal the damaged journal kept goes to `goal.txt` too. Returns the lines written.
 */
export function rebuildJournal(
  dir: string,
  rebuild: Rebuild,
  start: Extract<JournalEntry, { type: 'run_started' }>,
): { lines: JournalLine[]; started: StartedLine } {
  if (rebuild.rebuilt.goal_from === 'journal' && rebuild.goalFile === null) keepGoal(dir, rebuild.goal);
  const aside = join(dir, `.${JOURNAL_FILE}.${process.pid}.rebuild`);
  try {
    return stateWrite(() => {
      rmSync(aside, { recursive: true, force: true });
      mkdirSync(aside);
      const journal = new Journal(aside);
      let started: JournalLine;
      let lines: JournalLine[];
      try {
        started = journal.append(start);
        lines = [started, journal.append({ type: 'goal', text: rebuild.goal }), journal.append(rebuild.rebuilt)];
      } finally {
        journal.close();
      }
      const movedTo = rebuild.rebuilt.moved_to;
      if (movedTo !== undefined) renameSync(join(dir, JOURNAL_FILE), join(dir, movedTo));
      renameSync(join(aside, JOURNAL_FILE), join(dir, JOURNAL_FILE));
      syncDir(dir);
      return { lines, started: started as StartedLine };
    });
  } finally {
    try {
      rmSync(aside, { recursive: true, force: true });
    } catch {
      // A state directory that cannot be written keeps it: a name starting with a dot, never read as a journal.
    }
  }
}
