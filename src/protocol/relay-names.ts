/** Names and places of a relay's branch and worktree: pure text, no file system. */

export const BRANCH_PREFIX = 'relevo/';
export const FALLBACK_SLUG = 'relay';
const MAX_WORDS = 5;
const MAX_SLUG = 40;

/** `relevo/<slug>` from a goal's first line: its lowercase ASCII words joined by `-`, a few of them, bounded. */
export function branchForGoal(goal: string): string {
  const first = goal.split('\n').find((l) => l.trim() !== '') ?? '';
  const words = first
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
    .slice(0, MAX_WORDS);
  let slug = '';
  for (const w of words) {
    const next = slug === '' ? w : `${slug}-${w}`;
    if (next.length > MAX_SLUG) {
      if (slug === '') slug = w.slice(0, MAX_SLUG);
      break;
    }
    slug = next;
  }
  return `${BRANCH_PREFIX}${slug.replace(/-+$/, '') || FALLBACK_SLUG}`;
}

/** `name` when free, else the first of `name-2`, `name-3`… that is not taken. */
export function freeName(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) {
    const candidate = `${name}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** A branch's name as one directory name: `relevo/` dropped, every other character outside `[a-z0-9._-]` a `-`. */
export function branchSlug(branch: string): string {
  const bare = branch.startsWith(BRANCH_PREFIX) ? branch.slice(BRANCH_PREFIX.length) : branch;
  const slug = bare
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return slug || FALLBACK_SLUG;
}

/** An absolute POSIX path without its trailing slashes (the root stays `/`). */
const trimmed = (path: string): string => path.replace(/\/+$/, '') || '/';

/**
 * Where a relay's worktree goes: `<worktreesDir>/<slug>` when set, else beside the repository,
 * `<parent of repo>/<repo-name>.relevo/<slug>`, so it is never inside the repository's own tree.
 */
export function worktreePath(repoRoot: string, branch: string, worktreesDir?: string): string {
  const slug = branchSlug(branch);
  if (worktreesDir !== undefined && worktreesDir !== '') return `${trimmed(worktreesDir)}/${slug}`.replace(/^\/\//, '/');
  const root = trimmed(repoRoot);
  const cut = root.lastIndexOf('/');
  const parent = cut <= 0 ? '' : root.slice(0, cut);
  const name = root.slice(cut + 1) || 'repo';
  return `${parent}/${name}.relevo/${slug}`;
}
