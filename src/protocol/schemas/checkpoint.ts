import { z } from 'zod';
import { bodySize, checkpointPath } from '../checkpoint-layout.js';
import { ROLES, type Role } from '../roles.js';
import { lazySchema } from './lazy.js';

/** Version of `handoff.json`, `offer.json` and `ack.json`. */
export const CHECKPOINT_SCHEMA_VERSION = 1;
/** A `handoff.json` holds its body only while the whole JSON stays within this many bytes. */
export const MAX_CHECKPOINT_BYTES = 8 * 1024;
/** Every string field but the body stays within this many characters. */
export const MAX_FIELD_CHARS = 240;
/** Where the body goes when it does not fit in `handoff.json`. */
export const BODY_FILE = 'body.txt';

// The parts too are built where first used (lazy.ts): a datetime alone builds its regexes.
const role = lazySchema(() => z.enum(ROLES));
const field = lazySchema(() => z.string().max(MAX_FIELD_CHARS));
const digest = lazySchema(() => z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 hex digest'));
const stamp = lazySchema(() => z.iso.datetime({ offset: true }));
const version = lazySchema(() => z.literal(CHECKPOINT_SCHEMA_VERSION));

/** The working directory's git state when a checkpoint was written: HEAD and a hash of `git status --porcelain`. */
export const gitAnchorSchema = lazySchema(() =>
  z.strictObject({
    head: z.string().regex(/^[0-9a-f]{40,64}$/, 'expected a commit id'),
    status_sha256: digest,
  }),
);
export type GitAnchor = z.infer<typeof gitAnchorSchema>;

/** `<run>/<from>/checkpoints/<seq>/handoff.json`: the source of truth for one handoff. */
export const handoffCheckpointSchema = lazySchema(() =>
  z
    .strictObject({
      schema_version: version,
      run_id: field,
      /** Position in the sender's lane, from 1. */
      seq: z.number().int().positive(),
      round: z.number().int().nonnegative(),
      from: role,
      to: role,
      created_at: stamp,
      /** Of the body, UTF-8. */
      sha256: digest,
      bytes: z.number().int().nonnegative(),
      lines: z.number().int().positive(),
      /** Absent outside a git repository. */
      anchor: gitAnchorSchema.optional(),
      /** The lane seq this checkpoint replaces (a person edited the pending handoff). */
      supersedes: z.number().int().positive().optional(),
      /** A person's note relayed after the body, as its own labelled block. */
      note: z.string().max(2000).optional(),
      /** The body itself, when the JSON stays within MAX_CHECKPOINT_BYTES. */
      body: z.string().optional(),
      /** Otherwise the file next to it that holds the body. */
      body_file: z.literal(BODY_FILE).optional(),
    })
    .refine((c) => (c.body === undefined) !== (c.body_file === undefined), 'exactly one of body and body_file')
    .refine((c) => c.from !== c.to, 'from and to must differ'),
);
export type HandoffCheckpoint = z.infer<typeof handoffCheckpointSchema>;

/** `offer.json`: relevo offers the checkpoint to its receiver; written before typing. */
export const offerSchema = lazySchema(() =>
  z.strictObject({
    schema_version: version,
    transfer_id: z.uuid(),
    /** The checkpoint directory, relative to the run directory. */
    checkpoint: field,
    sha256: digest,
    from: role,
    to: role,
    round: z.number().int().nonnegative(),
    created_at: stamp,
  }),
);
export type Offer = z.infer<typeof offerSchema>;

/** `ack.json`: created once, when the receiver took the handoff; ownership moves with it. */
export const ackSchema = lazySchema(() =>
  z.strictObject({
    schema_version: version,
    transfer_id: z.uuid(),
    receiver: role,
    sha256: digest,
    acked_at: stamp,
    /** The workspace moved since the checkpoint was written. */
    stale: z.boolean(),
  }),
);
export type Ack = z.infer<typeof ackSchema>;

/** Fields of a checkpoint before its body is placed. */
export type CheckpointDraft = Omit<HandoffCheckpoint, 'body' | 'body_file' | 'schema_version' | 'bytes' | 'lines'>;

/**
 * The checkpoint for `body`: the body inside the JSON when it stays within MAX_CHECKPOINT_BYTES,
 * else `body_file`, and the body then goes to that file. Validated: a field over its limit throws.
 */
export function buildCheckpoint(
  draft: CheckpointDraft,
  body: string,
): { checkpoint: HandoffCheckpoint; json: string; bodyFile: string | null } {
  const base = { schema_version: CHECKPOINT_SCHEMA_VERSION, ...draft, ...bodySize(body) } as const;
  const inline = handoffCheckpointSchema.parse({ ...base, body });
  const json = `${JSON.stringify(inline, null, 2)}\n`;
  if (new TextEncoder().encode(json).length <= MAX_CHECKPOINT_BYTES) return { checkpoint: inline, json, bodyFile: null };
  const outside = handoffCheckpointSchema.parse({ ...base, body_file: BODY_FILE });
  return { checkpoint: outside, json: `${JSON.stringify(outside, null, 2)}\n`, bodyFile: body };
}

/** True when the workspace moved since `then` (a checkpoint without an anchor never goes stale). */
export function anchorMoved(then: GitAnchor | undefined, now: GitAnchor | null): boolean {
  if (then === undefined) return false;
  return now === null || now.head !== then.head || now.status_sha256 !== then.status_sha256;
}

/** Why an ack is refused, or null when it may be written. The words are the protocol's. */
export function ackRefusal(o: {
  offer: Offer;
  checkpointSha256: string;
  bodySha256: string;
  receiver: Role;
  acked: boolean;
}): string | null {
  if (o.acked) return `already acknowledged: ${o.offer.checkpoint} (transfer ${o.offer.transfer_id})`;
  if (o.offer.to !== o.receiver) return `intended for ${o.offer.to}, not ${o.receiver}: ${o.offer.checkpoint}`;
  if (o.bodySha256 !== o.checkpointSha256 || o.offer.sha256 !== o.checkpointSha256) {
    return `digest mismatch: ${o.offer.checkpoint} (offer ${o.offer.sha256.slice(0, 12)}, checkpoint ${o.checkpointSha256.slice(0, 12)}, body ${o.bodySha256.slice(0, 12)})`;
  }
  return null;
}

/** `HANDOFF.md`: the checkpoint for people (and for agents told to read it), generated from the JSON. */
export function handoffMarkdown(c: HandoffCheckpoint, body: string, header: string, note: string | null = null): string {
  const anchor = c.anchor ? `HEAD ${c.anchor.head.slice(0, 12)} · status ${c.anchor.status_sha256.slice(0, 12)}` : 'not a git repository';
  return [
    `# relevo handoff · round ${c.round} · ${c.from} → ${c.to}`,
    '',
    `- run: ${c.run_id}`,
    `- checkpoint: ${checkpointPath(c.from, c.seq)}${c.supersedes ? ` (replaces ${c.supersedes})` : ''}`,
    `- created: ${c.created_at}`,
    `- sha256: ${c.sha256}`,
    `- workspace: ${anchor}`,
    '',
    'The handoff follows, as relevo relays it:',
    '',
    header,
    body,
    ...(note !== null ? ['', note] : []),
    '',
  ].join('\n');
}
