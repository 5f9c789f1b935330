import { extract, normalizeBody } from './blocks.js';
import { findLookalikes } from './header.js';
import { afterLimit } from './limits.js';
import { handoffMessage, preambleFor } from './messages.js';
import { onCancelNote, onNote, reissue, takeNote } from './notes.js';
import { goalMessage } from './prompts.js';
import type { Effect, GoalMessage, Outgoing, Pause, RelayConfig, RelayEvent, RelayState, Step } from './relay-types.js';
import { afterRestart } from './restart.js';
import { peerOf, type Role } from './roles.js';
import { normalizeReply } from './sanitize.js';
import type { JournalEntry, PauseReason } from './schemas/journal.js';

const none = { planner: null, builder: null } as const;

export function initialState(config: RelayConfig): RelayState {
  return {
    phase: 'ready',
    round: 0,
    budget: config.maxRounds,
    turn: null,
    pending: null,
    delivering: false,
    lastSent: none,
    lastReceived: none,
    introduced: { planner: false, builder: false },
    restarted: { planner: false, builder: false },
    pause: null,
    goal: null,
    summary: null,
    step: false,
    seqs: { planner: 0, builder: 0 },
    stale: null,
    notes: none,
    exited: { planner: false, builder: false },
  };
}

const journal = (entry: JournalEntry): Effect => ({ type: 'journal', entry });
const detailOf = (e: { readonly detail?: string }) => (e.detail !== undefined ? { detail: e.detail.slice(0, 240) } : {});

function pause(state: RelayState, reason: PauseReason, extra: Omit<Pause, 'reason'> = {}): Step {
  if (state.phase === 'done') return { state, effects: [] };
  const next: RelayState = { ...state, phase: 'paused', pause: { reason, ...extra } };
  const { resumeAt, ...named } = extra;
  const entry: JournalEntry = {
    type: 'paused',
    reason,
    ...named,
    ...(resumeAt !== undefined ? { resume_at: new Date(resumeAt).toISOString() } : {}),
    ...(state.pending ? { pending_round: state.pending.round, pending_to: state.pending.to } : {}),
  };
  return { state: next, effects: [journal(entry)] };
}

/** Send `message` now, or keep it if the relay is not running. */
function dispatch(state: RelayState, message: Outgoing): Step {
  const next: RelayState = { ...state, pending: message, turn: null, delivering: true };
  return { state: next, effects: [{ type: 'deliver', message }] };
}

function isDuplicate(state: RelayState, from: Role, to: Role, body: string): boolean {
  return [state.lastSent[to], state.lastReceived[to], state.lastReceived[from]].includes(body);
}

function onTurnEnded(config: RelayConfig, state: RelayState, e: Extract<RelayEvent, { type: 'turn-ended' }>): Step {
  // The turn relevo waits for, even while paused: what it hands over is kept, never dropped.
  const live = state.phase === 'running' || state.phase === 'paused';
  const relayed = live && state.turn === e.role && !state.delivering && !e.interrupted;
  const ended = journal({
    type: 'turn_ended',
    role: e.role,
    source: e.source,
    chars: e.reply.length,
    relayed,
    ...(e.interrupted ? { interrupted: true } : {}),
    ...(e.lossy ? { lossy: true } : {}),
  });
  // An interrupted turn leaves the turn with the agent: relevo waits for its next complete turn.
  if (!relayed) return { state, effects: [ended] };

  const effects: Effect[] = [ended];
  // One reply whatever its source (hook, transcript, screen): normalised before anything reads it.
  const reply = normalizeReply(e.reply);
  for (const line of findLookalikes(reply)) effects.push(journal({ type: 'lookalike', role: e.role, line }));
  const { handoff, done } = extract(reply);

  if (e.role === 'planner' && done !== null) {
    effects.push(journal({ type: 'done', summary: done, rounds: state.round }));
    return { state: { ...state, phase: 'done', turn: null, pause: null, summary: done }, effects };
  }
  const withEffects = (step: Step): Step => ({ state: step.state, effects: [...effects, ...step.effects] });
  const paused = state.phase === 'paused';
  if (handoff === null) return paused ? { state, effects } : withEffects(pause(state, 'no_handoff', { role: e.role }));

  const to = peerOf(e.role);
  if (isDuplicate(state, e.role, to, handoff)) {
    return paused ? { state, effects } : withEffects(pause(state, 'duplicate_handoff', { role: e.role }));
  }
  const round = e.role === 'planner' ? state.round + 1 : state.round;
  const seq = state.seqs[e.role] + 1;
  // A note the person queued for the receiver rides with this handoff.
  const { note, state: taken } = takeNote(state, to);
  // The workspace is anchored anew by this checkpoint: no longer STALE.
  const received: RelayState = {
    ...taken,
    turn: null,
    lastReceived: { ...state.lastReceived, [e.role]: handoff },
    seqs: { ...state.seqs, [e.role]: seq },
    stale: null,
  };
  const message = handoffMessage(config, received, e.role, round, seq, handoff, note);
  // The checkpoint is written before anything else happens to the handoff.
  effects.push({ type: 'checkpoint', message });
  // Paused: held as the pending handoff, sent on resume.
  if (paused) return { state: { ...received, pending: message }, effects };
  if (round > state.budget) {
    return withEffects(pause({ ...received, pending: message }, 'max_rounds', { role: e.role }));
  }
  if (state.step) return withEffects(pause({ ...received, pending: message }, 'step', { role: e.role }));
  return withEffects(dispatch(received, message));
}

function onDelivered(state: RelayState, e: Extract<RelayEvent, { type: 'delivered' }>): Step {
  const m = state.pending;
  if (m === null || m.to !== e.to || !state.delivering) return { state, effects: [] };
  const next: RelayState = {
    ...state,
    pending: null,
    delivering: false,
    turn: m.to,
    round: m.kind === 'notice' ? state.round : Math.max(state.round, m.round),
    lastSent: m.kind === 'handoff' ? { ...state.lastSent, [m.to]: m.body } : state.lastSent,
    introduced: { ...state.introduced, [m.to]: true },
  };
  const entry: JournalEntry = {
    type: 'delivered',
    kind: m.kind,
    round: m.round,
    from: m.from,
    to: m.to,
    sha256: e.sha256,
    chars: m.body.length,
    attempts: e.attempts,
    ...(m.kind === 'handoff' ? { checkpoint_seq: m.seq } : {}),
    ...(e.transferId !== undefined ? { transfer_id: e.transferId } : {}),
    ...(m.kind === 'handoff' ? { via: m.via } : {}),
    ...(m.kind === 'handoff' && m.note !== undefined ? { note_chars: m.note.length } : {}),
    ...(m.kind === 'notice' ? { cause: m.cause } : {}),
  };
  return { state: next, effects: [journal(entry)] };
}

/**
 * The goal starts the run. An agent whose process exited before it (a CLI that printed its version
 * and quit) cannot take it: the goal waits as the pending message, paused with `agent_exited`, and
 * goes to the planner once that agent runs again (`C-] r`, see restart.ts).
 */
function onStart(config: RelayConfig, state: RelayState, goal: string): Step {
  if (state.phase !== 'ready') return { state, effects: [] };
  const message: GoalMessage = {
    kind: 'goal',
    to: 'planner',
    from: 'relevo',
    round: 0,
    body: goal,
    text: goalMessage(goal, config.lang, preambleFor(config, state, 'planner')),
  };
  const begun: RelayState = { ...state, phase: 'running', goal };
  const given = journal({ type: 'goal', text: goal });
  // The pause names the planner when both exited: the goal is its own, and the relay goes on once the agent named runs again.
  const dead = state.exited.planner ? 'planner' : state.exited.builder ? 'builder' : null;
  const started = dead
    ? pause({ ...begun, pending: message }, 'agent_exited', { role: dead, detail: 'the goal waits until it runs again' })
    : dispatch(begun, message);
  return { state: started.state, effects: [given, ...started.effects] };
}

/** The relay's rules: (state, event) → (state, effects). Pure: effects are data the caller performs. */
export function step(config: RelayConfig, state: RelayState, event: RelayEvent): Step {
  switch (event.type) {
    case 'start':
      return onStart(config, state, event.goal);
    case 'turn-ended':
      return onTurnEnded(config, state, event);
    case 'delivered':
      return onDelivered(state, event);
    case 'delivery-failed': {
      if (state.pending?.to !== event.to || !state.delivering) return { state, effects: [] };
      // Already paused (the person paused while the delivery waited on their draft): it stays pending, one pause.
      if (state.phase === 'paused') return { state: { ...state, delivering: false }, effects: [] };
      return pause({ ...state, delivering: false }, 'delivery_failed', { role: event.to, detail: event.detail });
    }
    case 'ack-refused':
    case 'checkpoint-mismatch': {
      // The sender keeps ownership: the handoff stays pending, nothing of it typed.
      if (state.pending?.to !== event.to || !state.delivering) return { state, effects: [] };
      const reason = event.type === 'ack-refused' ? 'ack_refused' : 'checkpoint_mismatch';
      return pause({ ...state, delivering: false }, reason, { role: event.to, detail: event.detail.slice(0, 240) });
    }
    case 'agent-blocked':
      return { state, effects: [journal({ type: 'blocked', role: event.role, ...(event.detail ? { detail: event.detail } : {}) })] };
    case 'agent-unblocked':
      return { state, effects: [journal({ type: 'unblocked', role: event.role })] };
    case 'rate-limited': {
      if (state.phase !== 'running') return { state, effects: [] };
      const { role, profile, resetAt, detail } = event;
      return pause(state, 'rate_limited', {
        ...(role !== undefined ? { role } : {}),
        ...(detail !== undefined ? { detail: detail.slice(0, 240) } : {}),
        ...(resetAt !== null ? { resumeAt: resetAt } : {}),
        profile,
      });
    }
    case 'limit-reset':
      if (state.phase !== 'paused' || state.pause?.reason !== 'rate_limited') return { state, effects: [] };
      return afterLimit(config, state, true, (s) => step(config, s, { type: 'resume' }));
    case 'blocked-timeout':
      if (state.phase !== 'running') return { state, effects: [] };
      return pause(state, 'agent_blocked', { role: event.role });
    case 'agent-exited': {
      const exited = journal({
        type: 'agent_exited',
        role: event.role,
        exit_code: event.exitCode,
        ...(event.signal ? { signal: event.signal } : {}),
      });
      if (state.phase === 'done') return { state, effects: [exited] };
      const gone: RelayState = { ...state, exited: { ...state.exited, [event.role]: true } };
      // Before the goal there is no relay to pause: the goal given next waits for the agent (see onStart).
      if (state.phase === 'ready') return { state: gone, effects: [exited] };
      const p = pause({ ...gone, delivering: false }, 'agent_exited', {
        role: event.role,
        ...(event.reason ? { detail: event.reason } : {}),
      });
      return { state: p.state, effects: [exited, ...p.effects] };
    }
    case 'agent-restarted':
      return afterRestart(config, state, event, {
        dispatch,
        resume: (s) => step(config, s, { type: 'resume' }),
      });
    case 'pause':
      if (state.phase !== 'running') return { state, effects: [] };
      return pause(state, 'user', event.detail !== undefined ? { detail: event.detail } : {});
    case 'stop':
      // Quit before the goal: nothing was started, so nothing is left to resume; the journal says so.
      if (state.phase === 'ready') return { state, effects: [journal({ type: 'no_goal', ...detailOf(event) })] };
      return step(config, state, { type: 'pause', ...detailOf(event) });
    case 'resume': {
      if (state.phase !== 'paused') return { state, effects: [] };
      if (state.pause?.reason === 'rate_limited') return afterLimit(config, state, false, (s) => step(config, s, { type: 'resume' }));
      const grant = state.pause?.reason === 'max_rounds';
      const budget = grant ? state.round + config.maxRounds : state.budget;
      const resumed: RelayState = { ...state, phase: 'running', pause: null, budget };
      const effects: Effect[] = [journal({ type: 'resumed', budget })];
      if (state.pending === null || state.delivering) return { state: resumed, effects };
      if (state.pending.from === 'planner' && state.pending.round > budget) {
        const again = pause(resumed, 'max_rounds', { role: 'planner' });
        return { state: again.state, effects: [...effects, ...again.effects] };
      }
      const sent = dispatch(resumed, state.pending);
      return { state: sent.state, effects: [...effects, ...sent.effects] };
    }
    case 'set-step':
      if (state.step === event.on) return { state, effects: [] };
      return { state: { ...state, step: event.on }, effects: [journal({ type: 'step_mode', on: event.on })] };
    case 'edit-pending': {
      const m = state.pending;
      const body = normalizeBody(event.body);
      if (m === null || state.delivering || body === '' || body === m.body) return { state, effects: [] };
      const edited = journal({ type: 'pending_edited', round: m.round, to: m.to, chars: body.length });
      if (m.kind !== 'handoff') {
        const text = m.kind === 'goal' ? goalMessage(body, config.lang, preambleFor(config, state, m.to)) : body;
        return { state: { ...state, pending: { ...m, body, text } }, effects: [edited] };
      }
      // A checkpoint is immutable: the edited handoff is a new one in the same lane, replacing it (its note kept).
      const next = reissue(config, state, m, body, m.note ?? null);
      return { state: next.state, effects: [edited, ...next.effects] };
    }
    case 'note':
      return onNote(config, state, event.to, event.text);
    case 'cancel-note':
      return onCancelNote(config, state, event.to);
    case 'fault': {
      // The handoff stays pending (a stopped delivery is sent again on resume); the run is not ended.
      if (state.phase === 'ready') return { state, effects: [] };
      const stopped = event.delivery !== undefined && state.pending?.to === event.delivery;
      return pause({ ...state, delivering: stopped ? false : state.delivering }, event.reason, { detail: event.detail.slice(0, 240) });
    }
    default: {
      const unreachable: never = event;
      throw new Error(`unknown relay event ${JSON.stringify(unreachable)}`);
    }
  }
}
