/** The relay machine's vocabulary: its settings, its state, the events it takes and the effects it asks for (machine.ts holds the rules). */
import type { Lang, Role } from './roles.js';
import type { JournalEntry, NoticeCause, PauseReason, ReplySource } from './schemas/journal.js';

export type DeliveryMode = 'auto' | 'file' | 'inline';

/** When a handoff is typed as a pointer to its HANDOFF.md instead of in full. */
export type DeliveryPolicy = {
  readonly mode: DeliveryMode;
  /** `auto`: a body over this many bytes (UTF-8) or lines goes as a file. */
  readonly maxBytes: number;
  readonly maxLines: number;
};

export const DEFAULT_DELIVERY: DeliveryPolicy = { mode: 'auto', maxBytes: 4096, maxLines: 60 };

/** Settings fixed for a run. */
export type RelayConfig = {
  readonly maxRounds: number;
  readonly lang: Lang;
  /** Roles whose agent gets its role prompt inside its first message (no launch flag for it). */
  readonly inlineRolePrompt: Readonly<Record<Role, boolean>>;
  readonly delivery: DeliveryPolicy;
  /** The run directory as the agents reach it from their working directory, with `/`. */
  readonly runPath: string;
};

/** What every message relevo types carries, whoever it is from. */
type MessageBase = {
  readonly to: Role;
  /** Round the message belongs to: 0 for the goal. */
  readonly round: number;
  /** The handoff body (or the goal, or the notice), without header or role prompt. */
  readonly body: string;
  /** Exactly what is typed into the agent. */
  readonly text: string;
};

/** Fields only a handoff has, never present on relevo's own messages: code over any message may still read them. */
type NotCheckpointed = { readonly seq?: never; readonly via?: never; readonly note?: never };

/** The person's goal, relevo's first message to the planner. */
export type GoalMessage = MessageBase & NotCheckpointed & { readonly kind: 'goal'; readonly from: 'relevo' };

/** One agent's handoff to its peer, checkpointed in the sender's lane before it is typed. */
export type HandoffMessage = MessageBase & {
  readonly kind: 'handoff';
  readonly from: Role;
  /** The handoff's checkpoint: its seq in the sender's lane. */
  readonly seq: number;
  /** Typed in full, or as the path of its HANDOFF.md. */
  readonly via: 'inline' | 'file';
  /** A person's note riding after the body (kept in the checkpoint too). */
  readonly note?: string;
};

/** relevo's own word to a restarted agent (where the handoff it was working on is); never checkpointed. */
export type NoticeMessage = MessageBase &
  NotCheckpointed & {
    readonly kind: 'notice';
    readonly from: 'relevo';
    /** Sent because the run was resumed, or because this agent exited and was started again. */
    readonly cause: NoticeCause;
    /** The checkpoint whose HANDOFF.md the notice sends the agent to: checked before it is typed. */
    readonly handoff?: { readonly lane: Role; readonly seq: number };
  };

/** A message relevo is about to type, or holds while paused: only a handoff has a lane, a seq and a way of delivery. */
export type Outgoing = GoalMessage | HandoffMessage | NoticeMessage;

export type Phase = 'ready' | 'running' | 'paused' | 'done';

/** Why the relay is paused; a `rate_limited` pause names the CLI's profile and, when known, when its limit resets. */
export type Pause = {
  readonly reason: PauseReason;
  readonly role?: Role;
  readonly detail?: string;
  /** Epoch ms the limit resets (`rate_limited`). */
  readonly resumeAt?: number;
  /** The profile id of the CLI whose limit it is (`rate_limited`). */
  readonly profile?: string;
};

export type RelayState = {
  readonly phase: Phase;
  /** The last round delivered to the builder. */
  readonly round: number;
  /** Highest round that may be delivered before pausing with `max_rounds`. */
  readonly budget: number;
  /** The agent whose turn relevo waits on; null while nothing was delivered. */
  readonly turn: Role | null;
  /** The message being delivered, or kept while paused. */
  readonly pending: Outgoing | null;
  /** True while the `deliver` effect for `pending` has not come back. */
  readonly delivering: boolean;
  readonly lastSent: Readonly<Record<Role, string | null>>;
  readonly lastReceived: Readonly<Record<Role, string | null>>;
  readonly introduced: Readonly<Record<Role, boolean>>;
  /** The agent is a new process of a resumed run: it has not seen the goal (until it is introduced). */
  readonly restarted: Readonly<Record<Role, boolean>>;
  readonly pause: Pause | null;
  readonly goal: string | null;
  readonly summary: string | null;
  /** Step mode: pause before each relay, the handoff kept pending until a resume sends it. */
  readonly step: boolean;
  /** The last checkpoint seq of each lane. */
  readonly seqs: Readonly<Record<Role, number>>;
  /** STALE: the workspace moved since the last checkpoint (`git diff --stat` lines), until a new checkpoint. */
  readonly stale: readonly string[] | null;
  /** Per role: the person's note queued for the next handoff to it (not yet in any checkpoint). */
  readonly notes: Readonly<Record<Role, string | null>>;
  /** Per role: its process exited and was not started again (a goal given then waits for it). Not kept once done. */
  readonly exited: Readonly<Record<Role, boolean>>;
};

export type RelayEvent =
  | { readonly type: 'start'; readonly goal: string }
  | {
      readonly type: 'turn-ended';
      readonly role: Role;
      readonly reply: string;
      readonly source: ReplySource;
      /** The turn was interrupted: its reply is partial. */
      readonly interrupted?: boolean;
      /** The reply comes from a screen that may have split long lines. */
      readonly lossy?: boolean;
    }
  | { readonly type: 'delivered'; readonly to: Role; readonly sha256: string; readonly attempts: number; readonly transferId?: string }
  | { readonly type: 'ack-refused'; readonly to: Role; readonly detail: string }
  /** The checkpoint about to go to `to` differs from its journal line (or offer, ack); `detail` names the file. */
  | { readonly type: 'checkpoint-mismatch'; readonly to: Role; readonly detail: string }
  | { readonly type: 'delivery-failed'; readonly to: Role; readonly detail: string }
  | { readonly type: 'agent-blocked'; readonly role: Role; readonly detail?: string }
  | { readonly type: 'agent-unblocked'; readonly role: Role }
  | { readonly type: 'blocked-timeout'; readonly role: Role }
  /**
   * A usage or rate limit of `profile`'s CLI: the relay pauses `rate_limited` until `resetAt` (epoch
   * ms; null when unknown: the person resumes). `role` is the agent that hit it; absent when the
   * relay is held for another relay's limit on the same CLI.
   */
  | {
      readonly type: 'rate-limited';
      readonly role?: Role;
      readonly profile: string;
      readonly resetAt: number | null;
      readonly detail?: string;
    }
  /** The limit's reset time came: a relay paused `rate_limited` goes on (any other pause stays). */
  | { readonly type: 'limit-reset' }
  /** `reason`: why, when more is known than the code (`the tmux server on box is gone (…)`): the pause's detail. */
  | { readonly type: 'agent-exited'; readonly role: Role; readonly exitCode: number; readonly signal?: number; readonly reason?: string }
  /** An agent that exited runs again (same command and launch flags); `pid` when relevo owns its terminal. */
  /** `pane`: where it runs now when relevo does not own its terminal (`tmux %7 on box`). */
  | { readonly type: 'agent-restarted'; readonly role: Role; readonly pid?: number; readonly pane?: string }
  /** The person (or a signal to relevo, named in `detail`) stops the relay. */
  | { readonly type: 'pause'; readonly detail?: string }
  /** relevo ends (the person quit, or a signal named in `detail`): a run under way pauses; one with no goal yet is journaled as such. */
  | { readonly type: 'stop'; readonly detail?: string }
  | { readonly type: 'resume' }
  | { readonly type: 'set-step'; readonly on: boolean }
  | { readonly type: 'edit-pending'; readonly body: string }
  /** A person's note for `to`, carried by the next handoff to it; `cancel-note` drops it before it is sent. */
  | { readonly type: 'note'; readonly to: Role; readonly text: string }
  | { readonly type: 'cancel-note'; readonly to: Role }
  /** relevo could not write its state, or failed itself; `delivery`: the delivery to that role was stopped. */
  | { readonly type: 'fault'; readonly reason: 'state_unwritable' | 'internal_error'; readonly detail: string; readonly delivery?: Role };

export type Effect =
  | { readonly type: 'journal'; readonly entry: JournalEntry }
  /** Write the handoff's checkpoint to its sender's lane; performed before any later effect. */
  | { readonly type: 'checkpoint'; readonly message: HandoffMessage; readonly supersedes?: number }
  | { readonly type: 'deliver'; readonly message: Outgoing };

export type Step = { readonly state: RelayState; readonly effects: readonly Effect[] };
