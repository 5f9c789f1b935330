import { describe, expect, it } from 'vitest';
import { journalEntrySchema, planRebuild, type RebuildInput, rebuiltText, restoreState, step } from '../../src/protocol/index.js';
import { deliveries, machineConfig } from '../helpers/machine.js';
import { cp, journalOf, started, twoRoundsThenOffered } from '../helpers/restore.js';

const GOAL = 'Add pagination to /users';
const config = machineConfig('en');

const input = (over: Partial<RebuildInput>): RebuildInput => ({
  loss: 'missing',
  survivors: [],
  goalFile: null,
  checkpoints: [],
  lang: 'en',
  movedTo: null,
  ...over,
});

const planned = (over: Partial<RebuildInput>) => {
  const plan = planRebuild(input(over));
  if (!plan.ok) throw new Error(`refused: ${plan.error}`);
  return plan;
};

describe('planRebuild: what a lost journal is rebuilt with', () => {
  it('refuses, in one line, a run with no checkpoints, no goal.txt and no surviving goal line', () => {
    for (const loss of ['missing', 'empty', 'cut'] as const) {
      expect(planRebuild(input({ loss }))).toEqual({
        ok: false,
        error: `lost its journal (events.jsonl ${loss}) and has no checkpoints or goal to rebuild it from: start a new run`,
      });
    }
    // An empty goal.txt (cut by a kill before its write) holds no goal.
    expect(planRebuild(input({ goalFile: '' })).ok).toBe(false);
  });

  it('refuses a run whose surviving lines say it is done', () => {
    const survivors = journalOf([
      { type: 'goal', text: GOAL },
      { type: 'done', summary: 'ok', rounds: 3 },
    ]);
    expect(planRebuild(input({ loss: 'cut', survivors, checkpoints: twoRoundsThenOffered() }))).toEqual({
      ok: false,
      error: 'lost its journal (events.jsonl cut) after it was done: nothing to resume',
    });
  });

  it('takes the goal from a surviving goal line first, then goal.txt, else tells the planner it was lost, in the run language', () => {
    const survivors = journalOf([{ type: 'goal', text: GOAL }]);
    expect(planned({ loss: 'cut', survivors, goalFile: 'other' })).toMatchObject({ goal: GOAL, rebuilt: { goal_from: 'journal' } });
    expect(planned({ goalFile: GOAL })).toMatchObject({ goal: GOAL, rebuilt: { goal_from: 'goal_file' } });
    const lost = planned({ checkpoints: twoRoundsThenOffered() });
    expect(lost.goal).toBe("lost with this run's journal: go on from the last handoff");
    expect(lost.rebuilt.goal_from).toBe('lost');
    expect(lost.rebuilt.lost[0]).toBe('goal');
    expect(planned({ checkpoints: twoRoundsThenOffered(), lang: 'es' }).goal).toBe(
      'se perdió con el diario de esta ejecución: sigue desde el último handoff',
    );
    // With its goal kept, the goal is not in the list of what was lost.
    expect(planned({ goalFile: GOAL }).rebuilt.lost).toEqual(['agent_commands', 'budget', 'lang', 'step_mode', 'notes', 'pauses']);
  });

  it('says what each lane held, how much was acked, and what is pending; the line fits the journal schema', () => {
    const plan = planned({
      loss: 'cut',
      goalFile: GOAL,
      checkpoints: twoRoundsThenOffered(),
      movedTo: 'events.lost-20250101-120000-000.jsonl',
    });
    expect(plan.rebuilt).toEqual({
      type: 'journal_rebuilt',
      why: 'cut',
      lanes: { planner: { checkpoints: 3, acked: 2 }, builder: { checkpoints: 2, acked: 2 } },
      pending: { lane: 'planner', checkpoint_seq: 3, round: 3, to: 'builder' },
      goal_from: 'goal_file',
      lost: ['agent_commands', 'budget', 'lang', 'step_mode', 'notes', 'pauses'],
      moved_to: 'events.lost-20250101-120000-000.jsonl',
    });
    expect(journalEntrySchema.parse(plan.rebuilt)).toEqual(plan.rebuilt);
    expect(rebuiltText(plan.rebuilt)).toBe(
      'journal rebuilt (events.jsonl cut) from the checkpoints: planner 3 (2 acked), builder 2 (2 acked), planner/checkpoints/3 (round 3) pending for the builder; goal from goal.txt; lost: agent commands, budget, lang, step mode, notes, pauses; the damaged journal is kept as events.lost-20250101-120000-000.jsonl',
    );
    const allAcked = planned({ goalFile: GOAL, checkpoints: twoRoundsThenOffered().slice(0, 4) });
    expect(allAcked.rebuilt.pending).toBeNull();
    expect(allAcked.rebuilt).not.toHaveProperty('moved_to');
  });

  it('a rebuilt journal resumes with the pending handoff typed once and nothing acked typed again', () => {
    const checkpoints = twoRoundsThenOffered();
    const plan = planned({ checkpoints });
    const lines = journalOf([started, { type: 'goal', text: plan.goal }, plan.rebuilt]);
    const restored = restoreState(config, { lines, checkpoints, stale: null });
    if (!restored.ok) throw new Error(restored.error);
    expect(restored.state.round).toBe(2);
    const { effects } = step(config, restored.state, { type: 'resume' });
    const typed = deliveries(effects);
    expect(typed.map((m) => [m.kind, m.from, m.to, m.round])).toEqual([['handoff', 'planner', 'builder', 3]]);
    expect(typed[0]!.body).toBe('step 3');
  });

  it('with the goal lost, the restarted planner is told so with the handoff it is sent', () => {
    const checkpoints = [
      ...twoRoundsThenOffered().slice(0, 4),
      cp('planner', 3, 3, 'step 3', 'acked'),
      cp('builder', 3, 3, 'report 3', 'offered'),
    ];
    const plan = planned({ checkpoints });
    const lines = journalOf([started, { type: 'goal', text: plan.goal }, plan.rebuilt]);
    const restored = restoreState(config, { lines, checkpoints, stale: null });
    if (!restored.ok) throw new Error(restored.error);
    const typed = deliveries(step(config, restored.state, { type: 'resume' }).effects);
    expect(typed).toHaveLength(1);
    expect(typed[0]).toMatchObject({ kind: 'handoff', from: 'builder', to: 'planner', round: 3 });
    expect(typed[0]!.text).toContain("Goal: lost with this run's journal: go on from the last handoff");
  });
});
