/**
 * A person's note: queued for one agent and carried, once, by the next handoff to it, as a labelled
 * block after the handoff's body. A note given while that handoff waits (paused, step mode) joins
 * it: the handoff is checkpointed anew with the note, replacing the one without.
 */
import { handoffMessage } from './messages.js';
import type { Effect, HandoffMessage, RelayConfig, RelayState, Step } from './relay-types.js';
import { peerOf, type Role } from './roles.js';

/** A note stays within this many characters (all notes queued for one agent, together). */
export const MAX_NOTE_CHARS = 2000;

/** Who a note goes to when the person names nobody: the agent the next handoff is for. */
export function noteTarget(state: RelayState): Role {
  const p = state.pending;
  if (p !== null) return state.delivering ? peerOf(p.to) : p.to;
  return state.turn !== null ? peerOf(state.turn) : 'planner';
}

/** The note waiting for `role`: queued, or already inside the handoff that waits to be sent to it. */
export function noteFor(state: RelayState, role: Role): string | null {
  const p = state.pending;
  if (p?.kind === 'handoff' && p.to === role && p.note !== undefined && !state.delivering) return p.note;
  return state.notes[role];
}

/** Why a note cannot be queued now, or null: the relay must be under way, the note within bounds. */
export function noteRefusal(state: RelayState, to: Role, text: string): string | null {
  if (state.phase === 'ready') return 'the run has no goal yet: give the goal first';
  if (state.phase === 'done') return 'the run is done: nothing more is relayed in it';
  if (text.trim() === '') return 'the note is empty';
  const queued = noteFor(state, to);
  const total = (queued === null ? 0 : queued.length + 2) + text.trim().length;
  if (total > MAX_NOTE_CHARS) return `the note is too long (${total} characters with what is queued; at most ${MAX_NOTE_CHARS})`;
  return null;
}

const joined = (queued: string | null | undefined, text: string): string => (queued ? `${queued}\n\n${text}` : text);

/** The pending handoff `m` as a new checkpoint in its lane (body or note changed), replacing it. */
export function reissue(config: RelayConfig, state: RelayState, m: HandoffMessage, body: string, note: string | null): Step {
  const from = m.from;
  const seq = state.seqs[from] + 1;
  // The new checkpoint anchors the workspace anew: no longer STALE.
  const next: RelayState = {
    ...state,
    seqs: { ...state.seqs, [from]: seq },
    lastReceived: { ...state.lastReceived, [from]: body },
    stale: null,
  };
  const message = handoffMessage(config, next, from, m.round, seq, body, note);
  return { state: { ...next, pending: message }, effects: [{ type: 'checkpoint', message, supersedes: m.seq }] };
}

/** The handoff waiting for `to` that a note can still join (not being typed). */
function waiting(state: RelayState, to: Role): HandoffMessage | null {
  const p = state.pending;
  return p?.kind === 'handoff' && p.to === to && !state.delivering ? p : null;
}

export function onNote(config: RelayConfig, state: RelayState, to: Role, text: string): Step {
  if (noteRefusal(state, to, text) !== null) return { state, effects: [] };
  const note = text.trim();
  const queued: Effect = { type: 'journal', entry: { type: 'note_queued', to, text: note } };
  const m = waiting(state, to);
  if (m === null) return { state: { ...state, notes: { ...state.notes, [to]: joined(state.notes[to], note) } }, effects: [queued] };
  const next = reissue(config, state, m, m.body, joined(m.note, note));
  return { state: next.state, effects: [queued, ...next.effects] };
}

export function onCancelNote(config: RelayConfig, state: RelayState, to: Role): Step {
  const queued = state.notes[to];
  if (queued !== null) {
    const cancelled: Effect = { type: 'journal', entry: { type: 'note_cancelled', to, chars: queued.length } };
    return { state: { ...state, notes: { ...state.notes, [to]: null } }, effects: [cancelled] };
  }
  const m = waiting(state, to);
  if (m?.note === undefined) return { state, effects: [] };
  const cancelled: Effect = { type: 'journal', entry: { type: 'note_cancelled', to, chars: m.note.length } };
  const next = reissue(config, state, m, m.body, null);
  return { state: next.state, effects: [cancelled, ...next.effects] };
}

/** A handoff to `to` is being made: the note queued for it goes inside, and is no longer queued. */
export function takeNote(state: RelayState, to: Role): { readonly note: string | null; readonly state: RelayState } {
  const note = state.notes[to];
  return note === null ? { note, state } : { note, state: { ...state, notes: { ...state.notes, [to]: null } } };
}
