import { z } from 'zod';
import { LANGS, ROLES } from '../roles.js';
import { explanationSchema } from './explain.js';
import { lazySchema } from './lazy.js';

export const PAUSE_REASONS = [
  'max_rounds',
  'no_handoff',
  'duplicate_handoff',
  'delivery_failed',
  'agent_blocked',
  'agent_exited',
  'user',
  'step',
  /** The receiver's ack was refused (digest mismatch, already acknowledged, intended for another role). */
  'ack_refused',
  /** relevo itself stopped (crash, kill) before the run ended; `--resume` picks it up. */
  'interrupted',
  /** A write to the state directory failed (`ENOSPC …`): nothing is delivered without its checkpoint. */
  'state_unwritable',
  /** relevo failed in a way it did not foresee; the detail says how. */
  'internal_error',
  /** A checkpoint's files differ from what the journal (or its offer, its ack) recorded: it is never typed. */
  'checkpoint_mismatch',
  /** A relay's worktree setup (`[worktree] setup` in relevo.toml) failed: the detail is its log's last line. */
  'setup_failed',
  /** The agent's CLI hit its usage or rate limit: the relay goes on at `resume_at` (or when the person resumes). */
  'rate_limited',
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Why a turn counts as stalled: busy past `stall_after`, or its state flapping busy/idle. */
export const STALL_KINDS = ['busy', 'flapping'] as const;
export type StallKind = (typeof STALL_KINDS)[number];

/** Where a turn's reply text came from, most exact first. */
export const REPLY_SOURCES = ['hook', 'transcript', 'screen'] as const;
export type ReplySource = (typeof REPLY_SOURCES)[number];

/** Why `--resume` rebuilt a run's journal: `events.jsonl` was missing, empty, or held no `run_started` line. */
export const JOURNAL_LOSSES = ['missing', 'empty', 'cut'] as const;
export type JournalLoss = (typeof JOURNAL_LOSSES)[number];
/** What a rebuilt journal cannot get back from the checkpoints (the goal only when neither the journal nor `goal.txt` kept it). */
export const REBUILD_LOSSES = ['goal', 'agent_commands', 'budget', 'lang', 'step_mode', 'notes', 'pauses'] as const;
export type RebuildLoss = (typeof REBUILD_LOSSES)[number];
/** Where a rebuilt journal's goal came from: a `goal` line the damaged journal kept, `<run>/goal.txt`, or nowhere. */
export const GOAL_SOURCES = ['journal', 'goal_file', 'lost'] as const;

const role = lazySchema(() => z.enum(ROLES));
const field = lazySchema(() => z.string().max(240));
const digest = lazySchema(() => z.string().regex(/^[0-9a-f]{64}$/));
/** What relevo types: the goal, a relayed handoff, or a notice after a resume. */
export const MESSAGE_KINDS = ['goal', 'handoff', 'notice'] as const;
/** Why relevo sent a notice: the run was resumed (`--resume`), an agent that exited was started again, or its usage limit reset mid-turn. */
export const NOTICE_CAUSES = ['resume', 'restart', 'limit'] as const;
export type NoticeCause = (typeof NOTICE_CAUSES)[number];
export const DELIVERY_MODES = ['inline', 'file'] as const;
export const MEMORY_STATES = ['ready', 'blocked', 'stored', 'failed'] as const;
/** An agent: its command and profile, and where it runs when relevo attached to it (`tmux %3`, `herdr w1:p2`). */
const agentInfo = lazySchema(() =>
  z.strictObject({
    command: z.array(z.string()),
    profile: z.string(),
    pane: z.string().optional(),
    /** The CLI's release as it printed it (`claude --version`), when the profile knows how to ask. */
    cli_version: z.string().max(64).optional(),
    /** How the agent was told its role: by a launch flag or variable, or in the first message relevo typed. */
    role_prompt: z.enum(['launch', 'message']).optional(),
  }),
);

/** A lane's checkpoints as a rebuild found them: how many, and how many of them acknowledged. */
const laneFound = lazySchema(() => z.strictObject({ checkpoints: z.number().int().nonnegative(), acked: z.number().int().nonnegative() }));

/** One line of `events.jsonl`, before the journal stamps it with `seq` and `ts`. */
export const journalEntrySchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('run_started'),
      run_id: z.string(),
      version: z.string(),
      nonce: z.string(),
      cwd: z.string(),
      max_rounds: z.number().int().positive(),
      lang: z.enum(LANGS),
      planner: agentInfo,
      builder: agentInfo,
      /** The Unix socket agents' end-of-turn hooks report on, when a profile has a hook. */
      hook_socket: z.string().optional(),
      /** The tmux server (`-L` name) of agents in tmux panes; absent for the default or current one. */
      tmux_socket: z.string().optional(),
      /** The run this one follows: a next goal given after that run's `done`, to the same agents. */
      follows: z.string().optional(),
      /**
       * A relay of several (`relevo-tui new`): its branch (the relay's name), its worktree, the base it
       * was made from, its block of ports; `host` when its agents and worktree are on another machine (`path` is the host's).
       */
      worktree: z
        .strictObject({
          branch: z.string(),
          path: z.string(),
          base: z.string(),
          port: z.number().int().positive().optional(),
          host: z.string().optional(),
        })
        .optional(),
    }),
    z.strictObject({ type: z.literal('goal'), text: z.string() }),
    /** relevo ended before the run got its goal (the person quit, or a signal named in `detail`): nothing was started, nothing to resume. */
    z.strictObject({ type: z.literal('no_goal'), detail: field.optional() }),
    z.strictObject({
      type: z.literal('turn_ended'),
      role,
      source: z.enum(REPLY_SOURCES),
      chars: z.number().int().nonnegative(),
      /** False when the turn was not one relevo waited for (someone talked to the agent directly), or was interrupted. */
      relayed: z.boolean(),
      /** The agent was interrupted (Esc): its partial reply is never relayed; relevo waits for its next turn. */
      interrupted: z.boolean().optional(),
      /** Read from a screen where the agent hard-wraps its lines: long lines may arrive split. */
      lossy: z.boolean().optional(),
    }),
    z.strictObject({
      type: z.literal('delivered'),
      kind: z.enum(MESSAGE_KINDS),
      round: z.number().int().nonnegative(),
      from: z.enum([...ROLES, 'relevo']),
      to: role,
      sha256: digest,
      chars: z.number().int().nonnegative(),
      attempts: z.number().int().positive(),
      /** The checkpoint this handoff was relayed from (lane = from) and its transfer. */
      checkpoint_seq: z.number().int().positive().optional(),
      transfer_id: z.uuid().optional(),
      /** `file`: relevo typed the header and the path of the checkpoint's HANDOFF.md. */
      via: z.enum(DELIVERY_MODES).optional(),
      /** The handoff carried a person's note of this many characters. */
      note_chars: z.number().int().positive().optional(),
      /** A notice: why it was sent. Absent in journals written before it was recorded (a resumed run). */
      cause: z.enum(NOTICE_CAUSES).optional(),
    }),
    /** A handoff written to its sender's lane before anything is typed. */
    z.strictObject({
      type: z.literal('checkpoint'),
      lane: role,
      checkpoint_seq: z.number().int().positive(),
      round: z.number().int().nonnegative(),
      to: role,
      sha256: digest,
      bytes: z.number().int().nonnegative(),
      lines: z.number().int().positive(),
      supersedes: z.number().int().positive().optional(),
      /** The checkpoint holds a person's note for its receiver, of this many characters. */
      note_chars: z.number().int().positive().optional(),
      /** sha256 of the files' bytes as written (absent in older journals): what the checkpoint is checked against. */
      handoff_json_sha256: digest.optional(),
      handoff_md_sha256: digest.optional(),
    }),
    /** offer.json written: the checkpoint is offered to its receiver (again after a resume: `resend`). */
    z.strictObject({
      type: z.literal('offered'),
      lane: role,
      checkpoint_seq: z.number().int().positive(),
      round: z.number().int().nonnegative(),
      to: role,
      transfer_id: z.uuid(),
      resend: z.boolean().optional(),
    }),
    /** `--resume`: the run goes on in a new relevo process, its agents restarted. */
    z.strictObject({
      type: z.literal('run_resumed'),
      version: z.string(),
      planner: agentInfo,
      builder: agentInfo,
      pending_kind: z.enum(MESSAGE_KINDS).optional(),
      pending_to: role.optional(),
      pending_round: z.number().int().nonnegative().optional(),
      hook_socket: z.string().optional(),
    }),
    /**
     * `--resume` found the journal lost (`why`) and rebuilt it from the checkpoints: what each lane
     * held, the handoff still pending (null when none), where the goal came from, what is lost, and
     * the file the damaged journal was moved aside to.
     */
    z.strictObject({
      type: z.literal('journal_rebuilt'),
      why: z.enum(JOURNAL_LOSSES),
      lanes: z.strictObject({ planner: laneFound, builder: laneFound }),
      pending: z
        .strictObject({ lane: role, checkpoint_seq: z.number().int().positive(), round: z.number().int().nonnegative(), to: role })
        .nullable(),
      goal_from: z.enum(GOAL_SOURCES),
      lost: z.array(z.enum(REBUILD_LOSSES)),
      moved_to: field.optional(),
    }),
    /** The workspace moved since the last checkpoint's git anchor. */
    z.strictObject({
      type: z.literal('stale'),
      lane: role,
      checkpoint_seq: z.number().int().positive(),
      head_then: field,
      head_now: field.optional(),
      status_changed: z.boolean(),
      /** `git diff --stat` against the anchor, cut to a few lines. */
      diff_stat: z.array(field).max(12),
    }),
    /** mnemosyne: available (ready), missing (blocked, with the install hint), a summary stored, or a store that failed. */
    z.strictObject({
      type: z.literal('memory'),
      state: z.enum(MEMORY_STATES),
      bank: field.optional(),
      detail: field.optional(),
      id: field.optional(),
      round: z.number().int().nonnegative().optional(),
    }),
    /** At start: an agent CLI outside the range its profile was tested with, or whose release relevo could not read. A warning: the run goes on. */
    z.strictObject({
      type: z.literal('agent_untested'),
      role,
      profile: field,
      verdict: z.enum(['older', 'newer', 'unknown']),
      cli_version: z.string().max(64).optional(),
      /** The tested range, `2.1.197 – 2.1.332`. */
      tested: field,
      detail: field,
    }),
    /** At start: an xterm internal relevo reads is missing or changed shape, and the fallback taken. A warning: the run goes on. */
    z.strictObject({ type: z.literal('xterm_fallback'), internal: field, found: field, fallback: field }),
    z.strictObject({ type: z.literal('lookalike'), role, line: z.string() }),
    z.strictObject({ type: z.literal('blocked'), role, detail: z.string().optional() }),
    z.strictObject({ type: z.literal('unblocked'), role }),
    /** A delivery waits: the person has an unsent draft in the receiver's input box (sent or cleared, it goes on). */
    z.strictObject({ type: z.literal('delivery_held'), role, round: z.number().int().nonnegative() }),
    /**
     * A turn busy longer than `stall_after`, or an agent flapping busy/idle with no turn end: shown, never acted on.
     * `detection`: every rule of the agent's profile evaluated on its screen at that moment.
     */
    z.strictObject({
      type: z.literal('stalled'),
      role,
      why: z.enum(STALL_KINDS),
      for_ms: z.number().int().nonnegative(),
      detection: explanationSchema.optional(),
    }),
    /** A message on the hook channel that was refused (wrong token, bad shape): the relay goes on. */
    z.strictObject({ type: z.literal('hook_rejected'), reason: z.string().max(240) }),
    z.strictObject({
      type: z.literal('paused'),
      reason: z.enum(PAUSE_REASONS),
      role: role.optional(),
      detail: z.string().optional(),
      pending_round: z.number().int().nonnegative().optional(),
      pending_to: role.optional(),
      /** `rate_limited`: when the limit resets (ISO time), and the profile id of the CLI whose limit it is. */
      resume_at: z.iso.datetime().optional(),
      profile: z.string().optional(),
    }),
    /** `limit_reset`: relevo went on by itself at a `rate_limited` pause's reset time. */
    z.strictObject({ type: z.literal('resumed'), budget: z.number().int().nonnegative(), limit_reset: z.literal(true).optional() }),
    /** Step mode: relevo asks before each relay (it pauses with reason `step`, the pending handoff kept). */
    z.strictObject({ type: z.literal('step_mode'), on: z.boolean() }),
    /** A person edited the pending handoff before it was sent. */
    z.strictObject({
      type: z.literal('pending_edited'),
      round: z.number().int().nonnegative(),
      to: role,
      chars: z.number().int().nonnegative(),
    }),
    /** A person's note, queued for the next handoff to `to` (or joined to the one waiting for it). */
    z.strictObject({ type: z.literal('note_queued'), to: role, text: z.string().max(2000) }),
    /** The person took their note back before it was sent. */
    z.strictObject({ type: z.literal('note_cancelled'), to: role, chars: z.number().int().nonnegative() }),
    z.strictObject({ type: z.literal('done'), summary: z.string(), rounds: z.number().int().nonnegative() }),
    z.strictObject({
      type: z.literal('agent_exited'),
      role,
      exit_code: z.number().int(),
      signal: z.number().int().optional(),
    }),
    /** The agents' host stopped answering (ssh's line in `detail`): the panes are kept and looked at again with back-off. */
    z.strictObject({ type: z.literal('unreachable'), host: z.string(), detail: z.string().max(240) }),
    /** The host answers again after `for_ms` out of reach: the mirrors go on. */
    z.strictObject({ type: z.literal('reachable'), host: z.string(), for_ms: z.number().int().nonnegative() }),
    /**
     * An agent that exited was started again (same command and launch flags): its pid when relevo owns
     * its terminal, else the pane it runs in now (`--resume` finds it there).
     */
    z.strictObject({ type: z.literal('agent_restarted'), role, pid: z.number().int().positive().optional(), pane: z.string().optional() }),
  ]),
);
export type JournalEntry = z.infer<typeof journalEntrySchema>;
/** A relay of several, as its `run_started` line records it (`relevo-tui new`). */
export type RelayInfo = NonNullable<Extract<JournalEntry, { type: 'run_started' }>['worktree']>;

export const journalLineSchema = lazySchema(() =>
  z.intersection(z.object({ seq: z.number().int().positive(), ts: z.iso.datetime({ offset: true }) }), journalEntrySchema),
);
export type JournalLine = z.infer<typeof journalLineSchema>;
