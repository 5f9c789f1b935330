import { checkpointPath } from './checkpoint-layout.js';
import type { Role } from './roles.js';
import type { JournalLine } from './schemas/journal.js';

/** A `checkpoint` journal line: the digests recorded when the checkpoint was written. */
export type JournaledCheckpoint = Extract<JournalLine, { type: 'checkpoint' }>;

/** What a checkpoint's files hold now: sha256 of the body, of each file's bytes, and what its offer and ack say. */
export type CheckpointEvidence = {
  readonly lane: Role;
  readonly seq: number;
  /** The file that holds the body: `handoff.json`, or `body.txt` for a body too big for it. */
  readonly bodyFile: string;
  readonly bodySha256: string;
  /** The `sha256` field of `handoff.json`. */
  readonly recordedSha256: string;
  readonly jsonSha256: string;
  /** Null when HANDOFF.md is missing. */
  readonly markdownSha256: string | null;
  readonly offerSha256: string | null;
  readonly ackSha256: string | null;
};

const short = (digest: string | null) => (digest === null ? 'missing' : `${digest.slice(0, 12)}…`);

/** The `checkpoint` journal lines by `<lane>/<seq>`: the digests a checkpoint is checked against. */
export function journaledCheckpoints(lines: readonly JournalLine[]): Map<string, JournaledCheckpoint> {
  const found = new Map<string, JournaledCheckpoint>();
  for (const l of lines) if (l.type === 'checkpoint') found.set(checkpointKey(l.lane, l.checkpoint_seq), l);
  return found;
}

export const checkpointKey = (lane: Role, seq: number): string => `${lane}/${seq}`;

/**
 * Why a checkpoint cannot be trusted, naming the file, or null. The journal's `checkpoint` line is
 * the anchor: a checkpoint rewritten whole (body, sha256, sizes) still differs from it. Without that
 * line (a journal rebuilt, a crash before it was written) the offer and ack are the only witnesses.
 */
export function checkpointMismatch(found: CheckpointEvidence, journaled: JournaledCheckpoint | undefined): string | null {
  const where = checkpointPath(found.lane, found.seq);
  const changed = (file: string, now: string | null, then: string, witness: string) =>
    `${where}/${file} changed: sha256 ${short(now)}, ${witness} ${short(then)}`;
  if (journaled !== undefined) {
    if (found.bodySha256 !== journaled.sha256) return changed(found.bodyFile, found.bodySha256, journaled.sha256, 'journaled');
    const json = journaled.handoff_json_sha256;
    if (json !== undefined && found.jsonSha256 !== json) return changed('handoff.json', found.jsonSha256, json, 'journaled');
    const md = journaled.handoff_md_sha256;
    if (md !== undefined && found.markdownSha256 !== md) return changed('HANDOFF.md', found.markdownSha256, md, 'journaled');
  }
  if (found.bodySha256 !== found.recordedSha256)
    return changed(found.bodyFile, found.bodySha256, found.recordedSha256, 'handoff.json says');
  if (found.offerSha256 !== null && found.offerSha256 !== found.bodySha256)
    return changed(found.bodyFile, found.bodySha256, found.offerSha256, 'offered');
  if (found.ackSha256 !== null && found.ackSha256 !== found.bodySha256)
    return changed(found.bodyFile, found.bodySha256, found.ackSha256, 'acked');
  return null;
}
