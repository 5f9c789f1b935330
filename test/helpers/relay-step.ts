/** The relay machine answering one planner turn, for tests: what it would type to the builder, or why it paused. */
import { type Effect, initialState, type RelayEvent, step } from '../../src/protocol/index.js';
import { machineConfig } from './machine.js';

const CONFIG = machineConfig('es', { runPath: '.relevo/runs/test' });

export type Relayed = {
  /** Exactly what would be typed to the builder, or null. */
  readonly text: string | null;
  readonly body: string | null;
  /** The pause reason, or null. */
  readonly paused: string | null;
  readonly lookalikes: readonly string[];
  readonly effects: readonly Effect[];
};

/** Feeds a planner's turn end (its reply as a source gives it) to a relay waiting on the planner. */
export function relayedTurn(end: Omit<Extract<RelayEvent, { type: 'turn-ended' }>, 'type' | 'role'>): Relayed {
  const started = step(CONFIG, initialState(CONFIG), { type: 'start', goal: 'goal' }).state;
  const waiting = step(CONFIG, started, { type: 'delivered', to: 'planner', sha256: 'x', attempts: 1 }).state;
  const { effects } = step(CONFIG, waiting, { type: 'turn-ended', role: 'planner', ...end });
  const message = effects.flatMap((e) => (e.type === 'deliver' ? [e.message] : []))[0];
  const entries = effects.flatMap((e) => (e.type === 'journal' ? [e.entry] : []));
  return {
    text: message?.text ?? null,
    body: message?.body ?? null,
    paused: entries.flatMap((e) => (e.type === 'paused' ? [e.reason] : []))[0] ?? null,
    lookalikes: entries.flatMap((e) => (e.type === 'lookalike' ? [e.line] : [])),
    effects,
  };
}
