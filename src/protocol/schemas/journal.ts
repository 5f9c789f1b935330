import { z } from 'zod';
import { ROLES, LANGS } from '../roles.js';

export const PAUSE_REASONS = [
  'max_rounds',
  'no_handoff',
  'duplicate_handoff',
  'delivery_failed',
  'agent_blocked',
  'agent_exited',
  'user',
  'step',
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Where a turn's reply text came from, most exact first. */
export const REPLY_SOURCES = ['hook', 'transcript', 'screen'] as const;
export type ReplySource = (typeof REPLY_SOURCES)[number];

const role = z.enum(ROLES);
const agentInfo = z.strictObject({ command: z.array(z.string()), profile: z.string() });

/** One line of `events.jsonl`, before the journal stamps it with `seq` and `ts`. */
export const journalEntrySchema = z.discriminatedUnion('type', [
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
  }),
  z.strictObject({ type: z.literal('goal'), text: z.string() }),
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
    kind: z.enum(['goal', 'handoff']),
    round: z.number().int().nonnegative(),
    from: z.enum([...ROLES, 'relevo']),
    to: role,
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    chars: z.number().int().nonnegative(),
    attempts: z.number().int().positive(),
  }),
  z.strictObject({ type: z.literal('lookalike'), role, line: z.string() }),
  z.strictObject({ type: z.literal('blocked'), role, detail: z.string().optional() }),
  z.strictObject({ type: z.literal('unblocked'), role }),
  /** A message on the hook channel that was refused (wrong token, bad shape): the relay goes on. */
  z.strictObject({ type: z.literal('hook_rejected'), reason: z.string().max(240) }),
  z.strictObject({
    type: z.literal('paused'),
    reason: z.enum(PAUSE_REASONS),
    role: role.optional(),
    detail: z.string().optional(),
    pending_round: z.number().int().nonnegative().optional(),
    pending_to: role.optional(),
  }),
  z.strictObject({ type: z.literal('resumed'), budget: z.number().int().nonnegative() }),
  /** Step mode: relevo asks before each relay (it pauses with reason `step`, the pending handoff kept). */
  z.strictObject({ type: z.literal('step_mode'), on: z.boolean() }),
  /** A person edited the pending handoff before it was sent. */
  z.strictObject({
    type: z.literal('pending_edited'),
    round: z.number().int().nonnegative(),
    to: role,
    chars: z.number().int().nonnegative(),
  }),
  z.strictObject({ type: z.literal('done'), summary: z.string(), rounds: z.number().int().nonnegative() }),
  z.strictObject({
    type: z.literal('agent_exited'),
    role,
    exit_code: z.number().int(),
    signal: z.number().int().optional(),
  }),
]);
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export const journalLineSchema = z.intersection(
  z.object({ seq: z.number().int().positive(), ts: z.iso.datetime({ offset: true }) }),
  journalEntrySchema,
);
export type JournalLine = z.infer<typeof journalLineSchema>;
