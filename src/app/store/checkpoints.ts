import { createHash, randomUUID } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Ack,
  ackRefusal,
  ackSchema,
  BODY_FILE,
  buildCheckpoint,
  CHECKPOINT_SCHEMA_VERSION,
  type CheckpointEvidence,
  type CheckpointOnDisk,
  checkpointPath,
  formatHeader,
  type GitAnchor,
  type HandoffCheckpoint,
  handoffCheckpointSchema,
  handoffMarkdown,
  type Lang,
  noteLabel,
  type Offer,
  type Outgoing,
  offerSchema,
  ROLES,
  type Role,
} from '../../protocol/index.js';
import { fsFault } from '../faults/fsfault.js';

export const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** A checkpoint that cannot be written or read as the protocol demands. */
export class CheckpointError extends Error {}

/** Creates `path` with `text`, failing if it exists, and makes it durable; a write that fails (ENOSPC) leaves no file. */
export function createFile(path: string, text: string): void {
  const fd = openSync(path, 'wx', 0o644);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Left half-written: read as bad, never as an offer or ack.
    }
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** Makes the entries of directory `path` durable (a file created or renamed in it). */
export function syncDir(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

/** A checkpoint just written: its files' digests go into its journal line. */
export type Written = {
  readonly checkpoint: HandoffCheckpoint;
  readonly dir: string;
  readonly jsonSha256: string;
  /** Null for a checkpoint found on disk without its HANDOFF.md. */
  readonly markdownSha256: string | null;
};
/** One checkpoint as read back; `evidence` is what checkpointMismatch() checks. */
export type Found = CheckpointOnDisk & { readonly offer: Offer | null; readonly digestOk: boolean; readonly evidence: CheckpointEvidence };

/** sha256 of a file's bytes, or null when it does not exist. */
function fileSha256(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The sha256 an `ack.json` names, or null (absent or unreadable: an ack's other faults are the ack's to report). */
function ackedSha256(path: string): string | null {
  try {
    return ackSchema.parse(readJson(path)).sha256;
  } catch {
    return null;
  }
}
export type Offered = { readonly offer: Offer; readonly resend: boolean };
export type Acked = { readonly ok: true; readonly ack: Ack } | { readonly ok: false; readonly detail: string };

/**
 * The run's checkpoints: `<run>/<role>/checkpoints/<seq>/` with `handoff.json`, `HANDOFF.md`
 * (and `body.txt` for a body too big for the JSON), then `offer.json` and `ack.json`. Every file is
 * created exclusively and fsynced; a checkpoint directory appears whole (written aside, then renamed).
 */
export class CheckpointStore {
  constructor(
    readonly runDir: string,
    readonly runId: string,
    /** The run's language: a person's note in HANDOFF.md is labelled in it. */
    readonly lang: Lang = 'es',
  ) {}

  dirOf(lane: Role, seq: number): string {
    return join(this.runDir, ...checkpointPath(lane, seq).split('/'));
  }

  /** Writes the handoff `message` into the lane of its sender, `lane`; an existing checkpoint is never replaced. */
  write(lane: Role, message: Outgoing, anchor: GitAnchor | null, supersedes?: number): Written {
    if (message.kind !== 'handoff' || message.seq === undefined) throw new CheckpointError(`not a handoff: ${message.kind}`);
    if (message.from !== lane) throw new CheckpointError(`the ${lane} lane cannot hold a handoff from ${message.from}`);
    const dir = this.dirOf(lane, message.seq);
    if (existsSync(dir))
      throw new CheckpointError(`checkpoint ${checkpointPath(lane, message.seq)} already exists: checkpoints are immutable`);
    const { checkpoint, json, bodyFile } = buildCheckpoint(
      {
        run_id: this.runId,
        seq: message.seq,
        round: message.round,
        from: lane,
        to: message.to,
        created_at: new Date().toISOString(),
        sha256: sha256(message.body),
        ...(anchor ? { anchor } : {}),
        ...(supersedes !== undefined ? { supersedes } : {}),
        ...(message.note !== undefined ? { note: message.note } : {}),
      },
      message.body,
    );
    const parent = join(this.runDir, lane, 'checkpoints');
    const aside = join(parent, `.${message.seq}.${process.pid}.tmp`);
    fsFault('checkpoint', aside, 'mkdir');
    mkdirSync(parent, { recursive: true });
    rmSync(aside, { recursive: true, force: true });
    mkdirSync(aside);
    createFile(join(aside, 'handoff.json'), json);
    if (bodyFile !== null) createFile(join(aside, BODY_FILE), bodyFile);
    const markdown = handoffMarkdown(
      checkpoint,
      message.body,
      formatHeader(message.round, lane),
      message.note !== undefined ? `${noteLabel(this.lang)}\n${message.note}` : null,
    );
    createFile(join(aside, 'HANDOFF.md'), markdown);
    syncDir(aside);
    try {
      renameSync(aside, dir); // fails when `dir` exists and is not empty
    } catch (error) {
      rmSync(aside, { recursive: true, force: true });
      throw new CheckpointError(`checkpoint ${checkpointPath(lane, message.seq)} could not be created: ${(error as Error).message}`);
    }
    syncDir(parent);
    return { checkpoint, dir, jsonSha256: sha256(json), markdownSha256: sha256(markdown) };
  }

  /** One checkpoint, validated; its body checked against its sha256 (`digestOk`), its files' digests in `evidence`. */
  read(lane: Role, seq: number): Found {
    const dir = this.dirOf(lane, seq);
    const where = checkpointPath(lane, seq);
    const readAs = <T>(file: string, read: () => T): T => {
      try {
        return read();
      } catch (error) {
        throw new CheckpointError(`checkpoint ${where}: bad ${file}: ${(error as Error).message.split('\n')[0]}`);
      }
    };
    const json = readAs('handoff.json', () => readFileSync(join(dir, 'handoff.json')));
    const checkpoint = readAs('handoff.json', () => handoffCheckpointSchema.parse(JSON.parse(json.toString('utf8'))));
    if (checkpoint.from !== lane || checkpoint.seq !== seq)
      throw new CheckpointError(`checkpoint ${where}: it says ${checkpointPath(checkpoint.from, checkpoint.seq)}`);
    const body = checkpoint.body ?? readAs(BODY_FILE, () => readFileSync(join(dir, BODY_FILE), 'utf8'));
    const offerPath = join(dir, 'offer.json');
    const offer = existsSync(offerPath) ? readAs('offer.json', () => offerSchema.parse(readJson(offerPath))) : null;
    const ackPath = join(dir, 'ack.json');
    const acked = existsSync(ackPath);
    const bodySha256 = sha256(body);
    const evidence: CheckpointEvidence = {
      lane,
      seq,
      bodyFile: checkpoint.body === undefined ? BODY_FILE : 'handoff.json',
      bodySha256,
      recordedSha256: checkpoint.sha256,
      jsonSha256: sha256(json),
      markdownSha256: fileSha256(join(dir, 'HANDOFF.md')),
      offerSha256: offer?.sha256 ?? null,
      ackSha256: acked ? ackedSha256(ackPath) : null,
    };
    return { checkpoint, body, offered: offer !== null, acked, offer, digestOk: bodySha256 === checkpoint.sha256, evidence };
  }

  /** Seqs present in a lane, ascending (directories being written aside are skipped). */
  seqs(lane: Role): number[] {
    const parent = join(this.runDir, lane, 'checkpoints');
    if (!existsSync(parent)) return [];
    return readdirSync(parent)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
  }

  /** Every checkpoint of both lanes. */
  readAll(): Found[] {
    return ROLES.flatMap((lane) => this.seqs(lane).map((seq) => this.read(lane, seq)));
  }

  /** `offer.json` for the checkpoint: created once; offered again after a resume, the same offer is reused. */
  offer(lane: Role, seq: number): Offered {
    const { checkpoint, offer } = this.read(lane, seq);
    if (offer !== null) return { offer, resend: true };
    const fresh = offerSchema.parse({
      schema_version: CHECKPOINT_SCHEMA_VERSION,
      transfer_id: randomUUID(),
      checkpoint: checkpointPath(lane, seq),
      sha256: checkpoint.sha256,
      from: lane,
      to: checkpoint.to,
      round: checkpoint.round,
      created_at: new Date().toISOString(),
    });
    fsFault('offer', join(this.dirOf(lane, seq), 'offer.json'), 'open');
    createFile(join(this.dirOf(lane, seq), 'offer.json'), `${JSON.stringify(fresh, null, 2)}\n`);
    return { offer: fresh, resend: false };
  }

  /**
   * The receiver takes the handoff: the checkpoint's sha256 is checked again and `ack.json` created
   * exclusively. Refused with the protocol's words: `digest mismatch`, `already acknowledged`, `intended for`.
   */
  ack(lane: Role, seq: number, receiver: Role, stale: boolean): Acked {
    let found: Found;
    try {
      found = this.read(lane, seq);
    } catch (error) {
      return { ok: false, detail: `digest mismatch: ${(error as Error).message}` };
    }
    if (found.offer === null) return { ok: false, detail: `not offered: ${checkpointPath(lane, seq)}` };
    const refusal = ackRefusal({
      offer: found.offer,
      checkpointSha256: found.checkpoint.sha256,
      bodySha256: sha256(found.body),
      receiver,
      acked: found.acked,
    });
    if (refusal !== null) return { ok: false, detail: refusal };
    const ack = ackSchema.parse({
      schema_version: CHECKPOINT_SCHEMA_VERSION,
      transfer_id: found.offer.transfer_id,
      receiver,
      sha256: found.checkpoint.sha256,
      acked_at: new Date().toISOString(),
      stale,
    });
    try {
      fsFault('ack', join(this.dirOf(lane, seq), 'ack.json'), 'open');
      createFile(join(this.dirOf(lane, seq), 'ack.json'), `${JSON.stringify(ack, null, 2)}\n`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        return { ok: false, detail: `already acknowledged: ${checkpointPath(lane, seq)}` };
      throw error;
    }
    return { ok: true, ack };
  }
}
