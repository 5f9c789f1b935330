import { describe, expect, it } from 'vitest';
import {
  type Effect,
  type JournalEntry,
  type RelayConfig,
  type RelayState,
  type Role,
  restoreState,
  rolePrompt,
  staleNotice,
  step,
} from '../../src/protocol/index.js';
import { resumeContext } from '../../src/protocol/prompts.js';
import { handoffDelivered, machineConfig, plannerHandoff } from '../helpers/machine.js';
import { cp, journalOf, started, twoRoundsThenOffered } from '../helpers/restore.js';

const config: RelayConfig = machineConfig('en');
const SHA = 'a'.repeat(64);
const GOAL = 'Add pagination to /users';
const agent = { command: ['sim'], profile: 'sim' };

const goal: JournalEntry = { type: 'goal', text: GOAL };
const goalDelivered: JournalEntry = {
  type: 'delivered',
  kind: 'goal',
  round: 0,
  from: 'relevo',
  to: 'planner',
  sha256: SHA,
  chars: GOAL.length,
  attempts: 1,
};
const deliveredEntry = (from: Role, round: number, seq: number): JournalEntry =>
  handoffDelivered(from, round, seq, { transfer_id: '123e4567-e89b-42d3-a456-426614174000' });
const checkpointEntry = (lane: Role, seq: number, round: number): JournalEntry => ({
  type: 'checkpoint',
  lane,
  checkpoint_seq: seq,
  round,
  to: lane === 'planner' ? 'builder' : 'planner',
  sha256: SHA,
  bytes: 6,
  lines: 1,
});

type Restore = Parameters<typeof restoreState>[1];

/** The state restored after the goal was delivered, from `checkpoints` (and `stale` ones). */
const restored = (checkpoints: Restore['checkpoints'], stale: Restore['stale'] = null, cfg = config): RelayState =>
  ok(restoreState(cfg, { lines: journalOf([started, goal, goalDelivered]), checkpoints, stale }));

const ok = (r: ReturnType<typeof restoreState>): RelayState => {
  if (!r.ok) throw new Error(`restore failed: ${r.error}`);
  return r.state;
};

const deliveries = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'deliver' ? [e.message] : []));
const journal = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'journal' ? [e.entry] : []));

describe('restoreState: runs it cannot resume', () => {
  it('refuses a run that is already done', () => {
    const lines = journalOf([started, goal, goalDelivered, { type: 'done', summary: 'ok', rounds: 1 }]);
    expect(restoreState(config, { lines, checkpoints: [cp('planner', 1, 1, 'step 1', 'acked')], stale: null })).toEqual({
      ok: false,
      error: 'this run is already done',
    });
  });

  it('refuses a run that never got its goal', () => {
    expect(restoreState(config, { lines: journalOf([started]), checkpoints: [], stale: null })).toEqual({
      ok: false,
      error: 'this run never got its goal: start a new run instead',
    });
    expect(restoreState(config, { lines: [], checkpoints: [], stale: null }).ok).toBe(false);
  });
});

describe('restoreState: what is pending', () => {
  it('sends the goal again when it was never delivered', () => {
    const state = ok(restoreState(config, { lines: journalOf([started, goal]), checkpoints: [], stale: null }));
    expect(state.pending).toEqual({ kind: 'goal', to: 'planner', from: 'relevo', round: 0, body: GOAL, text: `Goal: ${GOAL}` });
    expect(state).toMatchObject({ phase: 'paused', round: 0, goal: GOAL, pause: { reason: 'interrupted' }, turn: null, delivering: false });
  });

  it('opens a re-sent goal with the role prompt when the planner has no launch flag for it', () => {
    const inline: RelayConfig = { ...config, inlineRolePrompt: { planner: true, builder: true } };
    const state = ok(restoreState(inline, { lines: journalOf([started, goal]), checkpoints: [], stale: null }));
    expect(state.pending?.text).toBe(`${rolePrompt('planner', 'en')}\n\nGoal: ${GOAL}`);
  });

  it('tells the planner it was working on the goal when the goal was delivered and no checkpoint exists', () => {
    const state = restored([]);
    const text =
      'relevo was restarted while you were working on the goal below. If you had not finished, finish now; either way end your reply with the <handoff> for the next step.\n' +
      `Goal: ${GOAL}`;
    expect(state.pending).toEqual({ kind: 'notice', to: 'planner', from: 'relevo', round: 0, body: text, text, cause: 'resume' });
    expect(state.pending?.text).toContain(`Goal: ${GOAL}`);
  });

  it('sends an offered but unacknowledged planner handoff again, as it was, to the builder', () => {
    const checkpoints = twoRoundsThenOffered();
    const state = restored(checkpoints);
    expect(state.pending).toEqual(plannerHandoff(3, 3, 'step 3', '[relevo ronda 3 · de planner]\nstep 3'));
  });

  it("sends a written (not yet offered) handoff too: it is still its sender's", () => {
    const checkpoints = [cp('planner', 1, 1, 'step 1', 'written')];
    const state = restored(checkpoints);
    expect(state.pending).toMatchObject({
      kind: 'handoff',
      to: 'builder',
      seq: 1,
      round: 1,
      text: '[relevo ronda 1 · de planner]\nstep 1',
    });
    expect(state.round).toBe(0);
  });

  it('opens a handoff re-sent to the restarted planner with the goal, for context', () => {
    const checkpoints = [cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 1, 'report 1', 'offered')];
    const state = restored(checkpoints);
    expect(state.pending).toMatchObject({
      kind: 'handoff',
      to: 'planner',
      from: 'builder',
      round: 1,
      seq: 1,
      body: 'report 1',
      via: 'inline',
    });
    const text = state.pending!.text;
    expect(text.startsWith('relevo was restarted')).toBe(true);
    expect(text).toBe(`relevo was restarted; this run's goal, for context:\nGoal: ${GOAL}\n\n[relevo ronda 1 · de builder]\nreport 1`);
    expect(text.indexOf('Goal:')).toBeLessThan(text.indexOf('[relevo ronda 1 · de builder]'));
    expect(text).toBe(`${resumeContext('en', GOAL)}\n\n[relevo ronda 1 · de builder]\nreport 1`);
  });

  it('opens a handoff re-sent to a planner that lived on (its pane found again) with its round header: nothing it knows is told again', () => {
    const checkpoints = [cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 1, 'report 1', 'offered')];
    const inline = { ...config, inlineRolePrompt: { planner: true, builder: true } };
    const lines = journalOf([started, goal, goalDelivered]);
    const livedOn = { planner: true, builder: true };
    const state = ok(restoreState(inline, { lines, checkpoints, stale: null, livedOn }));
    expect(state.pending!.text).toBe('[relevo ronda 1 · de builder]\nreport 1');
    expect(state.restarted).toEqual({ planner: false, builder: false });
    // Only the planner was told anything before relevo stopped: a builder that lived on was never introduced.
    expect(state.introduced).toEqual({ planner: true, builder: false });
    // Launched with its role (run_started says so), a builder that lived on knows it too.
    const launched = { ...started, builder: { ...agent, role_prompt: 'launch' as const } } as JournalEntry;
    const both = ok(restoreState(inline, { lines: journalOf([launched, goal, goalDelivered]), checkpoints, stale: null, livedOn }));
    expect(both.introduced).toEqual({ planner: true, builder: true });
    // A new planner process (its pane gone, started again) gets its role and the goal first.
    const fresh = ok(restoreState(inline, { lines, checkpoints, stale: null, livedOn: { planner: false, builder: true } }));
    expect(fresh.pending!.text).toBe(
      `${resumeContext('en', GOAL)}\n\n${rolePrompt('planner', 'en')}\n\n[relevo ronda 1 · de builder]\nreport 1`,
    );
  });

  it('tells the receiver of an acknowledged handoff where it is, never typing the body again', () => {
    const checkpoints = [cp('planner', 1, 1, 'step 1: the secret body', 'acked')];
    const state = restored(checkpoints);
    const text =
      'relevo was restarted while you were working on round 1 from the planner. ' +
      'The handoff is at .relevo/runs/r1/planner/checkpoints/1/HANDOFF.md. ' +
      'If you had not finished it, finish it now; either way end your reply with your <handoff>.';
    const handoff = { lane: 'planner', seq: 1 };
    expect(state.pending).toEqual({ kind: 'notice', to: 'builder', from: 'relevo', round: 1, body: text, text, cause: 'resume', handoff });
    expect(text).not.toContain('secret');
    expect(state.round).toBe(1);
  });

  it("tells the planner, with the goal, when the builder's report was acknowledged", () => {
    const checkpoints = [cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 1, 'report 1: the body', 'acked')];
    const runPath = '../elsewhere/runs/r9';
    const state = restored(checkpoints, null, { ...config, runPath });
    expect(state.pending).toMatchObject({ kind: 'notice', to: 'planner', from: 'relevo', round: 1 });
    const text = state.pending!.text;
    expect(text).toContain(`${runPath}/builder/checkpoints/1/HANDOFF.md`);
    expect(text).toContain('round 1 from the builder');
    expect(text.endsWith(`\nGoal: ${GOAL}`)).toBe(true);
    expect(text).not.toContain('report 1: the body');
    expect(state.pending!.body).toBe(text);
  });

  it('takes the latest checkpoint by creation time, whatever the lane or the order given', () => {
    const [p1, b1, p2, b2, p3] = twoRoundsThenOffered();
    const state = restored([p3!, b2!, p1!, p2!, b1!]);
    expect(state.pending).toMatchObject({ kind: 'handoff', from: 'planner', seq: 3, round: 3 });
    // A builder checkpoint created after the planner's, given first, is the latest.
    const p = cp('planner', 4, 4, 'step 4', 'acked');
    const b = cp('builder', 1, 4, 'report 4', 'offered');
    const later = restored([b, p]);
    expect(later.pending).toMatchObject({ kind: 'handoff', from: 'builder', to: 'planner', seq: 1, round: 4, body: 'report 4' });
    expect(later.seqs).toEqual({ planner: 4, builder: 1 });
  });
});

describe('restoreState: the rest of the state', () => {
  it('rebuilds round, seqs, last sent/received, budget, step, pause and introduced', () => {
    const checkpoints = twoRoundsThenOffered();
    const lines = journalOf([
      started,
      goal,
      goalDelivered,
      checkpointEntry('planner', 1, 1),
      deliveredEntry('planner', 1, 1),
      { type: 'step_mode', on: true },
      { type: 'paused', reason: 'max_rounds', role: 'planner', pending_round: 2, pending_to: 'builder' },
      { type: 'resumed', budget: 7 },
      { type: 'step_mode', on: false },
      { type: 'step_mode', on: true },
      { type: 'paused', reason: 'step', role: 'planner', pending_round: 3, pending_to: 'builder' },
    ]);
    const state = ok(restoreState(config, { lines, checkpoints, stale: null }));
    expect(state.phase).toBe('paused');
    expect(state.round).toBe(2);
    expect(state.budget).toBe(7);
    expect(state.step).toBe(true);
    expect(state.goal).toBe(GOAL);
    expect(state.seqs).toEqual({ planner: 3, builder: 2 });
    expect(state.lastSent).toEqual({ planner: 'report 2', builder: 'step 2' });
    expect(state.lastReceived).toEqual({ planner: 'step 3', builder: 'report 2' });
    expect(state.introduced).toEqual({ planner: false, builder: false });
    expect(state.pause).toEqual({ reason: 'step', role: 'planner' });
    expect(state.turn).toBeNull();
    expect(state.delivering).toBe(false);
    expect(state.stale).toBeNull();
    expect(state.summary).toBeNull();
  });

  it('takes the round from acknowledged planner handoffs only', () => {
    const checkpoints = [
      cp('planner', 1, 1, 'step 1', 'acked'),
      cp('builder', 1, 1, 'r', 'acked'),
      cp('planner', 2, 2, 'step 2', 'offered'),
    ];
    const state = restored(checkpoints);
    expect(state.round).toBe(1);
    expect(state.budget).toBe(10);
    expect(state.step).toBe(false);
    expect(state.seqs).toEqual({ planner: 2, builder: 1 });
  });

  it('never takes the round from a builder checkpoint', () => {
    // The builder's report carries the round it received; only the planner's acknowledged handoffs count.
    const checkpoints = [cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 2, 'report', 'acked')];
    const state = restored(checkpoints);
    expect(state.round).toBe(1);
    expect(restored([cp('builder', 1, 1, 'r', 'acked')]).round).toBe(0);
  });

  it('keeps the pause detail of the last pause', () => {
    const lines = journalOf([
      started,
      goal,
      goalDelivered,
      { type: 'paused', reason: 'ack_refused', role: 'builder', detail: 'digest mismatch: x' },
    ]);
    const state = ok(restoreState(config, { lines, checkpoints: twoRoundsThenOffered(), stale: null }));
    expect(state.pause).toEqual({ reason: 'ack_refused', role: 'builder', detail: 'digest mismatch: x' });
  });

  it('calls the pause `interrupted` when the run was resumed after its last pause', () => {
    const pausedThenResumed = journalOf([
      started,
      goal,
      goalDelivered,
      { type: 'paused', reason: 'user' },
      { type: 'resumed', budget: 10 },
    ]);
    expect(ok(restoreState(config, { lines: pausedThenResumed, checkpoints: [], stale: null })).pause).toEqual({ reason: 'interrupted' });
    const pausedThenRestarted = journalOf([
      started,
      goal,
      goalDelivered,
      { type: 'paused', reason: 'user' },
      {
        type: 'run_resumed',
        version: '0.1.0',
        planner: agent,
        builder: agent,
        pending_kind: 'notice',
        pending_to: 'planner',
        pending_round: 0,
      },
    ]);
    expect(ok(restoreState(config, { lines: pausedThenRestarted, checkpoints: [], stale: null })).pause).toEqual({ reason: 'interrupted' });
    const neverPaused = journalOf([started, goal, goalDelivered]);
    expect(ok(restoreState(config, { lines: neverPaused, checkpoints: [], stale: null })).pause).toEqual({ reason: 'interrupted' });
    const pausedOnly = journalOf([started, goal, goalDelivered, { type: 'paused', reason: 'user' }]);
    expect(ok(restoreState(config, { lines: pausedOnly, checkpoints: [], stale: null })).pause).toEqual({ reason: 'user' });
  });

  it('passes STALE through and warns the receiver in the preamble', () => {
    const stale = [' src/users.ts | 12 +++++++-----', ' 1 file changed, 7 insertions(+), 5 deletions(-)'];
    const notice = staleNotice('en', stale);
    expect(notice).toContain('the workspace changed');

    const toBuilder = restored(twoRoundsThenOffered(), stale);
    expect(toBuilder.stale).toEqual(stale);
    expect(toBuilder.pending!.text).toBe(`${notice}\n\n[relevo ronda 3 · de planner]\nstep 3`);
    expect(toBuilder.pending!.body).toBe('step 3');

    const checkpoints = [cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 1, 'report 1', 'offered')];
    const toPlanner = restored(checkpoints, stale);
    expect(toPlanner.pending!.text).toBe(`${resumeContext('en', GOAL)}\n\n${notice}\n\n[relevo ronda 1 · de builder]\nreport 1`);

    const acked = restored([cp('planner', 1, 1, 'step 1', 'acked')], stale);
    expect(acked.pending!.kind).toBe('notice');
    expect(acked.pending!.text.startsWith(`${notice}\n\nrelevo was restarted while you were working on round 1 from the planner.`)).toBe(
      true,
    );

    const noFiles = restored(twoRoundsThenOffered(), []);
    expect(noFiles.pending!.text).toContain('(no tracked file changes; HEAD moved)');
  });

  it('re-sends as a file when the delivery policy says so', () => {
    const file: RelayConfig = { ...config, delivery: { mode: 'file', maxBytes: 4096, maxLines: 60 } };
    const state = restored(twoRoundsThenOffered(), null, file);
    expect(state.pending).toEqual(
      plannerHandoff(
        3,
        3,
        'step 3',
        '[relevo ronda 3 · de planner]\nRead this handoff in full at .relevo/runs/r1/planner/checkpoints/3/HANDOFF.md and go on as usual.',
        'file',
      ),
    );
  });

  it('re-sends a big body as a file under the auto policy', () => {
    const body = Array.from({ length: 61 }, (_, i) => `line ${i}`).join('\n');
    const checkpoints = [cp('planner', 1, 1, body, 'offered')];
    const state = restored(checkpoints);
    expect(state.pending).toMatchObject({ via: 'file', body });
    expect(state.pending!.text).toBe(
      '[relevo ronda 1 · de planner]\nRead this handoff in full at .relevo/runs/r1/planner/checkpoints/1/HANDOFF.md and go on as usual.',
    );
  });
});

describe('restoreState: then a resume', () => {
  it('dispatches the pending handoff, which the next delivery completes', () => {
    const state = restored(twoRoundsThenOffered());
    const resumed = step(config, state, { type: 'resume' });
    expect(resumed.effects).toEqual([
      { type: 'journal', entry: { type: 'resumed', budget: 10 } },
      { type: 'deliver', message: state.pending },
    ]);
    expect(resumed.state).toMatchObject({ phase: 'running', pause: null, delivering: true, pending: state.pending, turn: null });
    const done = step(config, resumed.state, {
      type: 'delivered',
      to: 'builder',
      sha256: SHA,
      attempts: 1,
      transferId: '123e4567-e89b-42d3-a456-426614174000',
    });
    expect(done.state).toMatchObject({ round: 3, turn: 'builder', pending: null, delivering: false });
    expect(done.state.introduced).toEqual({ planner: false, builder: true });
    expect(journal(done.effects)).toEqual([deliveredEntry('planner', 3, 3)]);
  });

  it('delivers a notice: the turn goes to its receiver, the round stays', () => {
    const state = restored([cp('planner', 1, 1, 'step 1', 'acked'), cp('builder', 1, 1, 'report 1', 'acked')]);
    const resumed = step(config, state, { type: 'resume' });
    expect(deliveries(resumed.effects)).toEqual([state.pending]);
    const done = step(config, resumed.state, { type: 'delivered', to: 'planner', sha256: SHA, attempts: 2 });
    expect(done.state).toMatchObject({ round: 1, turn: 'planner', pending: null });
    expect(done.state.lastSent).toEqual(state.lastSent);
    expect(journal(done.effects)).toEqual([
      {
        type: 'delivered',
        kind: 'notice',
        round: 1,
        from: 'relevo',
        to: 'planner',
        sha256: SHA,
        chars: state.pending!.body.length,
        attempts: 2,
        cause: 'resume',
      },
    ]);
    // The planner's next handoff is the next round, in the next seq of its lane.
    const next = step(config, done.state, { type: 'turn-ended', role: 'planner', reply: '<handoff>\nstep 2\n</handoff>', source: 'hook' });
    expect(next.effects.find((e) => e.type === 'checkpoint')).toMatchObject({ message: { seq: 2, round: 2, from: 'planner' } });
    expect(deliveries(next.effects)).toMatchObject([{ seq: 2, round: 2, to: 'builder', body: 'step 2' }]);
  });

  it('grants another maxRounds when the run was paused at max_rounds', () => {
    const lines = journalOf([
      started,
      goal,
      goalDelivered,
      { type: 'resumed', budget: 2 },
      { type: 'paused', reason: 'max_rounds', role: 'planner', pending_round: 3, pending_to: 'builder' },
    ]);
    const small: RelayConfig = { ...config, maxRounds: 3 };
    const state = ok(restoreState(small, { lines, checkpoints: twoRoundsThenOffered(), stale: null }));
    expect(state).toMatchObject({ round: 2, budget: 2, pause: { reason: 'max_rounds', role: 'planner' } });
    const resumed = step(small, state, { type: 'resume' });
    expect(resumed.state.budget).toBe(5);
    expect(journal(resumed.effects)).toEqual([{ type: 'resumed', budget: 5 }]);
    expect(deliveries(resumed.effects)).toEqual([state.pending]);
  });

  it("pauses again at max_rounds when an interrupted run's pending handoff is past its budget", () => {
    const lines = journalOf([started, goal, goalDelivered, { type: 'resumed', budget: 2 }]);
    const state = ok(restoreState(config, { lines, checkpoints: twoRoundsThenOffered(), stale: null }));
    expect(state.pause).toEqual({ reason: 'interrupted' });
    const resumed = step(config, state, { type: 'resume' });
    expect(deliveries(resumed.effects)).toEqual([]);
    expect(resumed.state.pause).toEqual({ reason: 'max_rounds', role: 'planner' });
    expect(resumed.state.pending).toEqual(state.pending);
    const again = step(config, resumed.state, { type: 'resume' });
    expect(again.state.budget).toBe(12);
    expect(deliveries(again.effects)).toEqual([state.pending]);
  });
});

describe('restoreState: a restarted planner', () => {
  it('gets the goal, for context, with the first handoff it is sent after the resume, and only with that one', () => {
    // Killed while the builder worked on round 3: the builder is told where its handoff is.
    const checkpoints = [
      cp('planner', 1, 1, 'step 1', 'acked'),
      cp('builder', 1, 1, 'report 1', 'acked'),
      cp('planner', 2, 2, 'step 2', 'acked'),
    ];
    const state = restored(checkpoints);
    expect(state.pending).toMatchObject({ kind: 'notice', to: 'builder' });
    const running = step(config, step(config, state, { type: 'resume' }).state, {
      type: 'delivered',
      to: 'builder',
      sha256: SHA,
      attempts: 1,
    }).state;
    const report = step(config, running, { type: 'turn-ended', role: 'builder', reply: '<handoff>\nreport 2\n</handoff>', source: 'hook' });
    expect(report.state.pending!.text).toBe(`${resumeContext('en', GOAL)}\n\n[relevo ronda 2 · de builder]\nreport 2`);
    const introduced = step(config, report.state, { type: 'delivered', to: 'planner', sha256: SHA, attempts: 1 }).state;
    const step3 = step(config, introduced, {
      type: 'turn-ended',
      role: 'planner',
      reply: '<handoff>\nstep 3\n</handoff>',
      source: 'hook',
    }).state;
    const builderDone = step(config, step3, { type: 'delivered', to: 'builder', sha256: SHA, attempts: 1 }).state;
    const report3 = step(config, builderDone, {
      type: 'turn-ended',
      role: 'builder',
      reply: '<handoff>\nreport 3\n</handoff>',
      source: 'hook',
    });
    expect(report3.state.pending!.text).toBe('[relevo ronda 3 · de builder]\nreport 3');
  });
});
