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
 * `cwd` when inside it).
 */
export function selfCommand(env: NodeJS.ProcessEnv, script: string | undefined, cwd: string): string {
  const me = script === undefined ? null : real(script);
  if (me !== null) {
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir !== '' && real(join(dir, 'relevo-tui')) === me) return 'relevo-tui';
    }
  }
  if (env.npm_command === 'exec' || env.npm_command === 'run-script' || env.npm_lifecycle_event !== undefined) return 'npx relevo-tui';
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
