import { describe, expect, it } from 'vitest';
import { StateUnwritable } from '../../src/app/faults/fault.js';
import { RelayLoop } from '../../src/app/run/relay-loop.js';
import { type Effect, initialState, type RelayConfig, type RelayEvent, type RelayState, step } from '../../src/protocol/index.js';
import { machineConfig } from '../helpers/machine.js';

const config: RelayConfig = machineConfig('en');
const enospc = () =>
  new StateUnwritable(Object.assign(new Error("ENOSPC: no space left on device, write '/s/events.jsonl'"), { code: 'ENOSPC', errno: -28 }));
const HANDOFF = 'Step 1\n<handoff>\nBuild the endpoint\n</handoff>';

/** The loop over the real machine: `perform` may raise events (as the runner's effects do) or throw. */
function harness(perform: (effect: Effect, loop: RelayLoop) => void, from: RelayState = initialState(config)) {
  let state = from;
  const handled: string[] = [];
  const settled: RelayState[] = [];
  const deferred: Effect[] = [];
  const performed: Effect[] = [];
  const loop: RelayLoop = new RelayLoop({
    step: (event: RelayEvent) => {
      handled.push(event.type);
      const next = step(config, state, event);
      state = next.state;
      return next.effects;
    },
    perform: (effect) => {
      perform(effect, loop);
      performed.push(effect);
    },
    deferred: (effect) => deferred.push(effect),
    settled: () => settled.push(state),
  });
  return { loop, handled, settled, deferred, performed, state: () => state };
}

describe('RelayLoop: run-to-completion', () => {
  it('an event raised while an effect runs is handled after that event: the state after is the later one, and the pause is final', () => {
    // A delivery refused at once (a changed checkpoint): the runner raises ack-refused from inside the deliver effect.
    const h = harness((effect, loop) => {
      if (effect.type === 'deliver') loop.push({ type: 'delivery-failed', to: effect.message.to, detail: 'no prompt' });
    });
    h.loop.push({ type: 'start', goal: 'g' });
    expect(h.handled).toEqual(['start', 'delivery-failed']);
    // Listeners hear once, with the final state: paused, never a later `running`.
    expect(h.settled.map((s) => s.phase)).toEqual(['paused']);
    expect(h.state()).toMatchObject({ phase: 'paused', pause: { reason: 'delivery_failed', role: 'planner' } });
    // start's effects all ran before the refusal's (goal journaled, then delivered, then paused).
    expect(h.performed.map((e) => (e.type === 'journal' ? e.entry.type : e.type))).toEqual(['goal', 'deliver', 'paused']);
  });

  it('a state write that fails stops its event: later checkpoints are kept for later, the delivery is not made, and the relay pauses with state_unwritable', () => {
    const h = harness((effect) => {
      if (effect.type === 'journal' && effect.entry.type === 'turn_ended') throw enospc();
    });
    h.loop.push({ type: 'start', goal: 'g' });
    h.loop.push({ type: 'delivered', to: 'planner', sha256: 'a'.repeat(64), attempts: 1 });
    h.performed.length = 0;
    h.loop.push({ type: 'turn-ended', role: 'planner', reply: HANDOFF, source: 'screen' });
    expect(h.performed.some((e) => e.type === 'deliver')).toBe(false);
    expect(h.deferred).toMatchObject([{ type: 'checkpoint', message: { from: 'planner', seq: 1, round: 1 } }]);
    expect(h.state()).toMatchObject({
      phase: 'paused',
      delivering: false,
      pending: { kind: 'handoff', to: 'builder', round: 1 },
      pause: { reason: 'state_unwritable', detail: "ENOSPC: no space left on device, write '/s/events.jsonl'" },
    });
    expect(h.settled.at(-1)?.phase).toBe('paused');
  });

  it('a fault whose own pause cannot be journaled still pauses (in memory); any other error is internal_error', () => {
    const h = harness((effect) => {
      if (effect.type === 'journal') throw enospc();
    });
    h.loop.push({ type: 'start', goal: 'g' });
    expect(h.handled).toEqual(['start', 'fault']);
    expect(h.state()).toMatchObject({
      phase: 'paused',
      pause: { reason: 'state_unwritable' },
      pending: { kind: 'goal' },
      delivering: false,
    });

    const broken = harness((effect) => {
      if (effect.type === 'deliver') throw new TypeError('cannot read properties of undefined');
    });
    broken.loop.push({ type: 'start', goal: 'g' });
    expect(broken.state().pause).toEqual({ reason: 'internal_error', detail: 'TypeError: cannot read properties of undefined' });
  });

  it('a listener that throws pauses the relay once (internal_error) instead of escaping', () => {
    let state = initialState(config);
    let calls = 0;
    const loop = new RelayLoop({
      step: (event) => {
        const next = step(config, state, event);
        state = next.state;
        return next.effects;
      },
      perform: () => {},
      deferred: () => {},
      settled: () => {
        calls++;
        throw new Error('render failed');
      },
    });
    expect(() => loop.push({ type: 'start', goal: 'g' })).not.toThrow();
    expect(calls).toBe(2);
    expect(state.pause).toEqual({ reason: 'internal_error', detail: 'render failed' });
  });
});
