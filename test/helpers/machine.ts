/** Driving the pure relay machine in tests: events in, the state and every effect out. */
import {
  DEFAULT_DELIVERY,
  type Effect,
  initialState,
  type JournalEntry,
  type Lang,
  type Outgoing,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Role,
  step,
} from '../../src/protocol/index.js';

export const SHA = 'a'.repeat(64);

/** A run's settings: ten rounds, role prompts given by launch flags (none inline), the default delivery; `patch` changes any of it. */
export const machineConfig = (lang: Lang, patch: Partial<RelayConfig> = {}): RelayConfig => ({
  maxRounds: 10,
  lang,
  inlineRolePrompt: { planner: false, builder: false },
  delivery: DEFAULT_DELIVERY,
  runPath: '.relevo/runs/r1',
  ...patch,
});

export type Run = { state: RelayState; effects: Effect[] };

/** `events` stepped through from `from` (the initial state by default), their effects in order. */
export function runEvents(config: RelayConfig, events: readonly RelayEvent[], from = initialState(config)): Run {
  let state = from;
  const effects: Effect[] = [];
  for (const e of events) {
    const s = step(config, state, e);
    state = s.state;
    effects.push(...s.effects);
  }
  return { state, effects };
}

export const journal = (effects: Effect[]): JournalEntry[] => effects.flatMap((e) => (e.type === 'journal' ? [e.entry] : []));
export const deliveries = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'deliver' ? [e.message] : []));
export const ended = (role: Role, reply: string): RelayEvent => ({ type: 'turn-ended', role, reply, source: 'screen' });
export const delivered = (to: Role): RelayEvent => ({ type: 'delivered', to, sha256: SHA, attempts: 1 });
export const handoff = (body: string) => `Some words first.\n\n<handoff>\n${body}\n</handoff>`;

/** The planner's handoff `seq` of `round` to the builder, typed as `text`. */
export const plannerHandoff = (round: number, seq: number, body: string, text: string, via: 'inline' | 'file' = 'inline'): Outgoing => ({
  kind: 'handoff',
  to: 'builder',
  from: 'planner',
  round,
  seq,
  body,
  text,
  via,
});

type Delivered = Extract<JournalEntry, { type: 'delivered' }>;
/** The journal line of a handoff delivered inline at the first try (a six-character body, as `handoff('step 1')` has); `more` changes any of it. */
export const handoffDelivered = (from: Role, round: number, seq: number, more: Partial<Delivered> = {}): JournalEntry => ({
  type: 'delivered',
  kind: 'handoff',
  round,
  from,
  to: from === 'planner' ? 'builder' : 'planner',
  sha256: SHA,
  chars: 6,
  attempts: 1,
  checkpoint_seq: seq,
  via: 'inline',
  ...more,
});
