import { createHash } from 'node:crypto';
import { execa } from 'execa';
import type { GitAnchor } from '../../protocol/index.js';

const git = (cwd: string, args: string[]) =>
  execa('git', args, { cwd, reject: false, stdin: 'ignore', timeout: 15_000, stripFinalNewline: false, env: { GIT_OPTIONAL_LOCKS: '0' } });

/** HEAD and a sha256 of `git status --porcelain` in `cwd`; null outside a repository (or before its first commit). */
export async function gitAnchor(cwd: string): Promise<GitAnchor | null> {
  const [head, status] = await Promise.all([git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD']), git(cwd, ['status', '--porcelain'])]);
  if (head.exitCode !== 0 || status.exitCode !== 0) return null;
  const id = String(head.stdout).trim();
  if (!/^[0-9a-f]{40,64}$/.test(id)) return null;
  return { head: id, status_sha256: createHash('sha256').update(String(status.stdout)).digest('hex') };
}

/**
 * `git diff --stat <head>`: what moved in the working tree since the anchor, cut to `max` lines
 * (the summary line kept last). Untracked files are not in a diff: they are counted on a line of their own.
 */
export async function diffStat(cwd: string, head: string, max = 8): Promise<string[]> {
  const [diff, untracked] = await Promise.all([
    git(cwd, ['diff', '--stat=100', head, '--']),
    git(cwd, ['ls-files', '--others', '--exclude-standard']),
  ]);
  const lines =
    diff.exitCode === 0
      ? String(diff.stdout)
          .split('\n')
          .map((l) => l.trimEnd())
          .filter((l) => l.trim() !== '')
      : [];
  const extra = String(untracked.stdout)
    .split('\n')
    .filter((l) => l.trim() !== '').length;
  if (extra > 0) lines.push(` ${extra} untracked file${extra === 1 ? '' : 's'}`);
  const cut = lines.length <= max ? lines : [...lines.slice(0, max - 2), ` … ${lines.length - max + 1} more`, lines.at(-1)!];
  return cut.map((l) => l.slice(0, 240));
}
