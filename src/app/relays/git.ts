/** Git for the relays' worktrees: argument arrays through execa (never a shell string), git's locks waited for. */
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';

/** A relay action refused or failed: one line for the person, never a stack trace. */
export class RelayError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RelayError';
  }

  override toString(): string {
    return this.message;
  }
}

export type GitResult = { ok: boolean; out: string; err: string };

/** git's own lock files held by another git (`index.lock`, a ref's or the config's lock). */
export const LOCKED = /index\.lock|could not lock|cannot lock ref|unable to create '[^']*\.lock'|\.lock': File exists/i;
const LOCK_TRIES = 40;

/** Runs git in `cwd` (with `env` added); while it fails on a lock another git holds, waits a little and runs it again (bounded). */
export async function git(cwd: string, args: readonly string[], env?: Readonly<Record<string, string>>): Promise<GitResult> {
  for (let attempt = 1; ; attempt++) {
    const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore', timeout: 60_000, ...(env ? { env } : {}) });
    const result = { ok: r.exitCode === 0, out: String(r.stdout ?? ''), err: String(r.stderr ?? '') };
    if (result.ok || !LOCKED.test(result.err) || attempt >= LOCK_TRIES) return result;
    await sleep(25 + Math.floor(Math.random() * 50 * Math.min(attempt, 8)));
  }
}

/** The first line git wrote on failure, without its `fatal: ` or `error: ` prefix. */
export const firstLine = (r: GitResult): string => {
  const all = [...lines(r.err), ...lines(r.out)];
  const said = all.find((l) => /^(fatal|error): /.test(l)) ?? all[0] ?? 'git failed';
  return said.replace(/^(fatal|error): /, '').trim();
};

/** git's output, or a RelayError naming what was done and git's first line. */
export async function gitOrFail(cwd: string, args: readonly string[], doing: string): Promise<string> {
  const r = await git(cwd, args);
  if (!r.ok) throw new RelayError(`${doing}: ${firstLine(r)}`);
  return r.out;
}

/** Non-empty lines of a command's output. */
export const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

/** The main repository's working tree, also when `cwd` is inside one of its linked worktrees. */
export async function mainRoot(cwd: string): Promise<string> {
  const common = await gitOrFail(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir'], 'not a git repository');
  const dir = common.trim();
  // The common directory is `<root>/.git` for a repository with a working tree.
  if (dir.endsWith('/.git')) return dir.slice(0, -'/.git'.length);
  throw new RelayError(`no main working tree for ${dir}`);
}

export type Worktree = { path: string; branch: string | null; head: string };

/** `git worktree list --porcelain`: every worktree with its checked-out branch (null when detached). */
export async function worktrees(root: string): Promise<Worktree[]> {
  const out = await gitOrFail(root, ['worktree', 'list', '--porcelain'], 'listing worktrees');
  return out
    .split('\n\n')
    .map((block) => {
      const field = (k: string) =>
        lines(block)
          .find((l) => l.startsWith(`${k} `))
          ?.slice(k.length + 1) ?? null;
      const ref = field('branch');
      return { path: field('worktree') ?? '', branch: ref?.replace(/^refs\/heads\//, '') ?? null, head: field('HEAD') ?? '' };
    })
    .filter((w) => w.path !== '');
}

/** Every local branch's name. */
export async function branches(root: string): Promise<string[]> {
  return lines(await gitOrFail(root, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], 'listing branches'));
}

/** The commit a revision names, or null. */
export async function commitOf(root: string, rev: string): Promise<string | null> {
  const r = await git(root, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  return r.ok ? r.out.trim() : null;
}

/** `git status --porcelain` of a worktree, split into changed tracked files and untracked ones. */
export async function dirt(path: string): Promise<{ uncommitted: string[]; untracked: string[] }> {
  const out = await gitOrFail(path, ['status', '--porcelain', '--untracked-files=all'], `reading ${path}`);
  const all = lines(out);
  return {
    uncommitted: all.filter((l) => !l.startsWith('??')).map((l) => l.slice(3)),
    untracked: all.filter((l) => l.startsWith('??')).map((l) => l.slice(3)),
  };
}
