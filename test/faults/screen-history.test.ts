// The screen source reads what the agent printed, not only what is left on its screen: a handoff
// survives a C1 control, an unterminated OSC, a clear, an alt-screen switch, a scroll region, an
// in-place redraw and 1 MB of later output (each ended in `paused: no_handoff` before).
import { describe, expect, it } from 'vitest';
import { relayedTurn as relayed } from '../helpers/relay-step.js';
import { hostileTurn, payloadText } from './hostile.js';

const BODY = 'Step 2: make the test pass\n  - keep the old API';

describe('screen source: the handoff the agent printed is relayed', () => {
  it.each([
    ['c1-control.json', 'Step 2: make the test pass\n  - keep the old API'],
    ['unterminated-osc.json', BODY],
    ['clear-screen.json', BODY],
    ['alt-screen.json', BODY],
    ['scroll-region.json', BODY],
    ['redraw.json', BODY],
    ['later-output.json', BODY],
  ])('%s', async (payload, body) => {
    const end = await hostileTurn(payload);
    expect(end).toMatchObject({ source: 'screen', interrupted: false });
    const out = relayed(end);
    expect(out.paused).toBeNull();
    expect(out.body).toBe(body);
    expect(out.text).toBe(`[relevo ronda 1 · de planner]\n${body}`);
    // The same reply from a hook or a transcript gives the same body.
    for (const source of ['hook', 'transcript'] as const) {
      expect(relayed({ reply: payloadText(payload), source, interrupted: false, lossy: false }).body).toBe(body);
    }
  });

  it('never takes the echo of what relevo typed (a role prompt with <handoff> examples) for the handoff', async () => {
    const message = 'Role: planner. End every turn with\n<handoff>\nthe next step for the builder\n</handoff>\nGoal: ship it';
    const end = await hostileTurn('echo-only.json', message);
    const out = relayed(end);
    expect(out.body).toBeNull();
    expect(out.paused).toBe('no_handoff');
  });
});
