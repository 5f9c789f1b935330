import { checkpointMismatch, type HandoffMessage, type Outgoing, type RelayEvent, type Role } from '../../protocol/index.js';
import type { DeliveryResult, DeliveryStage } from '../../pty/deliver.js';
import { failpoint } from '../faults/failpoint.js';
import { faultEvent } from '../faults/fault.js';
import { type CheckpointStore, sha256 } from '../store/checkpoints.js';
import type { Journal } from '../store/journal.js';
import type { StateWrites } from '../store/state-writes.js';

type TurnEnded = Extract<RelayEvent, { type: 'turn-ended' }>;

/** An agent a message can be typed into (AgentPane is one). */
export type Receiver = {
  deliver(text: string, readyTimeoutMs: number, onStage?: (stage: DeliveryStage) => void, again?: boolean): Promise<DeliveryResult>;
};

/** What a transfer needs of the run around it. */
export type TransferContext = {
  readonly store: CheckpointStore;
  readonly writes: StateWrites;
  readonly journal: Journal;
  readonly agents: Readonly<Record<Role, Receiver>>;
  readonly readyTimeoutMs: number;
  /** Hands the outcome (delivered, refused, failed) back to the relay. */
  dispatch(event: RelayEvent): void;
  /** The workspace moved since the last checkpoint: the ack records it. */
  stale(): boolean;
  /** The receiver took the handoff (its ack is written). */
  acknowledged(message: HandoffMessage): void;
  /** Makes `lane`'s checkpoint `seq`'s HANDOFF.md readable where the agents run, before a message names it (a host). */
  publish?(lane: Role, seq: number): Promise<void>;
};

/**
 * The machine's `deliver` effect: a goal or notice is typed; a handoff is offered (`offer.json`,
 * reused when offered before), typed, confirmed, then acknowledged: the receiver owns it only once
 * `ack.json` exists. A refused ack pauses and the sender keeps it. Whether the handoff is typed in
 * full or as the path of its HANDOFF.md was decided by the machine (`via`): the text says which.
 */
export class Transfers {
  /** A turn that ended before the ack of the handoff it answers was written. */
  readonly #held = new Map<Role, TurnEnded>();

  constructor(private readonly run: TransferContext) {}

  /** A turn's end goes to the relay, unless it answers a handoff whose ack is not written yet: it waits for that ack (on resume). */
  turnEnded(event: TurnEnded): void {
    if (this.run.writes.awaitingAck(event.role)) this.#held.set(event.role, event);
    else this.run.dispatch(event);
  }

  /** Starts the transfer of `message`; an error in it pauses the relay with the delivery stopped. */
  deliver(message: Outgoing): void {
    this.#transfer(message).catch((error: unknown) => this.run.dispatch(faultEvent(error, message.to)));
  }

  /** A checkpoint not written before is written first; a handoff confirmed before its ack failed is not typed again. */
  async #transfer(message: Outgoing): Promise<void> {
    const { writes, dispatch } = this.run;
    const handoff = message.kind === 'handoff' ? message : null;
    let transferId: string | undefined;
    let again = false;
    if (handoff !== null) {
      const offered = this.#offer(handoff);
      if (offered === null) return;
      ({ id: transferId, resend: again } = offered);
    } else if (message.kind === 'notice' && message.handoff !== undefined) {
      // A notice sends the agent to a checkpoint's HANDOFF.md: never to one that changed.
      if (this.#untrusted(message.handoff.lane, message.handoff.seq, message.to) !== null) return;
    }
    const named =
      handoff?.via === 'file' ? { lane: handoff.from, seq: handoff.seq } : message.kind === 'notice' ? message.handoff : undefined;
    if (named !== undefined) await this.run.publish?.(named.lane, named.seq);
    const stages = (stage: DeliveryStage) => failpoint(stage);
    const typed = handoff !== null ? writes.confirmed(handoff) : null;
    const result =
      typed !== null
        ? { ok: true as const, attempts: typed }
        : await this.run.agents[message.to].deliver(message.text, this.run.readyTimeoutMs, stages, again);
    if (!result.ok) return dispatch({ type: 'delivery-failed', to: message.to, detail: result.detail });
    failpoint('confirmed');
    if (handoff !== null) {
      const acked = writes.ack(handoff, result.attempts, this.run.stale());
      if (!acked.ok) return dispatch({ type: 'ack-refused', to: message.to, detail: acked.detail });
      failpoint('ack');
    }
    dispatch({
      type: 'delivered',
      to: message.to,
      sha256: sha256(message.body),
      attempts: result.attempts,
      ...(transferId ? { transferId } : {}),
    });
    const held = this.#held.get(message.to);
    this.#held.delete(message.to);
    if (held) dispatch(held);
    if (handoff !== null) this.run.acknowledged(handoff);
    failpoint('delivered');
  }

  /**
   * The handoff's checkpoint, written if it still waits, read back and checked against its journal
   * line (or its offer and ack), then offered (journaled): its transfer id, or null when it was
   * refused (a changed checkpoint is never typed); `resend` when offered before.
   */
  #offer(handoff: HandoffMessage): { id: string; resend: boolean } | null {
    const { writes, journal } = this.run;
    const lane = handoff.from;
    writes.ensure(handoff);
    const found = this.#untrusted(lane, handoff.seq, handoff.to);
    if (found !== null) return null;
    const { offer, resend } = writes.offer(lane, handoff.seq);
    journal.append({
      type: 'offered',
      lane,
      checkpoint_seq: handoff.seq,
      round: handoff.round,
      to: handoff.to,
      transfer_id: offer.transfer_id,
      ...(resend ? { resend: true } : {}),
    });
    failpoint('offer');
    return { id: offer.transfer_id, resend };
  }

  /** Why `lane`'s checkpoint `seq` cannot go to `to` (the relay is told: `checkpoint_mismatch`), or null when it is as journaled. */
  #untrusted(lane: Role, seq: number, to: Role): string | null {
    let detail: string | null;
    try {
      const found = this.run.store.read(lane, seq);
      detail = checkpointMismatch(found.evidence, this.run.journal.journaled(lane, seq));
    } catch (error) {
      detail = (error as Error).message.split('\n')[0] ?? 'unreadable';
    }
    if (detail !== null) this.run.dispatch({ type: 'checkpoint-mismatch', to, detail });
    return detail;
  }
}
