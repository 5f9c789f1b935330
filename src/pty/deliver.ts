import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentState } from '../protocol/index.js';
import { draftSource, sanitizeForTyping, typingPlan } from '../protocol/index.js';
import type { DraftHold } from './draft.js';
import type { Pane } from './pane.js';
import type { Profile } from './profile.js';
import { takenRow, words } from './taken.js';

/** What a delivery needs of the agent it types into (AgentPane is one). */
export interface DeliveryTarget {
  readonly pane: Pane;
  readonly profile: Profile;
  readonly state: AgentState | 'exited';
  /** A turn is being watched (a delivery began one, or the person started one). */
  readonly inTurn: boolean;
  /** The profile's input line captures what is typed. */
  readonly readsInput: boolean;
  /** The agent's last turn ended as relevo watched it (idle and still, see TurnTracker) and none began since. */
  readonly settled: boolean;
  /** A delivery waiting on the person's draft. */
  readonly hold: DraftHold;
  /** Fires after every evaluation of the screen. */
  readonly onEvaluated: (listener: () => void) => { dispose(): void };
  draft(): string;
  inputText(): string | null;
  beginTurn(sent: string, takenAt?: number): void;
  cancelTurn(): void;
}

export type DeliveryResult = { readonly ok: true; readonly attempts: number } | { readonly ok: false; readonly detail: string };

const POLL_MS = 50;
/** How long delivery waits for a paste to appear in the input box before pressing Enter anyway. */
const PASTE_SHOWN_MS = 3000;
/** How long delivery waits for bracketed pastes to be turned on (`deliver.wait_paste_mode`) before typing anyway. */
const PASTE_MODE_MS = 10_000;
/** Panes whose screen never showed the mode in time: a mirrored one (tmux, Herdr) cannot see it, and is waited on once only. */
const pasteModeUnseen = new WeakSet<Pane>();

/**
 * Resolves true once `ready()` holds, or with the reason it never will. Checks on every evaluation
 * and every `POLL_MS`; with `onUpdate`, on every screen update too (what relevo just typed shows there
 * first: only the short waits after typing, not a wait on a streaming agent).
 */
export function waitFor(agent: DeliveryTarget, ready: () => boolean, timeoutMs: number, onUpdate = false): Promise<true | string> {
  return new Promise((resolve) => {
    let started = Date.now();
    let finished = false;
    const check = () => {
      if (finished) return;
      // A host out of reach: its last screen is not the agent's now, and the time waited does not count.
      if (agent.pane.unreachable) started = Date.now();
      let outcome: true | string | null = null;
      if (agent.pane.exited) outcome = 'the agent exited';
      else if (agent.pane.unreachable) outcome = null;
      else if (ready()) outcome = true;
      else if (Date.now() - started >= timeoutMs) outcome = `timed out after ${timeoutMs} ms (agent ${agent.state})`;
      if (outcome === null) return;
      finished = true;
      clearInterval(poll);
      evaluated.dispose();
      updated?.dispose();
      resolve(outcome);
    };
    const evaluated = agent.onEvaluated(check);
    const updated = onUpdate ? agent.pane.onUpdate(check) : undefined;
    const poll = setInterval(check, POLL_MS);
    check();
  });
}

/**
 * How long the screen must have kept still before typing: the profile's whole quiet window while
 * relevo knows nothing of the agent (it is starting, or a person's turn ran); once a turn relevo
 * watched has ended (idle and still already), only `evidence_quiet_ms`, so a last redraw is still
 * waited out.
 */
function readyQuietMs(agent: DeliveryTarget): number {
  const { quiet_ms, evidence_quiet_ms } = agent.profile.data.detect;
  return agent.settled ? Math.min(evidence_quiet_ms ?? quiet_ms, quiet_ms) : quiet_ms;
}

/**
 * Idle, quiet, and nothing of the person's in the input box. A draft holds the delivery, with no
 * timeout, until the person sends it (its turn is then waited for) or clears it; the relay pausing
 * or the agent exiting ends the wait.
 */
async function waitReady(agent: DeliveryTarget, readyTimeoutMs: number, typed: () => boolean): Promise<true | 'typed' | string> {
  // A turn a usage limit stopped takes the next message too (the notice that the limit reset).
  const idle = () =>
    (agent.state === 'limited' || (agent.state === 'idle' && !agent.inTurn)) &&
    agent.pane.quietFor() >= readyQuietMs(agent) &&
    !agent.pane.unreachable;
  // Counted keys are a draft whatever the screen shows; an input line is read once the agent is idle.
  const keys = draftSource(agent.profile.data) === 'keys';
  const drafted = () => agent.draft() !== '' && (keys || agent.state === 'idle');
  let held = false;
  try {
    for (;;) {
      const ready = await waitFor(agent, () => drafted() || idle(), readyTimeoutMs);
      if (ready !== true) return ready;
      if (drafted() && typed()) return 'typed';
      if (!drafted()) {
        if (idle()) return true;
        continue;
      }
      if (!held) {
        held = true;
        agent.hold.set(true);
      }
      const cleared = await waitFor(agent, () => agent.hold.withdrawn || agent.draft() === '', Infinity);
      if (cleared !== true) return cleared;
      if (agent.hold.withdrawn) return "the relay paused while the person's draft held the delivery";
    }
  } finally {
    if (held) agent.hold.set(false);
  }
}

/** The input box's text is the start of `message` (its first line, as the box shows it): relevo's own, left unsent. */
export function typedAlready(draft: string, message: string): boolean {
  const shown = words(draft);
  return shown.length >= 8 && words(message).startsWith(shown);
}

/** Points of a delivery a caller may observe (crash tests stop relevo at each of them). */
export type DeliveryStage = 'pasted' | 'entered';

/**
 * Types a message into an agent the way its profile says: wait until it is idle and quiet with
 * its input box empty (see waitReady); strip every control and escape sequence; type it in the profile's shape (one bracketed paste,
 * or line by line for a CLI that wraps long pastes); wait the settle delay; send Enter; confirm
 * the submit (the agent goes busy, or its input box empties) and press Enter again a bounded
 * number of times.
 */
export async function deliver(
  agent: DeliveryTarget,
  text: string,
  readyTimeoutMs: number,
  onStage: (stage: DeliveryStage) => void = () => {},
  /** Sent before by a relevo that stopped: its text may wait unsent in the input box of an agent that lived on. */
  again = false,
): Promise<DeliveryResult> {
  const how = agent.profile.data.deliver;
  const pane = agent.pane;
  const safe = sanitizeForTyping(text);
  const ours = (draft: string) => typedAlready(draft, safe) || agent.profile.foldedPaste?.test(draft) === true;
  // Taken before relevo stopped (submitted, its ack not written): its turn is watched, nothing typed.
  const taken = again ? await takenRow(pane, agent.profile.layout, safe) : null;
  if (taken !== null) {
    agent.beginTurn(safe, taken);
    return { ok: true, attempts: 1 };
  }
  const ready = await waitReady(agent, readyTimeoutMs, () => again && ours(agent.draft()));
  if (ready !== true && ready !== 'typed') return { ok: false, detail: `agent not ready: ${ready}` };
  agent.beginTurn(safe);
  // Already in the input box: only Enter is missing (typed again, it would be there twice).
  if (ready === true) {
    if (how.wait_paste_mode && !pasteModeUnseen.has(pane)) {
      if ((await waitFor(agent, () => pane.screen.bracketedPaste, PASTE_MODE_MS, true)) !== true) pasteModeUnseen.add(pane);
    }
    const typed = await typeOnce(agent, () => {
      for (const stroke of typingPlan(safe, how)) {
        if ('paste' in stroke) pane.paste(stroke.paste, how.newline);
        else pane.write(stroke.keys);
      }
    });
    if (typed !== true) {
      agent.cancelTurn();
      return { ok: false, detail: typed };
    }
    // Under load the paste can take a while to show; an Enter before it is silently dropped (Claude Code).
    if (agent.readsInput) await waitFor(agent, () => (agent.inputText() ?? '') !== '', PASTE_SHOWN_MS, true);
    await sleep(how.settle_ms);
    onStage('pasted');
  }

  const presses = how.retries + 1;
  let dropped = 0;
  for (let n = 1; n <= presses; n++) {
    if (pane.exited) break;
    const before = pane.screen.version;
    const lost = await lostSends(pane);
    pane.write(how.submit);
    onStage('entered');
    // An Enter the link lost is not counted (the screen, once the host answers, says whether it was taken).
    if (lost !== null && (await lostSends(pane)) !== lost && dropped++ < MAX_DROPPED) n--;
    const accepted = await waitFor(
      agent,
      () =>
        agent.state === 'busy' ||
        agent.state === 'blocked' ||
        !agent.inTurn ||
        (pane.screen.version !== before && agent.inputText() === ''),
      how.confirm_ms,
      true,
    );
    if (accepted === true) return { ok: true, attempts: n };
  }
  agent.cancelTurn();
  if (pane.exited) return { ok: false, detail: 'the agent exited while the message was typed' };
  return {
    ok: false,
    detail: `not submitted after ${presses} Enter presses (input box: ${JSON.stringify(agent.inputText()?.slice(0, 60) ?? null)})`,
  };
}

/** Presses and typings a dropped link may cost a delivery before it gives up. */
const MAX_DROPPED = 3;

/** The pane's failed sends once those queued now are done; null for a pane whose sends cannot fail (relevo's own terminal). */
const lostSends = (pane: Pane): Promise<number> | null => pane.sent?.() ?? null;

/**
 * Types once, never twice: when the link to the pane's host dropped while typing (a send failed),
 * the screen is looked at once the host answers again: text in the input box got there; an empty
 * box is typed into again. A profile whose input box cannot be read gives up instead (the handoff
 * stays pending, offered again on resume).
 */
async function typeOnce(agent: DeliveryTarget, type: () => void): Promise<true | string> {
  for (let attempt = 0; ; attempt++) {
    const before = await lostSends(agent.pane);
    type();
    if (before === null || (await lostSends(agent.pane)) === before) return true;
    const back = await waitFor(agent, () => true, Infinity);
    if (back !== true) return back;
    if (!agent.readsInput) return 'the link to the host dropped while the message was typed';
    if ((agent.inputText() ?? '') !== '') return true;
    if (attempt + 1 >= MAX_DROPPED) return 'the link to the host dropped each time the message was typed';
  }
}
