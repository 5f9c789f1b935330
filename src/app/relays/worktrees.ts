/** A relay's worktree: made outside the repository on a new branch, and how far it has moved from its base. */
import { existsSync } from 'node:fs';
import { branchForGoal, freeName, worktreePath } from '../../protocol/index.js';
import { branches, commitOf, dirt, firstLine, git, gitOrFail, lines, mainRoot, RelayError, worktrees } from './git.js';

export type CreateOptions = {
  /** The relay's goal: its first line names the branch when none is given. */
  goal: string;
  /** A branch name of the person's own (`--branch`): used as given, never renamed. */
  branch?: string;
  /** What the branch starts from (`--base`): the main checkout's branch (or HEAD) when not given. */
  base?: string;
  /** The `worktrees_dir` setting: worktrees go in it instead of beside the repository. */
  worktreesDir?: string;
};

export type Created = { root: string; branch: string; path: string; base: string; baseRef: string };

export const BASE_KEY = (branch: string) => `branch.${branch}.relevoBase`;
/** A host relay's branch config: the ssh destination, its worktree's path and its bare repository's path there. */
export const HOST_KEYS = {
  destination: (branch: string) => `branch.${branch}.relevoHost`,
  path: (branch: string) => `branch.${branch}.relevoHostPath`,
  repo: (branch: string) => `branch.${branch}.relevoHostRepo`,
};
const MAX_PICKS = 50;

/** Makes the relay's branch and worktree; a name taken meanwhile by another relay starting at once is passed over. */
export async function createWorktree(cwd: string, options: CreateOptions): Promise<Created> {
  const root = await mainRoot(cwd);
  if (options.branch !== undefined) {
    const check = await git(root, ['check-ref-format', '--branch', options.branch]);
    if (!check.ok) throw new RelayError(`not a valid branch name: ${options.branch}`);
  }
  const baseRef = options.base ?? (await currentBranch(root)) ?? 'HEAD';
  const base = await commitOf(root, baseRef);
  if (base === null) throw new RelayError(`no such base: ${baseRef}`);

  const passed = new Set<string>();
  for (let pick = 0; pick < MAX_PICKS; pick++) {
    const branch = options.branch ?? (await pickBranch(root, options, passed));
    const path = worktreePath(root, branch, options.worktreesDir);
    if (existsSync(path)) {
      if (options.branch !== undefined) throw new RelayError(`worktree path already exists: ${path}`);
      passed.add(branch);
      continue;
    }
    const added = await git(root, ['worktree', 'add', '-b', branch, path, base]);
    if (added.ok) {
      await gitOrFail(root, ['config', BASE_KEY(branch), baseRef], `recording the base of ${branch}`);
      return { root, branch, path, base, baseRef };
    }
    const taken = /already exists|already registered/i.test(added.err);
    if (!taken || options.branch !== undefined) throw new RelayError(`cannot create the worktree for ${branch}: ${firstLine(added)}`);
    passed.add(branch);
  }
  throw new RelayError('cannot create the worktree: no free branch name found');
}

/** A free branch name for the goal: neither a branch already, nor one whose worktree path is taken. */
async function pickBranch(root: string, options: CreateOptions, passed: ReadonlySet<string>): Promise<string> {
  const taken = new Set([...(await branches(root)), ...passed]);
  const wanted = branchForGoal(options.goal);
  for (;;) {
    const name = freeName(wanted, taken);
    if (!existsSync(worktreePath(root, name, options.worktreesDir))) return name;
    taken.add(name);
  }
}

/** The branch checked out in the main working tree, or null when it is detached. */
export async function currentBranch(root: string): Promise<string | null> {
  const r = await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  return r.ok ? r.out.trim() : null;
}

/** Where a host relay's worktree lives: the ssh destination, and the paths as the host sees them. */
export type HostPlace = { destination: string; path: string; repo: string };

/** A relay; `host` set for one whose worktree is on a host reached by ssh (then `path`, a local worktree, is null). */
export type Relay = { root: string; branch: string; path: string | null; baseRef: string; host: HostPlace | null };

/** The relay on `branch`: its worktree (null when none holds it), the base it was made from, and its host if any. */
export async function findRelay(cwd: string, branch: string): Promise<Relay> {
  const root = await mainRoot(cwd);
  if ((await commitOf(root, `refs/heads/${branch}`)) === null) throw new RelayError(`no relay branch ${branch}`);
  const recorded = await git(root, ['config', '--get', BASE_KEY(branch)]);
  if (!recorded.ok) throw new RelayError(`${branch} has no recorded base (not made by relevo)`);
  const path = (await worktrees(root)).find((w) => w.branch === branch)?.path ?? null;
  return { root, branch, path, baseRef: recorded.out.trim(), host: await hostPlace(root, branch) };
}

/** The host a relay's worktree is on, from its branch's config; null for a local relay. */
async function hostPlace(root: string, branch: string): Promise<HostPlace | null> {
  const read = async (key: string) => {
    const r = await git(root, ['config', '--get', key]);
    return r.ok ? r.out.trim() : null;
  };
  const destination = await read(HOST_KEYS.destination(branch));
  if (destination === null) return null;
  const path = await read(HOST_KEYS.path(branch));
  const repo = await read(HOST_KEYS.repo(branch));
  if (path === null || repo === null) throw new RelayError(`${branch} names host ${destination} but not where its worktree is there`);
  return { destination, path, repo };
}

export type RelayStatus = {
  ahead: number;
  behind: number;
  added: number;
  removed: number;
  uncommitted: string[];
  untracked: string[];
};

/** Commits ahead of and behind the base, lines added and removed since they parted, and the worktree's changes. */
export async function relayStatus(relay: Omit<Relay, 'host'>): Promise<RelayStatus> {
  const { root, branch, baseRef } = relay;
  const counts = await gitOrFail(root, ['rev-list', '--left-right', '--count', `${baseRef}...${branch}`], `comparing ${branch}`);
  const [behind = 0, ahead = 0] = counts.trim().split(/\s+/).map(Number);
  const numstat = await gitOrFail(root, ['diff', '--numstat', `${baseRef}...${branch}`, '--'], `diffing ${branch}`);
  let added = 0;
  let removed = 0;
  for (const l of lines(numstat)) {
    const [a, r] = l.split('\t');
    added += Number(a) || 0; // a binary file counts `-`
    removed += Number(r) || 0;
  }
  const changes = relay.path !== null && existsSync(relay.path) ? await dirt(relay.path) : { uncommitted: [], untracked: [] };
  return { ahead, behind, added, removed, ...changes };
}

/** The relay branch's commits the base does not have, one `<short sha> <subject>` each. */
export async function unmergedCommits(relay: Relay): Promise<string[]> {
  return lines(await gitOrFail(relay.root, ['log', '--format=%h %s', `${relay.baseRef}..${relay.branch}`], `comparing ${relay.branch}`));
}
