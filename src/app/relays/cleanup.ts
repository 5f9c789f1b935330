/**
 * A relay's end: merged back into its base, or its worktree removed. Neither loses work: a branch
 * with commits the base lacks is never deleted, and files are removed only by `git worktree remove`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitOf, dirt, firstLine, git, gitOrFail, RelayError, worktrees } from './git.js';
import type { SshSettings } from './remote.js';
import { rebasedFromHost, removeHostRelay } from './remote-cleanup.js';
import { findRelay, type Relay, unmergedCommits } from './worktrees.js';

const listed = (what: string, items: readonly string[]) => `${what}: ${items.join(', ')}`;

/** Both files exist and hold the same bytes. */
function sameFile(a: string, b: string): boolean {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false;
  }
}

export type Removed = { worktreeRemoved: boolean; branchDeleted: boolean; unmerged: string[] };

/**
 * Removes the relay's worktree when its branch has nothing the base lacks and the worktree holds
 * no uncommitted or untracked file; else refuses and lists them. With `force` the worktree goes
 * anyway, and a branch with unmerged commits stays. The branch is deleted only when merged (`-d`).
 */
export async function removeRelay(
  cwd: string,
  branch: string,
  options: { force?: boolean; copies?: readonly string[] } & SshSettings = {},
): Promise<Removed> {
  const relay = await findRelay(cwd, branch);
  if (relay.host !== null) return removeHostRelay(relay, options);
  const unmerged = await unmergedCommits(relay);
  const present = relay.path !== null && existsSync(relay.path);
  const all = present ? await dirt(relay.path!) : { uncommitted: [], untracked: [] };
  // A file relevo copied in (`[worktree] copy`) that still equals the repository's is no work of the relay's.
  const copies = new Set(options.copies ?? []);
  const copied = (f: string) => copies.has(f) && sameFile(join(relay.root, f), join(relay.path!, f));
  const changes = { uncommitted: all.uncommitted, untracked: all.untracked.filter((f) => !copied(f)) };
  const onlyCopies = changes.untracked.length < all.untracked.length;
  if (!options.force) {
    const why = [
      unmerged.length > 0 ? listed(`commits not in ${relay.baseRef}`, unmerged) : '',
      changes.uncommitted.length > 0 ? listed('uncommitted', changes.uncommitted) : '',
      changes.untracked.length > 0 ? listed('untracked', changes.untracked) : '',
    ].filter((w) => w !== '');
    if (why.length > 0) throw new RelayError(`refusing to remove ${branch} (--force keeps the branch): ${why.join('; ')}`);
  }
  if (relay.path !== null) {
    const args = ['worktree', 'remove', ...(options.force || onlyCopies ? ['--force'] : []), relay.path];
    await gitOrFail(relay.root, args, `removing the worktree of ${branch}`);
  }
  await gitOrFail(relay.root, ['worktree', 'prune'], 'pruning worktrees');
  let branchDeleted = false;
  if (unmerged.length === 0) {
    // `-d` checks again that nothing is lost; when git judges otherwise the branch simply stays.
    branchDeleted = (await git(relay.root, ['branch', '-d', branch])).ok;
    if (branchDeleted) await git(relay.root, ['config', '--remove-section', `branch.${branch}`]);
  }
  return { worktreeRemoved: relay.path !== null, branchDeleted, unmerged };
}

export type Merged = { baseRef: string; head: string; squashed: boolean };

/**
 * Rebases the relay branch onto its base in the relay's worktree, then fast-forwards the base to it
 * (or, with `squash`, puts its changes on the base as one commit naming the relay). Refuses in one
 * line, with nothing changed, when the base's checkout or the worktree has uncommitted changes or
 * the rebase conflicts (it is aborted).
 */
export async function mergeRelay(cwd: string, branch: string, options: { squash?: boolean } & SshSettings = {}): Promise<Merged> {
  const relay = await findRelay(cwd, branch);
  const { root, baseRef } = relay;
  if ((await commitOf(root, `refs/heads/${baseRef}`)) === null)
    throw new RelayError(`cannot merge ${branch}: its base ${baseRef} is not a branch`);
  const checkout = (await worktrees(root)).find((w) => w.branch === baseRef)?.path ?? null;
  if (checkout !== null) {
    const base = await dirt(checkout);
    if (base.uncommitted.length > 0)
      throw new RelayError(
        `refusing to merge ${branch}: ${baseRef} has uncommitted changes in ${checkout}: ${base.uncommitted.join(', ')}`,
      );
  }
  // A host relay: fetched, rebased in a temporary worktree; its branch (here and on the host) stays as the host has it.
  const head = relay.host !== null ? await rebasedFromHost(relay, options) : await rebaseOntoBase(relay);
  if (options.squash) await squashInto(relay, checkout, head);
  else if (checkout !== null) await gitOrFail(checkout, ['merge', '--ff-only', '--quiet', head], `fast-forwarding ${baseRef}`);
  else await advanceRef(relay, head);
  return { baseRef, head: (await commitOf(root, `refs/heads/${baseRef}`))!, squashed: options.squash === true };
}

/** `git rebase <base>` in the relay's worktree; on a conflict the rebase is aborted and the merge refused. */
async function rebaseOntoBase(relay: Relay): Promise<string> {
  const { branch, baseRef, path } = relay;
  if (path === null || !existsSync(path)) throw new RelayError(`cannot merge ${branch}: it has no worktree to rebase in`);
  // Untracked files stay in the worktree, untouched by the rebase (git refuses one it would overwrite: then it is aborted).
  const { uncommitted } = await dirt(path);
  if (uncommitted.length > 0)
    throw new RelayError(`refusing to merge ${branch}: its worktree has uncommitted changes: ${uncommitted.join(', ')}`);
  const rebased = await git(path, ['rebase', '--quiet', baseRef]);
  if (rebased.ok) return (await commitOf(relay.root, `refs/heads/${branch}`))!;
  await git(path, ['rebase', '--abort']);
  throw new RelayError(`refusing to merge ${branch}: rebasing it onto ${baseRef} conflicts (rebase aborted, nothing changed)`);
}

/** One commit on the base with the relay's changes: `git merge --squash` in its checkout, else a commit made from the tree. */
async function squashInto(relay: Relay, checkout: string | null, head: string): Promise<void> {
  const { root, branch, baseRef } = relay;
  const message = `relevo: squash relay ${branch}`;
  if ((await commitOf(root, `${baseRef}`)) === head) return;
  if (checkout !== null) {
    await gitOrFail(checkout, ['merge', '--squash', '--quiet', head], `squashing ${branch} into ${baseRef}`);
    const committed = await git(checkout, ['commit', '--quiet', '-m', message]);
    if (!committed.ok) {
      await git(checkout, ['reset', '--merge']);
      throw new RelayError(`cannot commit the squash of ${branch} on ${baseRef}: ${firstLine(committed)}`);
    }
    return;
  }
  const made = await gitOrFail(root, ['commit-tree', `${head}^{tree}`, '-p', baseRef, '-m', message], `squashing ${branch}`);
  await advanceRef(relay, made.trim());
}

/** Moves the base branch (checked out nowhere) to `to`, only if it still is where it was. */
async function advanceRef(relay: Relay, to: string): Promise<void> {
  const from = (await commitOf(relay.root, `refs/heads/${relay.baseRef}`))!;
  await gitOrFail(relay.root, ['update-ref', `refs/heads/${relay.baseRef}`, to, from], `moving ${relay.baseRef}`);
}
