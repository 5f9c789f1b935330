/** Where runs are journaled: a linked git worktree's runs go to its main repository's state directory. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * The main working tree of the git worktree holding `cwd`, when `cwd` is in a linked worktree (its
 * `.git` is a file naming `<main>/.git/worktrees/<name>`); else null. Read from files, no git started.
 */
export function mainTreeOf(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      try {
        if (statSync(dotGit).isDirectory()) return null;
        const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
        if (gitdir === undefined) return null;
        const own = resolve(dir, gitdir);
        const common = existsSync(join(own, 'commondir')) ? resolve(own, readFileSync(join(own, 'commondir'), 'utf8').trim()) : null;
        return common?.endsWith('/.git') ? dirname(common) : null;
      } catch {
        return null;
      }
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The state directory as a path: `given` (`--state-dir`, `.relevo` by default) from `cwd`, or from the
 * main repository when `cwd` is a linked worktree, so every relay of a repository is journaled in one place.
 */
export function stateDirPath(given: string, cwd: string): string {
  if (isAbsolute(given)) return given;
  return resolve(mainTreeOf(cwd) ?? cwd, given);
}
