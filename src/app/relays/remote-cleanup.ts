/**
 * A host relay's end: merged back (fetched, rebased in a temporary local worktree) or its host
 * worktree removed. Files on the host go only through `git worktree remove`, never a recursive delete.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { branchSlug } from '../../protocol/index.js';
import { stateDirPath } from '../store/state-dir.js';
import { commitOf, git, gitOrFail, lines, RelayError } from './git.js';
import { fetchFromHost, hostFor, hostRun, type SshSettings, trackingRef } from './remote.js';
import type { Relay } from './worktrees.js';

const listed = (what: string, items: readonly string[]) => `${what}: ${items.join(', ')}`;

/**
 * The relay branch's commits the base has neither as such nor as a rebased copy (same patch): a host
 * relay's branch stays as the host has it after a merge, so its commits reach the base rebased.
 */
export async function hostUnmerged(relay: Relay): Promise<string[]> {
  const range = `${relay.baseRef}...${relay.branch}`;
  const args = ['log', '--format=%h %s', '--cherry-pick', '--right-only', '--no-merges', range];
  return lines(await gitOrFail(relay.root, args, `comparing ${relay.branch}`));
}

/**
 * Fetches the host relay's branch, then the commit to put on the base: its tip when the base is an
 * ancestor, else the branch rebased onto the base in a temporary worktree under the state dir's `tmp/`.
 * The relay branch itself, here and on the host, stays where the host has it (the agents may work on).
 */
export async function rebasedFromHost(relay: Relay, ssh: SshSettings): Promise<string> {
  const { root, branch, baseRef } = relay;
  const { head } = await fetchFromHost(relay, ssh);
  if ((await git(root, ['merge-base', '--is-ancestor', baseRef, head])).ok) return head;
  const tmp = join(ssh.stateDir ?? stateDirPath('.relevo', root), 'tmp');
  mkdirSync(tmp, { recursive: true });
  const path = join(tmp, `merge-${branchSlug(branch)}-${randomBytes(4).toString('hex')}`);
  await gitOrFail(root, ['worktree', 'add', '--quiet', '--detach', path, head], `checking out ${branch} to rebase it`);
  try {
    const rebased = await git(path, ['rebase', '--quiet', baseRef]);
    if (!rebased.ok) {
      await git(path, ['rebase', '--abort']);
      throw new RelayError(`refusing to merge ${branch}: rebasing it onto ${baseRef} conflicts (rebase aborted, nothing changed)`);
    }
    return (await commitOf(path, 'HEAD'))!;
  } finally {
    await git(root, ['worktree', 'remove', '--force', path]);
    await git(root, ['worktree', 'prune']);
  }
}

export type HostRemoved = { worktreeRemoved: boolean; branchDeleted: boolean; unmerged: string[] };

/**
 * Removes a host relay's worktree on the host when it holds no uncommitted or untracked file, no
 * commit the relay's branch lacks, and the branch (fetched first) has nothing the base lacks; else
 * refuses and lists them. With `force` the worktree goes anyway and an unmerged branch stays.
 * The branch, here and on the host, is deleted only when merged.
 */
export async function removeHostRelay(relay: Relay, options: { force?: boolean } & SshSettings): Promise<HostRemoved> {
  const { root, branch, baseRef } = relay;
  const place = relay.host!;
  const host = hostFor(root, place.destination, options);
  const on = `on ${place.destination}`;
  try {
    await fetchFromHost(relay, options);
  } catch (error) {
    if (!options.force) throw error;
  }
  const unmerged = await hostUnmerged(relay);
  const registered = lines(await hostRun(host, ['git', '-C', place.repo, 'worktree', 'list', '--porcelain'], 'listing worktrees')).includes(
    `worktree ${place.path}`,
  );
  let dirt: string[] = [];
  let unfetched: string[] = [];
  if (registered) {
    dirt = lines(await hostRun(host, ['git', '-C', place.path, 'status', '--porcelain', '--untracked-files=all'], `reading ${place.path}`));
    // Commits of the host worktree's HEAD that its branch (all fetched) lacks: a detached HEAD or another branch.
    const log = ['git', '-C', place.path, 'log', '--format=%h %s', 'HEAD', '--not', `refs/heads/${branch}`];
    unfetched = lines(await hostRun(host, log, `reading ${place.path}`));
  }
  const uncommitted = dirt.filter((l) => !l.startsWith('??')).map((l) => l.slice(3));
  const untracked = dirt.filter((l) => l.startsWith('??')).map((l) => l.slice(3));
  if (!options.force) {
    const why = [
      unmerged.length > 0 ? listed(`commits not in ${baseRef}`, unmerged) : '',
      uncommitted.length > 0 ? listed(`uncommitted ${on}`, uncommitted) : '',
      untracked.length > 0 ? listed(`untracked ${on}`, untracked) : '',
      unfetched.length > 0 ? listed(`commits ${on} not on ${branch}`, unfetched) : '',
    ].filter((w) => w !== '');
    if (why.length > 0) throw new RelayError(`refusing to remove ${branch} (--force keeps the branch): ${why.join('; ')}`);
  }
  if (registered) {
    const remove = ['git', '-C', place.repo, 'worktree', 'remove', ...(options.force ? ['--force'] : []), place.path];
    await hostRun(host, remove, `removing the worktree of ${branch}`);
  }
  await hostRun(host, ['git', '-C', place.repo, 'worktree', 'prune'], 'pruning worktrees');
  let branchDeleted = false;
  const tip = await commitOf(root, `refs/heads/${branch}`);
  if (unmerged.length === 0 && unfetched.length === 0 && tip !== null) {
    // Each deleted only while still at the tip checked above; the host's, only while it is that commit too.
    branchDeleted = (await git(root, ['update-ref', '-d', `refs/heads/${branch}`, tip])).ok;
    if (branchDeleted) {
      await hostRun(host, ['git', '-C', place.repo, 'update-ref', '-d', `refs/heads/${branch}`, tip], `deleting ${branch}`).catch(
        () => undefined,
      );
      await git(root, ['update-ref', '-d', trackingRef(branch)]);
      await git(root, ['config', '--remove-section', `branch.${branch}`]);
    }
  }
  return { worktreeRemoved: registered, branchDeleted, unmerged };
}
