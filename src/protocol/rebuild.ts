import { checkpointPath } from './checkpoint-layout.js';
import { lostGoal } from './prompts.js';
import { type CheckpointOnDisk, inOrder } from './restore.js';
import { type Lang, ROLES, type Role } from './roles.js';
import type { JournalEntry, JournalLine, JournalLoss, RebuildLoss } from './schemas/journal.js';

// `--resume` of a run whose journal is lost: what to write in a new one, from the checkpoints and what
// survived. Pure: the files are read and written by app/store/rebuild.ts.

export type JournalRebuilt = Extract<JournalEntry, { type: 'journal_rebuilt' }>;

export type RebuildInput = {
  readonly loss: JournalLoss;
  /** The whole lines the damaged journal still holds (none when it is missing or empty). */
  readonly survivors: readonly JournalLine[];
  /** What `<run>/goal.txt` holds, or null when it is absent. */
  readonly goalFile: string | null;
  readonly checkpoints: readonly CheckpointOnDisk[];
  /** The language the run goes on in (from the flags): the planner is told in it when the goal is lost. */
  readonly lang: Lang;
  /** The name the damaged journal is kept under, or null when there is nothing to keep. */
  readonly movedTo: string | null;
};

export type RebuildPlan =
  | { readonly ok: true; readonly goal: string; readonly rebuilt: JournalRebuilt }
  | { readonly ok: false; readonly error: string };

/** Always lost with the journal: `run_started` and the lines that changed the run's course. */
const ALWAYS_LOST: readonly RebuildLoss[] = ['agent_commands', 'budget', 'lang', 'step_mode', 'notes', 'pauses'];

/**
 * What a rebuilt journal says after its new `run_started`: the goal (a surviving `goal` line, else
 * `goal.txt`, else, with checkpoints to go on from, a line telling the planner it was lost), and the
 * `journal_rebuilt` line. Refused when there is nothing to go on from, or the run was already done.
 */
export function planRebuild(input: RebuildInput): RebuildPlan {
  const lost = `lost its journal (events.jsonl ${input.loss})`;
  if (input.survivors.some((l) => l.type === 'done')) return { ok: false, error: `${lost} after it was done: nothing to resume` };
  const journaled = input.survivors.findLast((l) => l.type === 'goal')?.text;
  const kept = input.goalFile !== null && input.goalFile.trim() !== '' ? input.goalFile : undefined;
  if (journaled === undefined && kept === undefined && input.checkpoints.length === 0)
    return { ok: false, error: `${lost} and has no checkpoints or goal to rebuild it from: start a new run` };
  const goalFrom = journaled !== undefined ? 'journal' : kept !== undefined ? 'goal_file' : 'lost';
  const lane = (role: Role) => {
    const own = input.checkpoints.filter((c) => c.checkpoint.from === role);
    return { checkpoints: own.length, acked: own.filter((c) => c.acked).length };
  };
  const latest = inOrder(input.checkpoints).at(-1);
  const c = latest?.acked === false ? latest.checkpoint : null;
  return {
    ok: true,
    goal: journaled ?? kept ?? lostGoal(input.lang),
    rebuilt: {
      type: 'journal_rebuilt',
      why: input.loss,
      lanes: { planner: lane('planner'), builder: lane('builder') },
      pending: c === null ? null : { lane: c.from, checkpoint_seq: c.seq, round: c.round, to: c.to },
      goal_from: goalFrom,
      lost: goalFrom === 'lost' ? ['goal', ...ALWAYS_LOST] : [...ALWAYS_LOST],
      ...(input.movedTo !== null ? { moved_to: input.movedTo } : {}),
    },
  };
}

/** A `journal_rebuilt` line in words, for `show`, `runs`, the history panel and a toast. */
export function rebuiltText(r: JournalRebuilt): string {
  const found = ROLES.map((role) => `${role} ${r.lanes[role].checkpoints} (${r.lanes[role].acked} acked)`).join(', ');
  const pending =
    r.pending === null
      ? 'none pending'
      : `${checkpointPath(r.pending.lane, r.pending.checkpoint_seq)} (round ${r.pending.round}) pending for the ${r.pending.to}`;
  const goal = r.goal_from === 'journal' ? 'goal from the journal' : r.goal_from === 'goal_file' ? 'goal from goal.txt' : 'goal lost';
  const kept = r.moved_to !== undefined ? `; the damaged journal is kept as ${r.moved_to}` : '';
  return `journal rebuilt (events.jsonl ${r.why}) from the checkpoints: ${found}, ${pending}; ${goal}; lost: ${r.lost.map((l) => l.replace(/_/g, ' ')).join(', ')}${kept}`;
}
