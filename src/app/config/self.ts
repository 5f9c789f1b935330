import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { quote } from 'shell-quote';

const real = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/**
 * How the person can run this relevo-tui again, for the commands relevo suggests (`… --resume ID`):
 * `relevo-tui` when that name on their PATH is this very install; `npx relevo-tui` when npm started
 * it (npx, or a script of the package: `npm run demo`); else `node` with the path of its bin (from
 * `cwd` when inside it). Read from the environment npm leaves, so a program npm started passes it on.
 */
export function selfCommand(env: NodeJS.ProcessEnv, script: string | undefined, cwd: string): string {
  const me = script === undefined ? null : real(script);
  if (me !== null) {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir !== '' && real(join(dir, 'relevo-tui')) === me) return 'relevo-tui';
    }
  }
  // npx, or a script of this package in its clone (`npm run demo`), where `npx relevo-tui` works too.
  if (env.npm_command === 'exec' || (env.npm_command === 'run-script' && env.npm_package_name === 'relevo-tui')) return 'npx relevo-tui';
  if (script === undefined) return 'relevo-tui';
  const rel = relative(cwd, script);
  const path = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : script;
  return quote(['node', path]);
}

let cached: string | null = null;

/** This process's `selfCommand`, worked out once. */
export function self(): string {
  cached ??= selfCommand(process.env, process.argv[1], process.cwd());
  return cached;
}

/** A command relevo suggests, with `args` (quoted for a shell) and `--state-dir` when it is not the default: `relevo-tui runs --state-dir 'my runs'`. */
export function selfIn(stateDir: string, ...args: string[]): string {
  return `${self()} ${quote(args)}${stateDir !== '.relevo' ? ` --state-dir ${quote([stateDir])}` : ''}`;
}

/** The command that goes on with run `id` (`relevo-tui --resume ID`, with `--state-dir` when it is not the default). */
export function resumeCommand(id: string, stateDir: string): string {
  return selfIn(stateDir, '--resume', id);
}
