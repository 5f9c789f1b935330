import { describe, expect, it } from 'vitest';
import {
  type Effect,
  initialState,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Role,
  rolePrompt,
  step,
} from '../../src/protocol/index.js';
import {
  delivered,
  deliveries,
  ended,
  handoff,
  handoffDelivered,
  journal,
  machineConfig,
  plannerHandoff,
  type Run,
  runEvents,
  SHA,
} from '../helpers/machine.js';

const flagConfig: RelayConfig = machineConfig('en');
const run = (events: RelayEvent[], config = flagConfig, from = initialState(config)): Run => runEvents(config, events, from);

/** Goal delivered, then `rounds` full planner→builder→planner exchanges. */
function exchanges(rounds: number): RelayEvent[] {
  const events: RelayEvent[] = [{ type: 'start', goal: 'G' }, delivered('planner')];
  for (let r = 1; r <= rounds; r++) {
    events.push(ended('planner', handoff(`step ${r}`)), delivered('builder'));
    events.push(ended('builder', handoff(`report ${r}`)), delivered('planner'));
  }
  return events;
}

describe('relay machine', () => {
  it('sends the goal to the planner first, as "Goal: …" when the role prompt goes through a launch flag', () => {
    const { state, effects } = run([{ type: 'start', goal: 'Add pagination' }]);
    expect(deliveries(effects)).toEqual([
      { kind: 'goal', to: 'planner', from: 'relevo', round: 0, body: 'Add pagination', text: 'Goal: Add pagination' },
    ]);
    expect(journal(effects)).toEqual([{ type: 'goal', text: 'Add pagination' }]);
    expect(state.phase).toBe('running');
    expect(state.turn).toBeNull();
  });

  it('opens the first message with the role prompt when the agent has no launch flag for it', () => {
    const config = machineConfig('es', { inlineRolePrompt: { planner: true, builder: true } });
    const goal = deliveries(run([{ type: 'start', goal: 'Paginar /users' }], config).effects)[0]!;
    expect(goal.text).toBe(`${rolePrompt('planner', 'es')}\n\nObjetivo: Paginar /users`);
    const r = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', handoff('paso 1'))], config);
    expect(deliveries(r.effects)[1]!.text).toBe(`${rolePrompt('builder', 'es')}\n\n[relevo ronda 1 · de planner]\npaso 1`);
    // Only the first message carries it.
    const later = run(exchanges(2), config);
    const texts = deliveries(later.effects).map((m) => m.text);
    expect(texts.filter((t) => t.includes('# relevo: builder'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('# relevo: planner'))).toHaveLength(1);
  });

  it("numbers the planner's first handoff round 1 and puts the header first, the body verbatim after it", () => {
    const body = 'Step one\n  - keep this indent\n\nand this blank line';
    const { effects, state } = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', handoff(body))]);
    const m = deliveries(effects)[1]!;
    expect(m).toMatchObject({ kind: 'handoff', to: 'builder', from: 'planner', round: 1, body });
    expect(m.text).toBe(`[relevo ronda 1 · de planner]\n${body}`);
    expect(state.delivering).toBe(true);
  });

  it('keeps the wire format in Spanish whatever the role-prompt language', () => {
    const config: RelayConfig = { ...flagConfig, lang: 'en' };
    const { effects } = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', handoff('x'))], config);
    expect(deliveries(effects)[1]!.text.split('\n')[0]).toBe('[relevo ronda 1 · de planner]');
  });

  it("raises the round only on the planner's handoffs; the builder's report carries the round it received", () => {
    const { effects, state } = run(exchanges(3));
    const sent = deliveries(effects).slice(1);
    expect(sent.map((m) => [m.from, m.round])).toEqual([
      ['planner', 1],
      ['builder', 1],
      ['planner', 2],
      ['builder', 2],
      ['planner', 3],
      ['builder', 3],
    ]);
    expect(sent[1]!.text.split('\n')[0]).toBe('[relevo ronda 1 · de builder]');
    expect(state.round).toBe(3);
    expect(state.turn).toBe('planner');
  });

  it('journals each delivery with round, from, to and the sha256 it is given', () => {
    const entries = journal(run(exchanges(1)).effects).filter((e) => e.type === 'delivered');
    expect(entries).toEqual([
      { type: 'delivered', kind: 'goal', round: 0, from: 'relevo', to: 'planner', sha256: SHA, chars: 1, attempts: 1 },
      handoffDelivered('planner', 1, 1),
      handoffDelivered('builder', 1, 1, { chars: 8 }),
    ]);
  });

  it("ends the run on the planner's <done>, with its summary", () => {
    const { state, effects } = run([...exchanges(2), ended('planner', 'All good.\n<done>\nPagination shipped.\n</done>')]);
    expect(state.phase).toBe('done');
    expect(state.summary).toBe('Pagination shipped.');
    expect(journal(effects).at(-1)).toEqual({ type: 'done', summary: 'Pagination shipped.', rounds: 2 });
    expect(deliveries(effects)).toHaveLength(5);
  });

  it('does not let the builder end the run with <done>: its handoff is relayed', () => {
    const events = [...exchanges(1), ended('planner', handoff('step 2')), delivered('builder')];
    const { state } = run([...events, ended('builder', `<done>I think we are done</done>\n${handoff('report 2')}`)]);
    expect(state.phase).toBe('running');
    expect(state.pending?.body).toBe('report 2');
  });

  it('takes the last complete handoff of the turn, ignoring an unclosed one after it', () => {
    const reply = '<handoff>\nfirst\n</handoff>\n<handoff>\nsecond\n</handoff>\n<handoff>\nunfinished';
    const { state } = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', reply)]);
    expect(state.pending?.body).toBe('second');
  });

  it('pauses at max-rounds keeping the pending handoff, and a resume sends it and grants another max-rounds', () => {
    const config: RelayConfig = { ...flagConfig, maxRounds: 2 };
    const paused = run([...exchanges(2), ended('planner', handoff('step 3'))], config);
    expect(paused.state.phase).toBe('paused');
    expect(paused.state.pause).toEqual({ reason: 'max_rounds', role: 'planner' });
    expect(paused.state.pending).toMatchObject({ round: 3, to: 'builder', body: 'step 3' });
    expect(journal(paused.effects).at(-1)).toEqual({
      type: 'paused',
      reason: 'max_rounds',
      role: 'planner',
      pending_round: 3,
      pending_to: 'builder',
    });
    expect(deliveries(paused.effects).map((m) => m.round)).toEqual([0, 1, 1, 2, 2]);

    const resumed = run([{ type: 'resume' }], config, paused.state);
    expect(resumed.state.phase).toBe('running');
    expect(resumed.state.budget).toBe(4);
    expect(deliveries(resumed.effects)).toEqual([paused.state.pending]);
    expect(journal(resumed.effects)).toEqual([{ type: 'resumed', budget: 4 }]);
  });

  it('pauses with no_handoff when a finished turn holds no handoff (or an empty one)', () => {
    for (const reply of ['I am thinking about it.', '<handoff>\n   \n</handoff>', '<handoff>never closed']) {
      const { state, effects } = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', reply)]);
      expect(state.pause).toEqual({ reason: 'no_handoff', role: 'planner' });
      expect(deliveries(effects)).toHaveLength(1);
    }
  });

  it('resumes after no_handoff by waiting for the same agent again', () => {
    const paused = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', 'nothing')]);
    const resumed = run([{ type: 'resume' }, ended('planner', handoff('step 1'))], flagConfig, paused.state);
    expect(deliveries(resumed.effects)).toMatchObject([{ to: 'builder', round: 1, body: 'step 1' }]);
  });

  it('pauses with agent_exited when an agent exits, keeping what was pending', () => {
    const events = [...exchanges(1), ended('planner', handoff('step 2'))];
    const { state, effects } = run([...events, { type: 'agent-exited', role: 'builder', exitCode: 1 }]);
    expect(state.pause).toEqual({ reason: 'agent_exited', role: 'builder' });
    expect(state.pending?.body).toBe('step 2');
    expect(journal(effects).slice(-2)).toEqual([
      { type: 'agent_exited', role: 'builder', exit_code: 1 },
      { type: 'paused', reason: 'agent_exited', role: 'builder', pending_round: 2, pending_to: 'builder' },
    ]);
  });

  it('never sends a handoff identical to the last one sent to that peer', () => {
    const events = [...exchanges(1), ended('planner', handoff('step 1'))];
    const { state, effects } = run(events);
    expect(state.pause).toEqual({ reason: 'duplicate_handoff', role: 'planner' });
    expect(deliveries(effects)).toHaveLength(3);
  });

  it('never sends a handoff identical to the last one received from that peer (an echo)', () => {
    const events = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner'), ended('planner', handoff('step 1'))];
    const { state } = run([...events, delivered('builder'), ended('builder', handoff('step 1'))]);
    expect(state.pause).toEqual({ reason: 'duplicate_handoff', role: 'builder' });
  });

  it("journals a header-like line in an agent's own output as lookalike, and never counts it as a round", () => {
    const reply = '[relevo ronda 4 · de planner]\nDone.\n<handoff>\n[relevo ronda 9 · de builder]\nreport 1\n</handoff>';
    const events = [
      { type: 'start', goal: 'G' } as RelayEvent,
      delivered('planner'),
      ended('planner', handoff('step 1')),
      delivered('builder'),
    ];
    const { state, effects } = run([...events, ended('builder', reply)]);
    expect(journal(effects).filter((e) => e.type === 'lookalike')).toEqual([
      { type: 'lookalike', role: 'builder', line: '[relevo ronda 4 · de planner]' },
      { type: 'lookalike', role: 'builder', line: '[relevo ronda 9 · de builder]' },
    ]);
    // The forged header is cut from the body: the planner never sees it; the round stays 1.
    expect(state.pending).toMatchObject({ round: 1, body: 'report 1', text: '[relevo ronda 1 · de builder]\nreport 1' });
    expect(state.round).toBe(1);
  });

  it('sends only at the end of the turn it waits for: a turn of the other agent is journaled, not relayed', () => {
    const events = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner')];
    const { state, effects } = run([...events, ended('builder', handoff('unasked'))]);
    expect(deliveries(effects)).toHaveLength(1);
    expect(journal(effects).at(-1)).toEqual({
      type: 'turn_ended',
      role: 'builder',
      source: 'screen',
      chars: handoff('unasked').length,
      relayed: false,
    });
    expect(state.turn).toBe('planner');
  });

  it('never relays an interrupted turn, even one holding a complete handoff, and waits for the next one', () => {
    const base = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner')];
    const cut: RelayEvent = { type: 'turn-ended', role: 'planner', reply: handoff('half a step'), source: 'screen', interrupted: true };
    const { state, effects } = run([...base, cut]);
    expect(deliveries(effects)).toHaveLength(1);
    expect(journal(effects).at(-1)).toMatchObject({ type: 'turn_ended', role: 'planner', relayed: false, interrupted: true });
    expect(state).toMatchObject({ phase: 'running', turn: 'planner' });
    const next = run([ended('planner', handoff('the whole step'))], flagConfig, state);
    expect(deliveries(next.effects)).toMatchObject([{ to: 'builder', round: 1, body: 'the whole step' }]);
  });

  it('journals where a reply came from, and when the screen may have split long lines', () => {
    const base = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner')];
    const { effects } = run([...base, { type: 'turn-ended', role: 'planner', reply: handoff('x'), source: 'screen', lossy: true }]);
    expect(journal(effects).find((e) => e.type === 'turn_ended')).toMatchObject({ source: 'screen', lossy: true });
    const hook = run([...base, { type: 'turn-ended', role: 'planner', reply: handoff('x'), source: 'hook' }]);
    expect(journal(hook.effects).find((e) => e.type === 'turn_ended')).not.toHaveProperty('lossy');
  });

  it('does not relay a turn that ends while its own message is still being delivered', () => {
    const { effects } = run([{ type: 'start', goal: 'G' }, ended('planner', handoff('too early'))]);
    expect(deliveries(effects)).toHaveLength(1);
  });

  it('pauses with delivery_failed keeping the message, and a resume tries it again', () => {
    const failed = run([
      { type: 'start', goal: 'G' },
      { type: 'delivery-failed', to: 'planner', detail: 'not submitted' },
    ]);
    expect(failed.state.pause).toEqual({ reason: 'delivery_failed', role: 'planner', detail: 'not submitted' });
    expect(failed.state.delivering).toBe(false);
    const again = run([{ type: 'resume' }], flagConfig, failed.state);
    expect(deliveries(again.effects)).toMatchObject([{ kind: 'goal', to: 'planner' }]);
    expect(again.state.budget).toBe(10);
  });

  it('a delivery given up because the person paused (it waited on their draft) leaves one pause, the message pending', () => {
    const paused = run([
      { type: 'start', goal: 'G' },
      { type: 'pause' },
      { type: 'delivery-failed', to: 'planner', detail: 'the relay paused' },
    ]);
    expect(journal(paused.effects).filter((e) => e.type === 'paused')).toMatchObject([{ type: 'paused', reason: 'user' }]);
    expect(paused.state).toMatchObject({
      phase: 'paused',
      delivering: false,
      pause: { reason: 'user' },
      pending: { kind: 'goal', to: 'planner' },
    });
    expect(deliveries(run([{ type: 'resume' }], flagConfig, paused.state).effects)).toMatchObject([{ kind: 'goal', to: 'planner' }]);
  });

  it('journals a blocked agent and pauses with agent_blocked only when the wait times out', () => {
    const base = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner')];
    const blocked = run([...base, { type: 'agent-blocked', role: 'planner', detail: 'permission-prompt' }]);
    expect(blocked.state.phase).toBe('running');
    expect(journal(blocked.effects).at(-1)).toEqual({ type: 'blocked', role: 'planner', detail: 'permission-prompt' });
    expect(journal(run([{ type: 'agent-unblocked', role: 'planner' }], flagConfig, blocked.state).effects)).toEqual([
      { type: 'unblocked', role: 'planner' },
    ]);
    const timedOut = run([{ type: 'blocked-timeout', role: 'planner' }], flagConfig, blocked.state);
    expect(timedOut.state.pause).toEqual({ reason: 'agent_blocked', role: 'planner' });
  });

  it('pauses and resumes on request, and ignores a resume while running', () => {
    const p = run([{ type: 'start', goal: 'G' }, delivered('planner'), { type: 'pause' }]);
    expect(p.state.pause).toEqual({ reason: 'user' });
    expect(run([{ type: 'resume' }, { type: 'resume' }], flagConfig, p.state).effects).toHaveLength(1);
    // A turn that ends while paused is not sent, but kept: the resume sends it.
    const held = run([ended('planner', handoff('step 1'))], flagConfig, p.state);
    expect(deliveries(held.effects)).toHaveLength(0);
    expect(held.state).toMatchObject({ phase: 'paused', pending: { to: 'builder', round: 1, body: 'step 1' }, turn: null });
    expect(deliveries(run([{ type: 'resume' }], flagConfig, held.state).effects)).toMatchObject([
      { to: 'builder', round: 1, body: 'step 1' },
    ]);
  });

  it('after a pause, a held handoff past the round budget pauses again with max_rounds', () => {
    const config: RelayConfig = { ...flagConfig, maxRounds: 1 };
    const p = run([...exchanges(1), { type: 'pause' }, ended('planner', handoff('step 2'))], config);
    expect(p.state.pending).toMatchObject({ round: 2 });
    const r = run([{ type: 'resume' }], config, p.state);
    expect(r.state.pause).toEqual({ reason: 'max_rounds', role: 'planner' });
    expect(deliveries(r.effects)).toHaveLength(0);
    expect(deliveries(run([{ type: 'resume' }], config, r.state).effects)).toMatchObject([{ round: 2 }]);
  });

  it('in step mode, pauses before each relay with the handoff pending; resume sends it', () => {
    const on = run([
      { type: 'start', goal: 'G' },
      delivered('planner'),
      { type: 'set-step', on: true },
      ended('planner', handoff('step 1')),
    ]);
    expect(journal(on.effects)).toContainEqual({ type: 'step_mode', on: true });
    expect(on.state).toMatchObject({ phase: 'paused', pause: { reason: 'step', role: 'planner' }, pending: { round: 1, body: 'step 1' } });
    expect(deliveries(on.effects)).toHaveLength(1);
    const sent = run([{ type: 'resume' }], flagConfig, on.state);
    expect(deliveries(sent.effects)).toMatchObject([{ round: 1, body: 'step 1' }]);
    expect(sent.state.budget).toBe(10);
  });

  it("lets a person edit the pending handoff before it is sent; the header stays relevo's", () => {
    const paused = run([
      { type: 'start', goal: 'G' },
      delivered('planner'),
      { type: 'set-step', on: true },
      ended('planner', handoff('step 1')),
    ]);
    const edited = run([{ type: 'edit-pending', body: '\nstep 1, smaller\n  - only the tests  \n\n' }], flagConfig, paused.state);
    expect(edited.state.pending).toMatchObject({
      body: 'step 1, smaller\n  - only the tests',
      text: '[relevo ronda 1 · de planner]\nstep 1, smaller\n  - only the tests',
    });
    expect(journal(edited.effects)).toEqual([
      { type: 'pending_edited', round: 1, to: 'builder', chars: 'step 1, smaller\n  - only the tests'.length },
    ]);
    expect(run([{ type: 'edit-pending', body: '   ' }], flagConfig, paused.state).state).toBe(paused.state);
    expect(deliveries(run([{ type: 'resume' }], flagConfig, edited.state).effects)[0]!.body).toBe('step 1, smaller\n  - only the tests');
  });

  it('stop (quit, a signal) before the goal journals that the run got none, and nothing else; while running it pauses as the person', () => {
    const none = run([{ type: 'stop' }, { type: 'stop', detail: 'SIGHUP' }]);
    expect(journal(none.effects)).toEqual([{ type: 'no_goal' }, { type: 'no_goal', detail: 'SIGHUP' }]);
    expect(none.state).toEqual(initialState(flagConfig));
    const mid = run([{ type: 'start', goal: 'G' }, delivered('planner'), { type: 'stop', detail: 'SIGTERM' }]);
    expect(mid.state).toMatchObject({ phase: 'paused', pause: { reason: 'user', detail: 'SIGTERM' } });
    const done = run([...exchanges(1), ended('planner', '<done>ok</done>')]);
    expect(run([{ type: 'stop' }], flagConfig, done.state).effects).toEqual([]);
  });

  it('ignores events that make no sense in the current phase', () => {
    const s0 = initialState(flagConfig);
    expect(run([delivered('builder'), { type: 'resume' }, { type: 'pause' }, { type: 'blocked-timeout', role: 'planner' }]).state).toEqual(
      s0,
    );
    const done = run([...exchanges(1), ended('planner', '<done>ok</done>')]);
    expect(
      run(
        [
          { type: 'agent-exited', role: 'planner', exitCode: 0 },
          { type: 'start', goal: 'again' },
        ],
        flagConfig,
        done.state,
      ).state.phase,
    ).toBe('done');
  });
});

describe('relay machine: every event sequence', () => {
  const alphabet: RelayEvent[] = [
    ended('planner', handoff('p')),
    ended('planner', handoff('q')),
    ended('planner', '<done>s</done>'),
    ended('planner', 'no block'),
    ended('builder', handoff('r')),
    delivered('planner'),
    delivered('builder'),
    { type: 'delivery-failed', to: 'builder', detail: 'x' },
    { type: 'agent-exited', role: 'builder', exitCode: 1 },
    { type: 'blocked-timeout', role: 'planner' },
    { type: 'pause' },
    { type: 'resume' },
  ];
  const config: RelayConfig = { ...flagConfig, maxRounds: 2 };

  it('keeps its invariants on all sequences of 5 events after the start', () => {
    let paths = 0;
    const phases = new Set<string>();
    const pauses = new Set<string>();
    let handoffsReceived = 0;
    const violations = new Set<string>();
    const key = (from: Role | 'relevo', seq: number | undefined) => `${from}:${seq}`;
    /**
     * `checkpointed`: the text of each handoff (`from:seq`) written to its lane on this path so far;
     * `received`: the handoffs the peer confirmed on this path.
     */
    const walk = (state: RelayState, depth: number, checkpointed: ReadonlyMap<string, string>, received: ReadonlySet<string>) => {
      if (depth === 0) {
        paths++;
        phases.add(state.phase);
        return;
      }
      for (const event of alphabet) {
        const { state: next, effects } = step(config, state, event);
        // The round never goes back, never passes the budget, and only one agent holds the turn.
        expect(next.round).toBeGreaterThanOrEqual(state.round);
        expect(next.round).toBeLessThanOrEqual(next.budget);
        if (next.turn !== null) expect(next.delivering).toBe(false);
        // A message is delivered only while running, and nothing is dropped: a pause keeps what was pending.
        const sent = effects.filter((e) => e.type === 'deliver');
        expect(sent.length).toBeLessThanOrEqual(1);
        if (sent.length > 0) expect(next.phase).toBe('running');
        if (state.pending !== null && next.pending === null) expect(event.type).toBe('delivered');
        if (state.phase === 'done') expect(next).toBe(state);
        // Checkpoint before delivery: a handoff is typed only as its lane holds it, and a peer receives each handoff once.
        let written = checkpointed;
        let confirmed = received;
        for (const e of effects) {
          if (e.type === 'checkpoint') written = new Map(written).set(key(e.message.from, e.message.seq), e.message.text);
          if (e.type === 'deliver' && e.message.kind === 'handoff' && written.get(key(e.message.from, e.message.seq)) !== e.message.text) {
            violations.add(`${key(e.message.from, e.message.seq)} typed other than checkpointed`);
          }
          if (e.type === 'journal' && e.entry.type === 'delivered' && e.entry.kind === 'handoff') {
            const handoff = key(e.entry.from, e.entry.checkpoint_seq);
            if (!written.has(handoff)) violations.add(`${handoff} delivered without a checkpoint`);
            if (confirmed.has(handoff)) violations.add(`${handoff} delivered twice`);
            confirmed = new Set(confirmed).add(handoff);
            handoffsReceived++;
          }
          if (e.type === 'journal' && e.entry.type === 'paused') pauses.add(e.entry.reason);
        }
        walk(next, depth - 1, written, confirmed);
      }
    };
    const started = step(config, initialState(config), { type: 'start', goal: 'G' }).state;
    walk(started, 5, new Map(), new Set());
    // The sequences drive the relay through every phase and its pauses, and hand work over: the checks above ran on a live relay.
    const explored = `${paths} sequences explored`;
    expect([...violations], explored).toEqual([]);
    expect([...phases].sort(), explored).toEqual(['done', 'paused', 'running']);
    expect([...pauses].sort(), explored).toEqual(['agent_blocked', 'agent_exited', 'delivery_failed', 'no_handoff', 'user']);
    expect(handoffsReceived, explored).toBeGreaterThan(0);
  });
});

describe('checkpoints and file delivery', () => {
  const header1 = '[relevo ronda 1 · de planner]';
  const checkpoints = (effects: Effect[]) => effects.flatMap((e) => (e.type === 'checkpoint' ? [e] : []));
  const goalDelivered = [{ type: 'start', goal: 'G' } as RelayEvent, delivered('planner')];
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

  it('writes the checkpoint of a handoff before delivering it', () => {
    const { state, effects } = run([...goalDelivered, ended('planner', handoff('step 1'))]);
    const turn = run([ended('planner', handoff('step 1'))], flagConfig, run(goalDelivered).state).effects;
    expect(turn.map((e) => e.type)).toEqual(['journal', 'checkpoint', 'deliver']);
    const message = plannerHandoff(1, 1, 'step 1', `${header1}\nstep 1`);
    expect(turn[1]).toEqual({ type: 'checkpoint', message });
    expect(turn[2]).toEqual({ type: 'deliver', message });
    expect(checkpoints(effects)).toHaveLength(1);
    expect(state.seqs).toEqual({ planner: 1, builder: 0 });
    expect(state.pending).toEqual(message);
  });

  it('numbers checkpoints per lane, from 1', () => {
    const { state, effects } = run(exchanges(2));
    expect(checkpoints(effects).map((c) => [c.message.from, c.message.seq, c.message.round])).toEqual([
      ['planner', 1, 1],
      ['builder', 1, 1],
      ['planner', 2, 2],
      ['builder', 2, 2],
    ]);
    expect(checkpoints(effects).every((c) => c.supersedes === undefined)).toBe(true);
    expect(state.seqs).toEqual({ planner: 2, builder: 2 });
    // Every deliver of a handoff comes after its own checkpoint.
    const order = effects
      .filter((e) => e.type !== 'journal')
      .map((e) => `${e.type}:${e.message.kind}:${e.message.seq ?? '-'}:${e.message.from}`);
    expect(order).toEqual([
      'deliver:goal:-:relevo',
      'checkpoint:handoff:1:planner',
      'deliver:handoff:1:planner',
      'checkpoint:handoff:1:builder',
      'deliver:handoff:1:builder',
      'checkpoint:handoff:2:planner',
      'deliver:handoff:2:planner',
      'checkpoint:handoff:2:builder',
      'deliver:handoff:2:builder',
    ]);
  });

  it('writes the checkpoint even when the handoff is held: paused, past the budget or in step mode', () => {
    const held = run([...goalDelivered, { type: 'pause' }, ended('planner', handoff('step 1'))]);
    expect(held.effects.slice(-1)).toEqual([{ type: 'checkpoint', message: held.state.pending }]);
    expect(deliveries(held.effects)).toHaveLength(1);
    const config: RelayConfig = { ...flagConfig, maxRounds: 1 };
    const over = run([...exchanges(1), ended('planner', handoff('step 2'))], config);
    expect(over.effects.slice(-2).map((e) => e.type)).toEqual(['checkpoint', 'journal']);
    expect(over.state.pause).toEqual({ reason: 'max_rounds', role: 'planner' });
    expect(over.state.pending).toMatchObject({ seq: 2, round: 2 });
    const stepped = run([...goalDelivered, { type: 'set-step', on: true }, ended('planner', handoff('step 1'))]);
    expect(stepped.effects.slice(-2).map((e) => e.type)).toEqual(['checkpoint', 'journal']);
  });

  it('writes no checkpoint for an unrelayed, interrupted, duplicate or empty turn', () => {
    const base = run([...exchanges(1)]);
    for (const e of [
      ended('builder', handoff('unasked')),
      { type: 'turn-ended', role: 'planner', reply: handoff('half'), source: 'screen', interrupted: true } as RelayEvent,
      ended('planner', handoff('step 1')),
      ended('planner', 'no block'),
    ]) {
      const r = run([e], flagConfig, base.state);
      expect(checkpoints(r.effects)).toEqual([]);
      expect(r.state.seqs).toEqual({ planner: 1, builder: 1 });
    }
  });

  it('auto policy: a body over maxLines goes as a file, one at maxLines inline', () => {
    const over = run([...goalDelivered, ended('planner', handoff(lines(61)))]);
    expect(deliveries(over.effects)[1]).toEqual(
      plannerHandoff(
        1,
        1,
        lines(61),
        `${header1}\nRead this handoff in full at .relevo/runs/r1/planner/checkpoints/1/HANDOFF.md and go on as usual.`,
        'file',
      ),
    );
    const at = run([...goalDelivered, ended('planner', handoff(lines(60)))]);
    expect(deliveries(at.effects)[1]).toMatchObject({ via: 'inline', text: `${header1}\n${lines(60)}` });
  });

  it('auto policy: a body over maxBytes (UTF-8) goes as a file, one at maxBytes inline', () => {
    const at = run([...goalDelivered, ended('planner', handoff('x'.repeat(4096)))]);
    expect(deliveries(at.effects)[1]!.via).toBe('inline');
    const over = run([...goalDelivered, ended('planner', handoff('x'.repeat(4097)))]);
    expect(deliveries(over.effects)[1]!.via).toBe('file');
    // 2049 characters, 4098 bytes.
    const wide = run([...goalDelivered, ended('planner', handoff('ñ'.repeat(2049)))]);
    expect(deliveries(wide.effects)[1]).toMatchObject({ via: 'file', body: 'ñ'.repeat(2049) });
    const narrow = run([...goalDelivered, ended('planner', handoff('ñ'.repeat(2048)))]);
    expect(deliveries(narrow.effects)[1]!.via).toBe('inline');
  });

  it('auto policy: a body with a tab goes as a file (typed, a tab would arrive as spaces); inline policy types it anyway', () => {
    const tabbed = run([...goalDelivered, ended('planner', handoff('Makefile:\n\tnpm test'))]);
    expect(deliveries(tabbed.effects)[1]).toMatchObject({ via: 'file', body: 'Makefile:\n\tnpm test' });
    const spaces = run([...goalDelivered, ended('planner', handoff('Makefile:\n    npm test'))]);
    expect(deliveries(spaces.effects)[1]!.via).toBe('inline');
    const inline = run([...goalDelivered, ended('planner', handoff('a\tb'))], {
      ...flagConfig,
      delivery: { mode: 'inline', maxBytes: 4096, maxLines: 60 },
    });
    expect(deliveries(inline.effects)[1]!.via).toBe('inline');
  });

  it('uses the run path, the lane and the seq of the checkpoint in the file line, in the role-prompt language', () => {
    const config: RelayConfig = {
      ...flagConfig,
      lang: 'es',
      runPath: '../state/runs/20250101-x',
      delivery: { mode: 'file', maxBytes: 4096, maxLines: 60 },
    };
    const { effects } = run(exchanges(1), config);
    const sent = deliveries(effects);
    expect(sent.slice(1).map((m) => m.text)).toEqual([
      `${header1}\nLee este handoff completo en ../state/runs/20250101-x/planner/checkpoints/1/HANDOFF.md y sigue como siempre.`,
      '[relevo ronda 1 · de builder]\nLee este handoff completo en ../state/runs/20250101-x/builder/checkpoints/1/HANDOFF.md y sigue como siempre.',
    ]);
    expect(sent.slice(1).map((m) => m.via)).toEqual(['file', 'file']);
    expect(sent[1]!.body).toBe('step 1');
    expect(
      journal(effects)
        .filter((e) => e.type === 'delivered')
        .map((e) => (e.type === 'delivered' ? e.via : null)),
    ).toEqual([undefined, 'file', 'file']);
  });

  it('puts the role prompt before the file line when the agent has no launch flag for it', () => {
    const config: RelayConfig = {
      ...flagConfig,
      inlineRolePrompt: { planner: false, builder: true },
      delivery: { mode: 'file', maxBytes: 4096, maxLines: 60 },
    };
    const { effects } = run([...goalDelivered, ended('planner', handoff('step 1'))], config);
    expect(deliveries(effects)[1]!.text).toBe(
      `${rolePrompt('builder', 'en')}\n\n${header1}\nRead this handoff in full at .relevo/runs/r1/planner/checkpoints/1/HANDOFF.md and go on as usual.`,
    );
  });

  it('inline policy never sends a file, however big the body', () => {
    const config: RelayConfig = { ...flagConfig, delivery: { mode: 'inline', maxBytes: 1, maxLines: 1 } };
    const body = `${lines(200)}\n${'y'.repeat(10_000)}`;
    const { effects } = run([...goalDelivered, ended('planner', handoff(body))], config);
    expect(deliveries(effects)[1]).toMatchObject({ via: 'inline', text: `${header1}\n${body}`, body });
  });

  it('edit-pending on a held handoff writes a new checkpoint that supersedes the old one', () => {
    const held = run([...exchanges(1), { type: 'set-step', on: true }, ended('planner', handoff('step 2'))]);
    expect(held.state.pending).toMatchObject({ seq: 2, round: 2, body: 'step 2' });
    const edited = run([{ type: 'edit-pending', body: 'step 2, smaller' }], flagConfig, held.state);
    const message = plannerHandoff(2, 3, 'step 2, smaller', '[relevo ronda 2 · de planner]\nstep 2, smaller');
    expect(edited.effects).toEqual([
      { type: 'journal', entry: { type: 'pending_edited', round: 2, to: 'builder', chars: 15 } },
      { type: 'checkpoint', message, supersedes: 2 },
    ]);
    expect(edited.state.pending).toEqual(message);
    expect(edited.state.seqs).toEqual({ planner: 3, builder: 1 });
    expect(edited.state.lastReceived.planner).toBe('step 2, smaller');
    expect(edited.state.round).toBe(1);
    // Edited again: supersedes the edit.
    const twice = run([{ type: 'edit-pending', body: 'step 2, smallest' }], flagConfig, edited.state);
    expect(checkpoints(twice.effects)).toEqual([
      { type: 'checkpoint', message: expect.objectContaining({ seq: 4, body: 'step 2, smallest' }), supersedes: 3 },
    ]);
    // The resume sends the new checkpoint, journaled with its seq.
    const sent = run([{ type: 'resume' }, delivered('builder')], flagConfig, edited.state);
    expect(deliveries(sent.effects)).toEqual([message]);
    expect(journal(sent.effects).at(-1)).toMatchObject({ type: 'delivered', kind: 'handoff', checkpoint_seq: 3, round: 2, via: 'inline' });
  });

  it('edit-pending keeps the delivery policy: an edit that grows past the limit goes as a file', () => {
    const held = run([...goalDelivered, { type: 'set-step', on: true }, ended('planner', handoff('step 1'))]);
    const edited = run([{ type: 'edit-pending', body: lines(61) }], flagConfig, held.state);
    expect(edited.state.pending).toMatchObject({
      seq: 2,
      via: 'file',
      text: `${header1}\nRead this handoff in full at .relevo/runs/r1/planner/checkpoints/2/HANDOFF.md and go on as usual.`,
    });
  });

  it('edit-pending writes no checkpoint for the goal, an unchanged body, or a message being delivered', () => {
    const goalHeld = run([
      { type: 'start', goal: 'G' },
      { type: 'delivery-failed', to: 'planner', detail: 'x' },
    ]);
    const goalEdited = run([{ type: 'edit-pending', body: 'G2' }], flagConfig, goalHeld.state);
    expect(checkpoints(goalEdited.effects)).toEqual([]);
    expect(goalEdited.state.pending).toMatchObject({ kind: 'goal', body: 'G2', text: 'Goal: G2' });
    const held = run([...goalDelivered, { type: 'set-step', on: true }, ended('planner', handoff('step 1'))]);
    expect(run([{ type: 'edit-pending', body: 'step 1' }], flagConfig, held.state).effects).toEqual([]);
    const delivering = run([...goalDelivered, ended('planner', handoff('step 1'))]);
    const r = run([{ type: 'edit-pending', body: 'other' }], flagConfig, delivering.state);
    expect(r.effects).toEqual([]);
    expect(r.state).toBe(delivering.state);
  });

  it('ack-refused while delivering pauses with ack_refused, keeping the handoff pending for a resume', () => {
    const sending = run([...goalDelivered, ended('planner', handoff('step 1'))]);
    const pending = sending.state.pending;
    const detail = 'digest mismatch: planner/checkpoints/1 (offer aaaaaaaaaaaa, checkpoint aaaaaaaaaaaa, body bbbbbbbbbbbb)';
    const refused = run([{ type: 'ack-refused', to: 'builder', detail }], flagConfig, sending.state);
    expect(refused.state).toMatchObject({ phase: 'paused', delivering: false, turn: null, round: 0 });
    expect(refused.state.pending).toEqual(pending);
    expect(refused.state.pause).toEqual({ reason: 'ack_refused', role: 'builder', detail });
    expect(refused.effects).toEqual([
      {
        type: 'journal',
        entry: { type: 'paused', reason: 'ack_refused', role: 'builder', detail, pending_round: 1, pending_to: 'builder' },
      },
    ]);
    const again = run([{ type: 'resume' }], flagConfig, refused.state);
    expect(deliveries(again.effects)).toEqual([pending]);
    expect(checkpoints(again.effects)).toEqual([]);
    // A long detail is cut to 240 characters.
    const long = run([{ type: 'ack-refused', to: 'builder', detail: 'z'.repeat(500) }], flagConfig, sending.state);
    expect(long.state.pause?.detail).toBe('z'.repeat(240));
  });

  it('ignores ack-refused for another receiver or when nothing is being delivered', () => {
    const sending = run([...goalDelivered, ended('planner', handoff('step 1'))]);
    const other = run([{ type: 'ack-refused', to: 'planner', detail: 'x' }], flagConfig, sending.state);
    expect(other.state).toBe(sending.state);
    expect(other.effects).toEqual([]);
    const idle = run([...goalDelivered, ended('planner', handoff('step 1')), delivered('builder')]);
    expect(run([{ type: 'ack-refused', to: 'builder', detail: 'x' }], flagConfig, idle.state).state).toBe(idle.state);
  });

  it('delivering a notice hands the turn over without changing the round or what was sent', () => {
    const base = run(exchanges(2)).state;
    const text = 'relevo was restarted while you were working on round 2 from the builder.';
    const notice = {
      kind: 'notice' as const,
      to: 'planner' as const,
      from: 'relevo' as const,
      round: 3,
      body: text,
      text,
      cause: 'resume' as const,
    };
    const state: RelayState = { ...base, turn: null, pending: notice, delivering: true, introduced: { planner: false, builder: false } };
    const { state: next, effects } = run([{ type: 'delivered', to: 'planner', sha256: SHA, attempts: 1 }], flagConfig, state);
    expect(next).toMatchObject({ round: 2, turn: 'planner', pending: null, delivering: false });
    expect(next.lastSent).toEqual(base.lastSent);
    expect(next.introduced).toEqual({ planner: true, builder: false });
    expect(journal(effects)).toEqual([
      {
        type: 'delivered',
        kind: 'notice',
        round: 3,
        from: 'relevo',
        to: 'planner',
        sha256: SHA,
        chars: text.length,
        attempts: 1,
        cause: 'resume',
      },
    ]);
  });

  it('journals the transfer of a delivered handoff', () => {
    const transferId = '123e4567-e89b-42d3-a456-426614174000';
    const { effects } = run([
      ...goalDelivered,
      ended('planner', handoff('step 1')),
      { type: 'delivered', to: 'builder', sha256: SHA, attempts: 2, transferId },
    ]);
    expect(journal(effects).at(-1)).toEqual(handoffDelivered('planner', 1, 1, { attempts: 2, transfer_id: transferId }));
  });

  it('a new checkpoint clears STALE: the handoff written after it carries no notice', () => {
    const base = run([...exchanges(1)]).state;
    const stale: RelayState = { ...base, stale: [' src/a.ts | 2 +-'] };
    const { state, effects } = run([ended('planner', handoff('step 2'))], flagConfig, stale);
    expect(state.stale).toBeNull();
    expect(deliveries(effects)[0]!.text).toBe('[relevo ronda 2 · de planner]\nstep 2');
    expect(checkpoints(effects)[0]!.message.text).toBe('[relevo ronda 2 · de planner]\nstep 2');
    // A turn that writes no checkpoint leaves STALE as it was.
    const none = run([ended('planner', 'thinking, no block')], flagConfig, stale);
    expect(none.state.stale).toEqual([' src/a.ts | 2 +-']);
  });

  it('an edit writes a new checkpoint, which clears STALE too', () => {
    const held = run([...goalDelivered, { type: 'set-step', on: true }, ended('planner', handoff('step 1'))]);
    const stale: RelayState = { ...held.state, stale: [' src/a.ts | 2 +-'] };
    const edited = run([{ type: 'edit-pending', body: 'step 1, edited' }], flagConfig, stale);
    expect(edited.state.stale).toBeNull();
    expect(edited.state.pending!.text).toBe(`${header1}\nstep 1, edited`);
  });
});

describe('an exited agent restarted (C-] r)', () => {
  const restarted = (role: Role, pid?: number): RelayEvent => ({ type: 'agent-restarted', role, ...(pid ? { pid } : {}) });
  const exited = (role: Role): RelayEvent => ({ type: 'agent-exited', role, exitCode: 137 });
  const inline: RelayConfig = { ...flagConfig, inlineRolePrompt: { planner: true, builder: true } };

  it('tells a builder that died mid-turn where its handoff is, never typing the handoff again, and goes on', () => {
    const dead = run([...exchanges(1), ended('planner', handoff('step 2')), delivered('builder'), exited('builder')]);
    expect(dead.state).toMatchObject({ phase: 'paused', pause: { reason: 'agent_exited', role: 'builder' }, turn: 'builder' });
    const back = run([restarted('builder', 4242)], flagConfig, dead.state);
    expect(journal(back.effects)).toEqual([
      { type: 'agent_restarted', role: 'builder', pid: 4242 },
      { type: 'resumed', budget: 10 },
    ]);
    expect(deliveries(back.effects)).toEqual([
      {
        kind: 'notice',
        to: 'builder',
        from: 'relevo',
        round: 2,
        body: expect.any(String),
        text:
          'relevo restarted you (your process had exited) while you were working on round 2 from the planner. ' +
          'The handoff is at .relevo/runs/r1/planner/checkpoints/2/HANDOFF.md. If you had not finished it, finish it now; ' +
          'either way end your reply with your <handoff>.',
        cause: 'restart',
        handoff: { lane: 'planner', seq: 2 },
      },
    ]);
    expect(back.state).toMatchObject({ phase: 'running', pause: null, turn: null, delivering: true });
    expect(back.state.introduced.builder).toBe(false);
    // Its report is relayed as usual, once.
    const on = run([delivered('builder'), ended('builder', handoff('report 2'))], flagConfig, back.state);
    expect(deliveries(on.effects)).toMatchObject([{ kind: 'handoff', from: 'builder', to: 'planner', round: 2, body: 'report 2' }]);
  });

  it('sends the handoff that was on its way to the exited agent again, with its role prompt when inline, from the same checkpoint', () => {
    const dead = run([...exchanges(1), ended('planner', handoff('step 2')), exited('builder')], inline);
    expect(dead.state).toMatchObject({ pending: { kind: 'handoff', seq: 2 }, delivering: false });
    const back = run([restarted('builder')], inline, dead.state);
    expect(back.effects.filter((e) => e.type === 'checkpoint')).toEqual([]);
    expect(deliveries(back.effects)).toMatchObject([
      {
        kind: 'handoff',
        to: 'builder',
        seq: 2,
        body: 'step 2',
        text: `${rolePrompt('builder', 'en')}\n\n[relevo ronda 2 · de planner]\nstep 2`,
      },
    ]);
  });

  it('gives a restarted planner the goal first, with the report it is sent', () => {
    const dead = run([...exchanges(1), ended('planner', handoff('step 2')), delivered('builder'), exited('planner')]);
    const back = run([restarted('planner'), ended('builder', handoff('report 2'))], flagConfig, dead.state);
    expect(deliveries(back.effects).map((m) => m.text)).toEqual([
      "relevo was restarted; this run's goal, for context:\nGoal: G\n\n[relevo ronda 2 · de builder]\nreport 2",
    ]);
  });

  it('with both agents exited, goes on only once the one whose exit paused it last runs again', () => {
    const dead = run([...exchanges(1), ended('planner', handoff('step 2')), delivered('builder'), exited('builder'), exited('planner')]);
    expect(dead.state.pause).toEqual({ reason: 'agent_exited', role: 'planner' });
    const one = run([restarted('builder')], flagConfig, dead.state);
    expect(one.state).toMatchObject({ phase: 'paused', pending: { kind: 'notice', to: 'builder' } });
    expect(deliveries(one.effects)).toEqual([]);
    const both = run([restarted('planner')], flagConfig, one.state);
    expect(deliveries(both.effects)).toMatchObject([{ kind: 'notice', to: 'builder', round: 2 }]);
    expect(both.state.phase).toBe('running');
  });

  it('an agent that exits before the goal: its exit is journaled, no pause; the goal given then waits for it, nothing typed', () => {
    const gone = run([exited('planner')]);
    expect(gone.state).toMatchObject({ phase: 'ready', pause: null, exited: { planner: true, builder: false } });
    expect(journal(gone.effects)).toEqual([{ type: 'agent_exited', role: 'planner', exit_code: 137 }]);
    const held = run([{ type: 'start', goal: 'G' }], flagConfig, gone.state);
    expect(deliveries(held.effects)).toEqual([]);
    expect(journal(held.effects)).toEqual([
      { type: 'goal', text: 'G' },
      {
        type: 'paused',
        reason: 'agent_exited',
        role: 'planner',
        detail: 'the goal waits until it runs again',
        pending_round: 0,
        pending_to: 'planner',
      },
    ]);
    expect(held.state).toMatchObject({ phase: 'paused', goal: 'G', pending: { kind: 'goal', body: 'G' }, delivering: false });
    // Started again (C-] r): the goal goes to the new planner, once.
    const back = run([restarted('planner', 7)], flagConfig, held.state);
    expect(deliveries(back.effects)).toMatchObject([{ kind: 'goal', to: 'planner', text: 'Goal: G' }]);
    expect(back.state).toMatchObject({ phase: 'running', pause: null, delivering: true, exited: { planner: false, builder: false } });
  });

  it('an agent that exits before the goal and is started again before it: only the restart is journaled, and the goal goes at once', () => {
    const back = run([exited('builder'), restarted('builder', 9)]);
    expect(back.state).toEqual(initialState(flagConfig));
    expect(journal(back.effects)).toEqual([
      { type: 'agent_exited', role: 'builder', exit_code: 137 },
      { type: 'agent_restarted', role: 'builder', pid: 9 },
    ]);
    const started = run([{ type: 'start', goal: 'G' }], flagConfig, back.state);
    expect(deliveries(started.effects)).toMatchObject([{ kind: 'goal', to: 'planner' }]);
    expect(started.state.phase).toBe('running');
  });

  it('with both agents exited before the goal, the goal waits for the planner: it goes once the planner runs, the builder restarted first', () => {
    const held = run([exited('planner'), exited('builder'), { type: 'start', goal: 'G' }]);
    expect(held.state.pause).toEqual({ reason: 'agent_exited', role: 'planner', detail: 'the goal waits until it runs again' });
    const one = run([restarted('builder')], flagConfig, held.state);
    expect(deliveries(one.effects)).toEqual([]);
    expect(one.state).toMatchObject({ phase: 'paused', pending: { kind: 'goal' } });
    const both = run([restarted('planner')], flagConfig, one.state);
    expect(deliveries(both.effects)).toMatchObject([{ kind: 'goal', to: 'planner' }]);
    // The goal delivered, the round trip goes on as usual.
    const on = run([delivered('planner'), ended('planner', handoff('step 1'))], flagConfig, both.state);
    expect(deliveries(on.effects)).toMatchObject([{ kind: 'handoff', to: 'builder', round: 1 }]);
  });

  it('journals why a notice was sent: a restart here, a resume in restore.ts', () => {
    const dead = run([...exchanges(1), ended('planner', handoff('step 2')), delivered('builder'), exited('builder'), restarted('builder')]);
    const sent = run([delivered('builder')], flagConfig, dead.state);
    expect(journal(sent.effects)).toMatchObject([{ type: 'delivered', kind: 'notice', to: 'builder', round: 2, cause: 'restart' }]);
  });

  it('after done, only journals the restart', () => {
    const done = run([{ type: 'start', goal: 'G' }, delivered('planner'), ended('planner', '<done>ok</done>')]);
    const back = run([restarted('planner')], flagConfig, done.state);
    expect(back.state).toBe(done.state);
    expect(journal(back.effects)).toEqual([{ type: 'agent_restarted', role: 'planner' }]);
  });
});
