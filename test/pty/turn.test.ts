import { describe, expect, it } from 'vitest';
import { TurnTracker } from '../../src/pty/turn.js';

describe('turn tracker', () => {
  it('ends a turn only after busy, then idle with the screen quiet for the whole window', () => {
    const t = new TurnTracker(400, true);
    expect(t.observe('idle', 1, 10_000)).toEqual({ signal: null, recheckIn: null }); // no turn yet
    t.begin(1);
    expect(t.observe('idle', 1, 5_000).signal).toBeNull(); // idle before it ever went busy: not finished
    expect(t.observe('busy', 2, 0).signal).toBeNull();
    expect(t.observe('idle', 3, 100)).toEqual({ signal: null, recheckIn: 300 });
    expect(t.observe('busy', 4, 0).signal).toBeNull(); // flicker back to busy
    expect(t.observe('idle', 5, 399)).toEqual({ signal: null, recheckIn: 1 });
    expect(t.observe('idle', 5, 400).signal).toBe('ended');
    expect(t.active).toBe(false);
    expect(t.observe('idle', 5, 10_000).signal).toBeNull(); // once
  });

  it('never ends a blocked turn, signals blocked once and unblocked when it moves on', () => {
    const t = new TurnTracker(200, true);
    t.begin(0);
    expect(t.observe('blocked', 1, 0).signal).toBe('blocked');
    expect(t.observe('blocked', 1, 60_000).signal).toBeNull();
    expect(t.blocked).toBe(true);
    expect(t.observe('busy', 2, 0).signal).toBe('unblocked');
    expect(t.observe('idle', 3, 500).signal).toBe('ended');
  });

  it('a usage limit never ends the turn, is signalled once, and only after the agent was seen busy in this turn', () => {
    const t = new TurnTracker(200, false);
    t.begin(0);
    // The last turn's limit line still on screen while the message is typed: not this turn's.
    expect(t.observe('limited', 1, 0).signal).toBeNull();
    expect(t.observe('busy', 2, 0).signal).toBeNull();
    expect(t.observe('limited', 3, 0).signal).toBe('limited');
    expect(t.observe('limited', 3, 60_000).signal).toBeNull();
    expect(t.active).toBe(true);
    // A message typed after the reset starts a new turn, and the old line counts for nothing again.
    t.begin(3);
    expect(t.observe('limited', 4, 0).signal).toBeNull();
    expect(t.observe('busy', 5, 0).signal).toBeNull();
    expect(t.observe('idle', 6, 200).signal).toBe('ended');
  });

  it('counts any output as activity when the profile does not require a busy state', () => {
    const t = new TurnTracker(1500, false);
    t.begin(7);
    expect(t.observe('idle', 7, 5_000).signal).toBeNull(); // nothing printed since the message
    expect(t.observe('idle', 8, 1_000).recheckIn).toBe(500);
    expect(t.observe('idle', 8, 1_500).signal).toBe('ended');
  });

  it('stops watching when cancelled', () => {
    const t = new TurnTracker(100, true);
    t.begin(0);
    t.observe('busy', 1, 0);
    t.cancel();
    expect(t.observe('idle', 2, 1_000).signal).toBeNull();
  });

  it('after the agent reported its turn over, the short quiet is enough; the report counts for its own turn only', () => {
    const t = new TurnTracker(500, true, 100);
    t.evidence(); // no turn yet: nothing to remember
    t.begin(0);
    t.observe('busy', 1, 0);
    expect(t.observe('idle', 2, 100).recheckIn).toBe(400); // no report yet: the whole window
    t.evidence();
    expect(t.observe('busy', 3, 0).signal).toBeNull(); // reported, but the screen still says busy
    expect(t.observe('idle', 4, 60)).toEqual({ signal: null, recheckIn: 40 }); // its last redraw settles
    expect(t.observe('idle', 4, 100).signal).toBe('ended');
    t.begin(4); // the next turn starts without the last one's report
    t.observe('busy', 5, 0);
    expect(t.observe('idle', 6, 100).recheckIn).toBe(400);
  });

  it("a final report (the hook's ends_turn) ends its turn at the next look, busy screen or not, but never a blocked one nor the next turn", () => {
    const t = new TurnTracker(500, true, 100);
    t.begin(0);
    t.observe('busy', 1, 0);
    t.evidence(true);
    expect(t.observe('blocked', 2, 0).signal).toBe('blocked');
    expect(t.observe('busy', 3, 0)).toEqual({ signal: 'ended', recheckIn: null });
    expect(t.active).toBe(false);
    t.begin(3);
    t.observe('busy', 4, 0);
    expect(t.observe('idle', 5, 100).recheckIn).toBe(400); // the last turn's report is gone
  });

  it('an idle state the agent itself says ends the turn (ends_turn) needs only the short quiet, after activity', () => {
    const t = new TurnTracker(500, true, 100);
    t.begin(0);
    expect(t.observe('idle', 0, 5_000, true).signal).toBeNull(); // the last turn's "done": no activity yet
    t.observe('busy', 1, 0);
    expect(t.observe('idle', 2, 30, true).recheckIn).toBe(70);
    expect(t.observe('idle', 2, 100, true).signal).toBe('ended');
  });

  it('without a short quiet in the profile, a report changes nothing', () => {
    const t = new TurnTracker(500, true);
    t.begin(0);
    t.observe('busy', 1, 0);
    t.evidence();
    expect(t.observe('idle', 2, 100, true).recheckIn).toBe(400);
  });
});
