import { existsSync } from 'node:fs';
import type { GitAnchor, HandoffMessage, JournalEntry, Outgoing, Role } from '../../protocol/index.js';
import { failpoint } from '../faults/failpoint.js';
import { stateWrite } from '../faults/fault.js';
import type { Acked, CheckpointStore, Offered, Written } from './checkpoints.js';
import type { Journal } from './journal.js';
import { keepGoal } from './rebuild.js';

type Unsaved = { readonly message: HandoffMessage; readonly anchor: GitAnchor | null; readonly supersedes?: number };
/** A handoff's place: its sender's lane and its seq there. */
const keyOf = (message: HandoffMessage) => `${message.from}/${message.seq}`;

/**
 * The relay's writes to its run directory: journal lines (the goal in goal.txt too), checkpoint (with
 * its journal line), offer and ack. A write that fails throws `StateUnwritable` and is kept here to be
 * done again when the relay resumes: a checkpoint not yet written, a handoff typed and confirmed whose
 * ack is not, so it is never typed twice.
 */
export class StateWrites {
  readonly #unsaved = new Map<string, Unsaved>();
  /** Handoffs typed and confirmed, their ack not written: key → typing attempts and receiver. */
  readonly #confirmed = new Map<string, { readonly attempts: number; readonly to: Role }>();

  constructor(
    readonly store: CheckpointStore,
    private readonly journal: Journal,
  ) {}

  /** The machine's `journal` effect; the goal is kept in goal.txt first, so a run whose journal is lost is rebuilt with it. */
  record(entry: JournalEntry): void {
    if (entry.type === 'goal') keepGoal(this.store.runDir, entry.text);
    this.journal.append(entry);
  }

  /** The machine's `checkpoint` effect: written, then journaled; kept for later when either fails. */
  checkpoint(message: HandoffMessage, anchor: GitAnchor | null, supersedes?: number): void {
    this.defer(message, anchor, supersedes);
    this.ensure(message);
  }

  /** A checkpoint to be written later (an earlier write of its event failed). */
  defer(message: HandoffMessage, anchor: GitAnchor | null, supersedes?: number): void {
    this.#unsaved.set(keyOf(message), { message, anchor, ...(supersedes !== undefined ? { supersedes } : {}) });
  }

  /** False while `message`'s checkpoint is not on disk (it lives only in memory); a goal or notice has none to save. */
  saved(message: Outgoing | null): boolean {
    if (message?.kind !== 'handoff' || !this.#unsaved.has(keyOf(message))) return true;
    try {
      return this.#onDisk(message) !== null;
    } catch {
      return false;
    }
  }

  /** Writes and journals `message`'s checkpoint if it is still waiting; a checkpoint already on disk is journaled only. */
  ensure(message: HandoffMessage): void {
    const unsaved = this.#unsaved.get(keyOf(message));
    if (unsaved === undefined) return;
    const lane = message.from;
    const written = this.#onDisk(message) ?? stateWrite(() => this.store.write(lane, message, unsaved.anchor, unsaved.supersedes));
    const { checkpoint } = written;
    failpoint('checkpoint');
    this.journal.append({
      type: 'checkpoint',
      lane,
      checkpoint_seq: checkpoint.seq,
      round: checkpoint.round,
      to: checkpoint.to,
      sha256: checkpoint.sha256,
      bytes: checkpoint.bytes,
      lines: checkpoint.lines,
      ...(checkpoint.supersedes !== undefined ? { supersedes: checkpoint.supersedes } : {}),
      ...(checkpoint.note !== undefined ? { note_chars: checkpoint.note.length } : {}),
      handoff_json_sha256: written.jsonSha256,
      ...(written.markdownSha256 !== null ? { handoff_md_sha256: written.markdownSha256 } : {}),
    });
    this.#unsaved.delete(keyOf(message));
  }

  /** The checkpoint written before its journal line failed: the same handoff, whole. */
  #onDisk(message: HandoffMessage): Written | null {
    const dir = this.store.dirOf(message.from, message.seq);
    if (!existsSync(dir)) return null;
    const found = this.store.read(message.from, message.seq);
    if (!found.digestOk || found.body !== message.body) return null;
    return { checkpoint: found.checkpoint, dir, jsonSha256: found.evidence.jsonSha256, markdownSha256: found.evidence.markdownSha256 };
  }

  offer(lane: Role, seq: number): Offered {
    return stateWrite(() => this.store.offer(lane, seq));
  }

  /** The typing attempts of a handoff typed and confirmed before its ack failed, or null. */
  confirmed(message: HandoffMessage): number | null {
    return this.#confirmed.get(keyOf(message))?.attempts ?? null;
  }

  /** `role` was typed a handoff whose ack is not written yet: its turn answers that handoff. */
  awaitingAck(role: Role): boolean {
    return [...this.#confirmed.values()].some((c) => c.to === role);
  }

  /** `ack.json` for a confirmed handoff; until it is written the handoff is remembered as typed. */
  ack(message: HandoffMessage, attempts: number, stale: boolean): Acked {
    this.#confirmed.set(keyOf(message), { attempts, to: message.to });
    const acked = stateWrite(() => this.store.ack(message.from, message.seq, message.to, stale));
    this.#confirmed.delete(keyOf(message));
    return acked;
  }
}
