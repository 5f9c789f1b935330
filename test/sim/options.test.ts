import { describe, expect, it } from 'vitest';
import { parseSimArgs } from '../../src/sim/options.js';

describe('parseSimArgs', () => {
  it('has defaults', () => {
    expect(parseSimArgs([])).toEqual({
      ok: true,
      options: { role: 'planner', steps: 3, thinkMs: 800, misbehave: [], appendSystemPrompt: undefined, name: 'sim', record: undefined },
    });
  });

  it('reads every flag', () => {
    const result = parseSimArgs([
      '--role',
      'builder',
      '--steps',
      '5',
      '--think-ms=0',
      '--name',
      'bob',
      '--misbehave',
      'exit:3',
      '--misbehave',
      'lookalike:1',
      '--append-system-prompt',
      '- be brief',
      '--record',
      'r.jsonl',
    ]);
    expect(result).toEqual({
      ok: true,
      options: {
        role: 'builder',
        steps: 5,
        thinkMs: 0,
        name: 'bob',
        misbehave: [
          { kind: 'exit', turn: 3 },
          { kind: 'lookalike', turn: 1 },
        ],
        appendSystemPrompt: '- be brief',
        record: 'r.jsonl',
      },
    });
  });

  it('takes the role from the appended system prompt when --role is absent', () => {
    const builder = parseSimArgs(['--append-system-prompt', 'Intro\n# relevo: builder\nMore']);
    expect(builder.ok && builder.options.role).toBe('builder');
    const explicit = parseSimArgs(['--role', 'planner', '--append-system-prompt', '# relevo: builder']);
    expect(explicit.ok && explicit.options.role).toBe('planner');
    const other = parseSimArgs(['--append-system-prompt', '# relevo: planner']);
    expect(other.ok && other.options.role).toBe('planner');
  });

  it.each([
    [['--think-ms', '-5'], 'sim-agent: --think-ms: expected a non-negative integer'],
    [['--think-ms', '1.5'], 'sim-agent: --think-ms: expected a non-negative integer'],
    [['--think-ms', 'soon'], 'sim-agent: --think-ms: expected a non-negative integer'],
    [['--steps', '0'], 'sim-agent: --steps: expected a positive integer'],
    [['--role', 'tester'], 'sim-agent: --role: expected planner or builder'],
    [['--misbehave', 'explode:1'], expect.stringMatching(/^sim-agent: --misbehave: expected KIND:TURN/)],
    [['--misbehave', 'exit:0'], expect.stringMatching(/^sim-agent: --misbehave: expected KIND:TURN/)],
    [['--misbehave', 'exit'], expect.stringMatching(/^sim-agent: --misbehave: expected KIND:TURN/)],
    [['--name', ''], expect.stringMatching(/^sim-agent: --name: /)],
    [['--record', ''], 'sim-agent: --record: expected a file path'],
    [['--bogus'], 'sim-agent: --bogus: unknown option'],
    [['--steps'], 'sim-agent: --steps: expected a value'],
    [['stray'], "sim-agent: unexpected argument 'stray'"],
  ])('rejects %j', (args, error) => {
    const result = parseSimArgs(args);
    expect(result).toEqual({ ok: false, error });
    if (!result.ok) expect(result.error).not.toContain('\n');
  });
});
