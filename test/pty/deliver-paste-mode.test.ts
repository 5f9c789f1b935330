/**
 * `deliver.wait_paste_mode`: a CLI that draws its idle input box before it turns bracketed pastes
 * on (Gemini CLI 0.61 at start) gets nothing typed until it asks for pastes, so the text arrives as
 * one paste and not as keys (where "?" would open its shortcuts help).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeliveryTarget, deliver } from '../../src/pty/deliver.js';
import { DraftHold } from '../../src/pty/draft.js';
import { Emitter } from '../../src/pty/emitter.js';
import { FakePane, lineAgentProfile } from '../helpers/fake-pane.js';

/** An idle agent that takes a paste into its box and goes busy on Enter. */
function idleAgent(waitPasteMode: boolean): DeliveryTarget & { readonly pane: FakePane } {
  const pane = new FakePane();
  const evaluated = new Emitter<void>();
  let box = '';
  let busy = false;
  let inTurn = false;
  pane.program = (input) => {
    if ('paste' in input) box = input.paste;
    else if (input.keys === '\r' && box !== '') [box, busy] = ['', true];
    void pane.draw('.').then(() => evaluated.fire());
  };
  return {
    pane,
    profile: lineAgentProfile({ confirm_ms: 150, wait_paste_mode: waitPasteMode }),
    get state() {
      return busy ? 'busy' : 'idle';
    },
    get inTurn() {
      return inTurn;
    },
    readsInput: true,
    settled: false,
    hold: new DraftHold(),
    onEvaluated: evaluated.event,
    draft: () => '',
    inputText: () => box,
    beginTurn: () => {
      inTurn = true;
    },
    cancelTurn: () => {
      inTurn = false;
    },
  };
}

const panes: FakePane[] = [];
afterEach(() => {
  for (const p of panes.splice(0)) p.dispose();
});

describe('deliver: waiting for bracketed pastes to be turned on', () => {
  it('types nothing until the program asks for bracketed pastes, then pastes once and presses Enter', async () => {
    const agent = idleAgent(true);
    panes.push(agent.pane);
    const result = deliver(agent, 'GET /users?page=2', 5000);
    await sleep(300);
    expect(agent.pane.inputs).toEqual([]);
    await agent.pane.draw('\x1b[?2004h');
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(agent.pane.inputs).toEqual([{ paste: 'GET /users?page=2' }, { keys: '\r' }]);
  });

  it('without the setting, types at once whatever the mode', async () => {
    const agent = idleAgent(false);
    panes.push(agent.pane);
    expect(await deliver(agent, 'hello', 5000)).toEqual({ ok: true, attempts: 1 });
    expect(agent.pane.inputs).toEqual([{ paste: 'hello' }, { keys: '\r' }]);
  });
});
