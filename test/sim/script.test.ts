import { describe, expect, it } from 'vitest';
import {
  DENIED_REPLY,
  extractGoal,
  initialScriptState,
  type Misbehaviour,
  parseHeader,
  planTurn,
  type ScriptConfig,
  type ScriptState,
  stepText,
  type TurnOutcome,
} from '../../src/sim/script.js';

const planner = (misbehave: Misbehaviour[] = [], steps = 3): ScriptConfig => ({ role: 'planner', steps, misbehave });
const builder = (misbehave: Misbehaviour[] = []): ScriptConfig => ({ role: 'builder', steps: 3, misbehave });

const GOAL_MESSAGE = 'You are the planner.\nSplit the work into steps.\n\nGoal: Add pagination to /users with tests';
const fromBuilder = (k: number): string => `[relevo ronda ${k} · de builder]\nRound ${k} report\nTests: 12 passed`;
const fromPlanner = (k: number): string => `[relevo ronda ${k} · de planner]\nStep ${k} of 3: Implement — X\nmore`;

function reply(outcome: TurnOutcome): { reply: string; next: ScriptState } {
  if (outcome.kind === 'exit' || outcome.kind === 'limit') throw new Error(`unexpected ${outcome.kind}`);
  return outcome;
}

/** Play messages through planTurn, returning each reply. */
function play(config: ScriptConfig, messages: string[]): string[] {
  let state = initialScriptState;
  return messages.map((message) => {
    const outcome = reply(planTurn(config, state, message));
    state = outcome.next;
    return outcome.reply;
  });
}

function handoffBody(text: string): string | null {
  return /<handoff>\n([\s\S]*?)\n<\/handoff>/.exec(text)?.[1] ?? null;
}

describe('parseHeader', () => {
  it('reads round, sender and body', () => {
    expect(parseHeader('[relevo ronda 2 · de planner]\nbody\nmore')).toEqual({ round: 2, from: 'planner', body: 'body\nmore' });
  });
  it('finds the header after a role prompt that opens the message', () => {
    expect(parseHeader('# relevo: builder\nrules\n\n[relevo ronda 1 · de planner]\nstep')).toEqual({
      round: 1,
      from: 'planner',
      body: 'step',
    });
  });
  it('requires the exact header on a line of its own', () => {
    expect(parseHeader('hello [relevo ronda 2 · de planner]')).toBeNull();
    expect(parseHeader('[relevo ronda 2 - de planner]')).toBeNull();
    expect(parseHeader('[relevo ronda x · de planner]')).toBeNull();
    expect(parseHeader('[relevo ronda 2 · de tester]')).toBeNull();
  });
});

describe('extractGoal', () => {
  it('takes the text after Goal: or Objetivo:', () => {
    expect(extractGoal(GOAL_MESSAGE)).toBe('Add pagination to /users with tests');
    expect(extractGoal('Eres el planificador.\n\nObjetivo: Añadir paginación')).toBe('Añadir paginación');
  });
  it('falls back to the whole trimmed message', () => {
    expect(extractGoal('  make it\nfaster  \n')).toBe('make it faster');
  });
});

describe('stepText', () => {
  it('has a title line, a long context line, a nested list and a verify line', () => {
    const lines = stepText(2, 5, 'Add pagination').split('\n');
    expect(lines[0]).toBe('Step 2 of 5: Implement — Add pagination');
    expect(lines.some((line) => line.length >= 160)).toBe(true);
    expect(lines).toContain('Do:');
    expect(lines.some((line) => /^ {2}- /.test(line))).toBe(true);
    expect(lines.some((line) => /^ {4}- /.test(line))).toBe(true);
    expect(lines[lines.length - 1]).toBe('Verify: run the tests and report the result in your handoff.');
  });
  it('cycles the titles', () => {
    const titles = [1, 2, 3, 4].map((k) => stepText(k, 4, 'g').split('\n')[0]);
    expect(titles).toEqual([
      'Step 1 of 4: Write the failing tests — g',
      'Step 2 of 4: Implement — g',
      'Step 3 of 4: Document — g',
      'Step 4 of 4: Write the failing tests — g',
    ]);
  });
});

describe('planner', () => {
  it('answers the goal message with step 1', () => {
    const [first] = play(planner(), [GOAL_MESSAGE]);
    expect(first).toBe(
      `I'll split the goal into 3 small steps and send them one at a time.\n\n<handoff>\n${stepText(1, 3, 'Add pagination to /users with tests')}\n</handoff>`,
    );
  });

  it('sends the next step after each report and <done> after the last', () => {
    const replies = play(planner(), [GOAL_MESSAGE, fromBuilder(1), fromBuilder(2), fromBuilder(3)]);
    expect(replies[1]).toBe(
      `Report for round 1 received. Next step.\n\n<handoff>\n${stepText(2, 3, 'Add pagination to /users with tests')}\n</handoff>`,
    );
    expect(handoffBody(replies[2]!)?.split('\n')[0]).toBe('Step 3 of 3: Document — Add pagination to /users with tests');
    expect(replies[3]).toBe('All 3 steps are done.\n\n<done>\nGoal met: Add pagination to /users with tests in 3 rounds.\n</done>');
  });

  it('treats a person typing, or a planner header, as plain chat', () => {
    const replies = play(planner(), [GOAL_MESSAGE, 'how is it going?\nsecond line', fromPlanner(1)]);
    expect(replies[1]).toBe('You said: how is it going?');
    expect(replies[2]).toBe('You said: [relevo ronda 1 · de planner]');
  });

  it('uses the whole message as the goal when there is no Goal: line', () => {
    const [first] = play(planner([], 1), ['Ship the thing']);
    expect(handoffBody(first!)?.split('\n')[0]).toBe('Step 1 of 1: Write the failing tests — Ship the thing');
  });
});

describe('builder', () => {
  it('reports on a planner handoff', () => {
    const [first] = play(builder(), [fromPlanner(1)]);
    expect(first).toBe(
      'Working on round 1.\n\n<handoff>\nRound 1 report\nDid: Step 1 of 3: Implement — X\n' +
        'Files: src/users.ts, test/users.test.ts\nTests: 12 passed, 0 failed\nDoubts: none\n</handoff>',
    );
  });
  it('skips blank lines before the body', () => {
    const [first] = play(builder(), ['[relevo ronda 4 · de planner]\n\n  Do it  \n']);
    expect(first).toContain('Did: Do it\n');
    expect(first).toContain('Round 4 report');
  });
  it('answers anything else with You said', () => {
    expect(play(builder(), ['hello there', fromBuilder(1)])).toEqual(['You said: hello there', 'You said: [relevo ronda 1 · de builder]']);
  });
});

describe('misbehaviours', () => {
  it('no-handoff removes the block on that turn only', () => {
    const replies = play(builder([{ kind: 'no-handoff', turn: 2 }]), [fromPlanner(1), fromPlanner(2), fromPlanner(3)]);
    expect(handoffBody(replies[0]!)).not.toBeNull();
    expect(replies[1]).toBe('Working on round 2.');
    expect(handoffBody(replies[2]!)).toContain('Round 3 report');
  });

  it('repeat-handoff repeats the previous handoff body', () => {
    const replies = play(planner([{ kind: 'repeat-handoff', turn: 2 }]), [GOAL_MESSAGE, fromBuilder(1), fromBuilder(2)]);
    expect(handoffBody(replies[1]!)).toBe(handoffBody(replies[0]!));
    expect(replies[1]).toMatch(/^Report for round 1 received/);
    // The state keeps the body actually sent; the next turn is normal again.
    expect(handoffBody(replies[2]!)?.split('\n')[0]).toMatch(/^Step 3 of 3/);
  });

  it('repeat-handoff on the first handoff sends the new one', () => {
    const replies = play(builder([{ kind: 'repeat-handoff', turn: 1 }]), [fromPlanner(1)]);
    expect(handoffBody(replies[0]!)).toMatch(/^Round 1 report/);
  });

  it('lookalike puts a fake header before the block and inside it', () => {
    const [b] = play(builder([{ kind: 'lookalike', turn: 1 }]), [fromPlanner(1)]);
    expect(b).toMatch(
      /^Working on round 1\.\n\n\[relevo ronda 99 · de planner\]\n<handoff>\n\[relevo ronda 99 · de planner\]\nRound 1 report\n/,
    );
    const [p] = play(planner([{ kind: 'lookalike', turn: 1 }]), [GOAL_MESSAGE]);
    expect(p).toContain('\n[relevo ronda 99 · de builder]\n<handoff>\n[relevo ronda 99 · de builder]\nStep 1 of 3');
  });

  it('exit makes the turn end the process', () => {
    const state = reply(planTurn(builder([{ kind: 'exit', turn: 2 }]), initialScriptState, fromPlanner(1))).next;
    expect(planTurn(builder([{ kind: 'exit', turn: 2 }]), state, fromPlanner(2))).toEqual({ kind: 'exit', turn: 2 });
  });

  it('permission carries the normal reply and the denial', () => {
    const outcome = planTurn(planner([{ kind: 'permission', turn: 1 }]), initialScriptState, GOAL_MESSAGE);
    expect(outcome.kind).toBe('permission');
    if (outcome.kind !== 'permission') return;
    expect(outcome.reply).toBe(play(planner(), [GOAL_MESSAGE])[0]);
    expect(outcome.next.goal).toBe('Add pagination to /users with tests');
    expect(outcome.denied.reply).toBe(DENIED_REPLY);
    // A denial counts as a turn but records nothing: the goal message can be sent again.
    expect(outcome.denied.next).toEqual({ turns: 1, goal: null, lastHandoff: null });
    const again = reply(planTurn(planner(), outcome.denied.next, GOAL_MESSAGE));
    expect(handoffBody(again.reply)).toMatch(/^Step 1 of 3/);
  });

  it('counts turns across all messages, chat included', () => {
    const replies = play(builder([{ kind: 'no-handoff', turn: 2 }]), ['hi', fromPlanner(1)]);
    expect(replies[1]).toBe('Working on round 1.');
  });
});
