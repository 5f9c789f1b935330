import { describe, expect, it } from 'vitest';
import { initialState, type RelayEvent, step } from '../../src/protocol/index.js';
import { delivered, deliveries, ended, handoff, journal, machineConfig, runEvents } from '../helpers/machine.js';

const config = machineConfig('en');
const run = (events: RelayEvent[], from = initialState(config)) => runEvents(config, events, from);
const AT = Date.UTC(2026, 2, 10, 15, 0);
const limited = (more: Partial<Extract<RelayEvent, { type: 'rate-limited' }>> = {}): RelayEvent => ({
  type: 'rate-limited',
  role: 'builder',
  profile: 'claude',
  resetAt: AT,
  detail: 'usage-limit: resets 3pm',
  ...more,
});
/** The goal answered, round 1 delivered to the builder: its turn. */
const builderTurn: RelayEvent[] = [
  { type: 'start', goal: 'G' },
  delivered('planner'),
  ended('planner', handoff('step 1')),
  delivered('builder'),
];

describe('a usage limit pauses the relay until its reset', () => {
  it('journals the pause with resume_at and the profile of the CLI', () => {
    const r = run([...builderTurn, limited()]);
    expect(r.state.phase).toBe('paused');
    expect(r.state.pause).toEqual({
      reason: 'rate_limited',
      role: 'builder',
      detail: 'usage-limit: resets 3pm',
      resumeAt: AT,
      profile: 'claude',
    });
    expect(journal([...r.effects]).at(-1)).toEqual({
      type: 'paused',
      reason: 'rate_limited',
      role: 'builder',
      detail: 'usage-limit: resets 3pm',
      profile: 'claude',
      resume_at: '2026-03-10T15:00:00.000Z',
    });
  });

  it('has no resume_at when the reset is unknown, and leaves another pause alone', () => {
    const unknown = run([...builderTurn, limited({ resetAt: null })]);
    expect(journal(unknown.effects).at(-1)).not.toHaveProperty('resume_at');
    const byPerson = run([...builderTurn, { type: 'pause' }, limited()]);
    expect(byPerson.state.pause?.reason).toBe('user');
    expect(run([...builderTurn, { type: 'pause' }, { type: 'limit-reset' }]).state.phase).toBe('paused');
  });

  it('at the reset tells the agent whose turn it stopped to go on, once, with a notice (the handoff is not typed again)', () => {
    const paused = run([...builderTurn, limited()]);
    const r = step(config, paused.state, { type: 'limit-reset' });
    expect(r.state.phase).toBe('running');
    expect(journal([...r.effects])).toEqual([{ type: 'resumed', budget: config.maxRounds, limit_reset: true }]);
    const [notice] = deliveries(r.effects);
    expect(notice).toMatchObject({ kind: 'notice', cause: 'limit', to: 'builder' });
    expect(notice!.text).toContain("Your CLI's usage limit stopped your turn");
    expect(notice!.text).toContain('HANDOFF.md');
    // A second reset (or the person's resume) finds nothing to do.
    expect(step(config, r.state, { type: 'limit-reset' }).effects).toEqual([]);
  });

  it('a person who resumes first gets the same, journaled without limit_reset', () => {
    const paused = run([...builderTurn, limited()]);
    const r = step(config, paused.state, { type: 'resume' });
    expect(journal([...r.effects])).toEqual([{ type: 'resumed', budget: config.maxRounds }]);
    expect(deliveries(r.effects)).toMatchObject([{ kind: 'notice', cause: 'limit', to: 'builder' }]);
  });

  it('a handoff that ends the turn while paused is held and sent once at the reset, with no notice', () => {
    const paused = run([...builderTurn, limited(), ended('builder', handoff('report 1'))]);
    expect(deliveries(paused.effects).filter((m) => m.to === 'planner' && m.kind === 'handoff')).toHaveLength(0);
    expect(paused.state.pending).toMatchObject({ kind: 'handoff', to: 'planner', body: 'report 1' });
    const r = step(config, paused.state, { type: 'limit-reset' });
    expect(deliveries(r.effects)).toMatchObject([{ kind: 'handoff', to: 'planner', body: 'report 1' }]);
  });

  it('a relay held for another relay’s limit (no role) sends its pending handoff at the reset', () => {
    const held = run([{ type: 'start', goal: 'G' }, delivered('planner'), { type: 'rate-limited', profile: 'claude', resetAt: AT }]);
    expect(journal(held.effects).at(-1)).toMatchObject({ type: 'paused', reason: 'rate_limited', profile: 'claude' });
    const r = step(config, held.state, { type: 'limit-reset' });
    expect(r.state.phase).toBe('running');
    expect(deliveries(r.effects)).toEqual([]);
    expect(r.state.turn).toBe('planner');
  });
});
