import { checkpointPath } from './checkpoint-layout.js';
import { initialState } from './machine.js';
import { handoffMessage, preambleFor } from './messages.js';
import { goalMessage, resumeNotice } from './prompts.js';
import type { Outgoing, RelayConfig, RelayState } from './relay-types.js';
import type { Role } from './roles.js';
import type { HandoffCheckpoint } from './schemas/checkpoint.js';
import type { JournalLine } from './schemas/journal.js';

/** A checkpoint as found on disk, its body read and checked against its sha256. */
export type CheckpointOnDisk = {
  readonly checkpoint: HandoffCheckpoint;
  readonly body: string;
  readonly offered: boolean;
  readonly acked: boolean;
};

export type RestoreInput = {
  /** The run's journal, in order. */
  readonly lines: readonly JournalLine[];
  /** Every checkpoint of both lanes. */
  readonly checkpoints: readonly CheckpointOnDisk[];
  /** `git diff --stat` lines when the workspace moved since the last checkpoint's anchor, else null. */
  readonly stale: readonly string[] | null;
  /** The roles whose agents lived on while relevo was away (attached panes found again): they remember the run. */
  readonly livedOn?: Readonly<Record<Role, boolean>>;
};

export type Restored = { readonly ok: true; readonly state: RelayState } | { readonly ok: false; readonly error: string };

type Of<T extends JournalLine['type']> = Extract<JournalLine, { type: T }>;
const linesOf = <T extends JournalLine['type']>(lines: readonly JournalLine[], type: T): Of<T>[] =>
  lines.filter((l): l is Of<T> => l.type === type);

/** Oldest first: by creation time, then by lane position. */
export function inOrder(checkpoints: readonly CheckpointOnDisk[]): CheckpointOnDisk[] {
  return [...checkpoints].sort(
    (a, b) => a.checkpoint.created_at.localeCompare(b.checkpoint.created_at) || a.checkpoint.seq - b.checkpoint.seq,
  );
}

/**
 * The relay state of an interrupted run, from its journal and its checkpoints; the acks on disk are
 * the truth about what was delivered. New agent processes are introduced again; agents that lived on are not.
 * The state is paused (with the pause the run had, or `interrupted`); a `resume` event goes on:
 * it sends the pending handoff (an offered one again, once), or, when the turn already belonged to
 * an agent, a notice telling that agent where the handoff it was working on is.
 */
export function restoreState(config: RelayConfig, input: RestoreInput): Restored {
  const { lines } = input;
  if (linesOf(lines, 'done').length > 0) return { ok: false, error: 'this run is already done' };
  const goal = linesOf(lines, 'goal').at(-1)?.text;
  if (goal === undefined) return { ok: false, error: 'this run never got its goal: start a new run instead' };

  const all = inOrder(input.checkpoints);
  const acked = all.filter((c) => c.acked);
  const lastOf = (list: readonly CheckpointOnDisk[], pick: (c: HandoffCheckpoint) => boolean) =>
    list.filter((c) => pick(c.checkpoint)).at(-1);

  const base = initialState(config);
  const seqs = { ...base.seqs };
  for (const c of all) seqs[c.checkpoint.from] = Math.max(seqs[c.checkpoint.from], c.checkpoint.seq);
  /** Per role: the body of the last checkpoint `pick` chooses for it, or null. */
  const perRole = (pick: (role: Role) => CheckpointOnDisk | undefined) => ({
    planner: pick('planner')?.body ?? null,
    builder: pick('builder')?.body ?? null,
  });
  const lastSent = perRole((role) => lastOf(acked, (c) => c.to === role));
  const lastReceived = perRole((role) => lastOf(all, (c) => c.from === role));
  const round = Math.max(0, ...acked.filter((c) => c.checkpoint.from === 'planner').map((c) => c.checkpoint.round));
  const budget = linesOf(lines, 'resumed').at(-1)?.budget ?? config.maxRounds;
  const lived = (role: Role) => input.livedOn?.[role] === true;
  // It knows its role: launched with it (as run_started says, or started again by relevo), or typed a message since.
  const started = linesOf(lines, 'run_started')[0];
  const knowsRole = (role: Role) =>
    started?.[role].role_prompt === 'launch' ||
    linesOf(lines, 'agent_restarted').some((r) => r.role === role) ||
    linesOf(lines, 'delivered').some((d) => d.to === role);
  const step = linesOf(lines, 'step_mode').at(-1)?.on ?? false;

  // The pause the run was in when relevo stopped, if it was paused; else it was interrupted.
  const last = lines.filter((l) => l.type === 'paused' || l.type === 'resumed' || l.type === 'run_resumed').at(-1);
  const pause =
    last?.type === 'paused'
      ? {
          reason: last.reason,
          ...(last.role ? { role: last.role } : {}),
          ...(last.detail ? { detail: last.detail } : {}),
          ...(last.resume_at ? { resumeAt: Date.parse(last.resume_at) } : {}),
          ...(last.profile ? { profile: last.profile } : {}),
        }
      : { reason: 'interrupted' as const };

  const state: RelayState = {
    ...base,
    phase: 'paused',
    round,
    budget,
    goal,
    step,
    seqs,
    lastSent,
    lastReceived,
    // A new agent has not seen the goal nor its role; one that lived on has, and is told nothing again.
    restarted: { planner: !lived('planner'), builder: !lived('builder') },
    introduced: { planner: lived('planner') && knowsRole('planner'), builder: lived('builder') && knowsRole('builder') },
    pause,
    stale: input.stale,
    notes: { planner: queuedNote(lines, 'planner'), builder: queuedNote(lines, 'builder') },
  };
  return { ok: true, state: { ...state, pending: pendingOf(config, state, all.at(-1), lines) } };
}

/** The note queued for `role` and not yet inside a checkpoint, from the journal: queued, cancelled, or taken by a checkpoint to it. */
function queuedNote(lines: readonly JournalLine[], role: Role): string | null {
  let note: string | null = null;
  for (const l of lines) {
    if (l.type === 'note_queued' && l.to === role) note = note === null ? l.text : `${note}\n\n${l.text}`;
    else if ((l.type === 'note_cancelled' && l.to === role) || (l.type === 'checkpoint' && l.to === role && l.note_chars !== undefined))
      note = null;
  }
  return note;
}

function pendingOf(config: RelayConfig, state: RelayState, latest: CheckpointOnDisk | undefined, lines: readonly JournalLine[]): Outgoing {
  const goal = state.goal ?? '';
  if (latest === undefined) {
    const preamble = preambleFor(config, state, 'planner');
    const goalDelivered = linesOf(lines, 'delivered').some((d) => d.kind === 'goal');
    if (!goalDelivered)
      return { kind: 'goal', to: 'planner', from: 'relevo', round: 0, body: goal, text: goalMessage(goal, config.lang, preamble) };
    const text = resumeNotice(config.lang, { to: 'planner', goal }, preamble);
    return { kind: 'notice', to: 'planner', from: 'relevo', round: 0, body: text, text, cause: 'resume' };
  }
  const c = latest.checkpoint;
  // Not acknowledged: still the sender's; sent again (to a restarted planner with the goal first).
  if (!latest.acked) return handoffMessage(config, state, c.from, c.round, c.seq, latest.body, c.note ?? null);
  // Acknowledged before relevo stopped: never sent again; the receiver is told where it is.
  const path = `${config.runPath}/${checkpointPath(c.from, c.seq)}/HANDOFF.md`;
  const text = resumeNotice(
    config.lang,
    { to: c.to, goal, handoff: { round: c.round, from: c.from, path } },
    preambleFor(config, state, c.to),
  );
  const handoff = { lane: c.from, seq: c.seq };
  return { kind: 'notice', to: c.to, from: 'relevo', round: c.round, body: text, text, cause: 'resume', handoff };
}
