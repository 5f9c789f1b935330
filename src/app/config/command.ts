import { parse } from 'shell-quote';
import which from 'which';
import { ConfigError } from '../faults/errors.js';

/**
 * Splits a command line such as `claude --model opus` into argv the way a shell would
 * (quotes and backslashes), without running a shell. Pipes, redirections, globs and
 * `$VAR` are refused: the command is executed directly, never through a shell.
 */
export function splitCommand(line: string, where: string): string[] {
  const argv: string[] = [];
  for (const token of parse(line, (name) => `$${name}`)) {
    if (typeof token !== 'string') {
      const what = 'op' in token ? `"${token.op}"` : 'comment' in token ? 'a comment' : 'a pattern';
      throw new ConfigError(where, `${what} is not supported: give a plain command with arguments (it runs without a shell)`);
    }
    if (token.startsWith('$')) throw new ConfigError(where, `"${token}": variables are not expanded (it runs without a shell)`);
    argv.push(token);
  }
  if (argv.length === 0) throw new ConfigError(where, 'empty command');
  return argv;
}

/**
 * Where `program` is on `path` (an executable file), or null: the one lookup a run, `doctor` and
 * agent detection share. An empty `path` finds nothing (`which` alone would search the process's PATH).
 */
export function findProgram(program: string, path: string): string | null {
  return path === '' ? null : which.sync(program, { nothrow: true, path });
}

/** argv with its program resolved on PATH; a clear error when it cannot be run. */
export function resolveProgram(argv: readonly string[], where: string, path = process.env.PATH ?? ''): string[] {
  const [program, ...rest] = argv;
  const found = program === undefined ? null : findProgram(program, path || (process.env.PATH ?? ''));
  if (found === null) throw new ConfigError(where, `command not found: ${program ?? ''}`);
  return [found, ...rest];
}
