import { describe, expect, it } from 'vitest';
import { parseFlags, unexpectedArgument } from '../../src/app/config/args.js';
import { ConfigError } from '../../src/app/faults/errors.js';

const FLAGS = { goal: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const HERE = { where: 'runs', hint: 'usage: relevo-tui runs [--json]' };

/** The one line the CLI prints for `args`, or `ok`. */
function line(args: string[]): string {
  try {
    parseFlags(args, FLAGS, HERE);
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).toString();
  }
}

describe('CLI argument errors', () => {
  it('name the flag and what is wrong with it, in one line', () => {
    expect(line(['--nope'])).toBe('runs: unknown option --nope (usage: relevo-tui runs [--json])');
    expect(line(['-x'])).toBe('runs: unknown option -x (usage: relevo-tui runs [--json])');
    expect(line(['--goal'])).toBe('--goal: needs a value');
    expect(line(['--goal', '--json'])).toBe('--goal: needs a value (for one starting with a dash, write --goal=VALUE)');
    expect(line(['--json=1'])).toBe('--json: takes no value');
    expect(line(['--help=1'])).toBe('-h: takes no value');
    // A mistyped flag gets the nearest one.
    expect(line(['--jsno'])).toBe('runs: unknown option --jsno — did you mean --json? (usage: relevo-tui runs [--json])');
    expect(line(['--goals', 'x'])).toBe('runs: unknown option --goals — did you mean --goal? (usage: relevo-tui runs [--json])');
    expect(line(['--colour'])).toBe('runs: unknown option --colour (usage: relevo-tui runs [--json])');
  });

  it('returns the typed values and leaves positionals to the command', () => {
    const { values, positionals } = parseFlags(['--goal=-x', 'run-1', '--json'], FLAGS, HERE);
    expect(values).toEqual({ goal: '-x', json: true });
    expect(positionals).toEqual(['run-1']);
    expect(unexpectedArgument('run-2', HERE).toString()).toBe('runs: unexpected argument run-2 (usage: relevo-tui runs [--json])');
  });
});
