/**
 * Every help text the command prints, as a person reads it in an 80-column terminal: `--help`, `-h`,
 * and the help of each command `--help` lists (`COMMAND --help`, `COMMAND -h`).
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { relevo, tempDir } from '../helpers/cli.js';

/** A help as printed: exit 0, nothing on stderr, a usage first; and the lines wider than 80 columns (none, we hope). */
async function help(...args: string[]) {
  const r = await relevo(args, tempDir());
  const wide = r.stdout.split('\n').filter((line) => stringWidth(line) > 80);
  return { exit: r.exitCode, stderr: r.stderr, usage: r.stdout.split('\n')[0], wide, stdout: r.stdout };
}

const fine = (usage: RegExp) => ({ exit: 0, stderr: '', usage: expect.stringMatching(usage), wide: [] });

describe('help texts', () => {
  it('relevo-tui --help and -h: every line fits 80 columns', async () => {
    expect(await help('--help')).toMatchObject(fine(/^Usage: relevo-tui \[options\]$/));
    expect(await help('-h')).toMatchObject(fine(/^Usage: relevo-tui \[options\]$/));
  });

  it('each command --help lists has a help of its own (--help and -h), every line within 80 columns', async () => {
    const { stdout } = await help('--help');
    const section = stdout.slice(stdout.indexOf('\nCommands'), stdout.indexOf('\n\n', stdout.indexOf('\nCommands')));
    const commands = [...section.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]!);
    expect(commands).toEqual(['new', 'merge', 'rm', 'runs', 'show', 'doctor', 'explain', 'schema', 'completion', 'sim-agent']);
    for (const command of commands) {
      for (const flag of ['--help', '-h']) {
        expect({ command, flag, ...(await help(command, flag)) }).toMatchObject({
          command,
          flag,
          ...fine(new RegExp(`^Usage: relevo-tui ${command}\\b`)),
        });
      }
    }
  });
});

describe('a mistyped command', () => {
  it.each([
    [['run'], 'relevo-tui: usage: unknown command run — did you mean runs? (see --help)'],
    [['docter', '--demo'], 'relevo-tui: usage: unknown command docter — did you mean doctor? (see --help)'],
    [['shwo', '--json'], 'relevo-tui: usage: unknown command shwo — did you mean show? (see --help)'],
    [['completion', 'bsh'], 'relevo-tui: completion: unknown shell bsh — did you mean bash? (usage: relevo-tui completion bash|zsh|fish)'],
    // Nothing close: the word is refused as before.
    [['frobnicate'], 'relevo-tui: usage: unexpected argument frobnicate (see --help)'],
  ])('relevo-tui %j: one line with the command it is close to, exit 2', async (args, line) => {
    const r = await relevo(args, tempDir());
    expect([r.stderr, r.exitCode]).toEqual([line, 2]);
  });
});
