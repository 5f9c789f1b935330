/**
 * A relay whose worktree is on a host reached by ssh: the base commit pushed to a bare repository
 * there and a worktree added on the relay's branch; its commits fetched back, never forced.
 */
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { branchForGoal, branchSlug, freeName } from '../../protocol/index.js';
import { gitSshCommand, onHost, SshError, type SshHost } from '../../pty/backends/ssh.js';
import { hostFor, type SshSettings } from '../run/host-backend.js';

export { hostFor, type SshSettings };

import { branches, commitOf, firstLine, git, gitOrFail, LOCKED, lines, mainRoot, RelayError, worktrees } from './git.js';
import { BASE_KEY, currentBranch, HOST_KEYS, type Relay } from './worktrees.js';

/** How relevo reaches a host: the ssh program (else RELEVO_SSH_COMMAND, else `ssh`) and the state dir holding the master's socket. */

/** The bare repositories' and the worktrees' directories on the host, from the host user's home. */
export const DEFAULT_REPOS_DIR = '.relevo/repos';
export const DEFAULT_WORKTREES_DIR = '.relevo/worktrees';
const MAX_PICKS = 50;
const INIT_TRIES = 20;

/** Runs `remote` on the host; any failure is a one-line RelayError saying what was being done. */
export async function hostRun(host: SshHost, remote: readonly string[], doing: string): Promise<string> {
  try {
    return await onHost(host, remote);
  } catch (error) {
    throw new RelayError(`${doing} on ${host.destination}: ${oneLine(error)}`);
  }
}

const oneLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n').find((l) => l.trim() !== '') ?? 'failed';

/** The `<destination>:<path>` (scp form) git reaches the host's bare repository by, and the env that routes it through relevo's ssh. */
export const hostRemote = (host: SshHost, repo: string) => ({
  url: `${host.destination}:${repo}`,
  env: { GIT_SSH_COMMAND: gitSshCommand(host) },
});

// A constant script (its only input is the host's environment): says whether git is on the host's PATH, and $HOME.
const PROBE = 'if command -v git >/dev/null 2>&1; then printf "%s\\n" "$HOME"; else echo "not on PATH: $PATH" >&2; exit 127; fi';

/** The host user's home as the host sees it; a host without git is one line saying so. */
export async function hostHome(host: SshHost): Promise<string> {
  let out: string;
  try {
    out = await onHost(host, ['/bin/sh', '-c', PROBE]);
  } catch (error) {
    if (error instanceof SshError) throw new RelayError(`cannot reach host ${host.destination}: ${oneLine(error)}`);
    throw new RelayError(`host ${host.destination} has no git (${oneLine(error)})`);
  }
  const home = lines(out).at(-1)?.trim() ?? '';
  if (!home.startsWith('/')) throw new RelayError(`host ${host.destination} has no home directory (HOME=${home})`);
  return home;
}

/** A directory setting as the host sees it: `~/x` and a relative `x` are in the host user's home. */
export function onHostPath(home: string, setting: string): string {
  const path =
    setting === '~'
      ? home
      : setting.startsWith('~/')
        ? `${home}/${setting.slice(2)}`
        : setting.startsWith('/')
          ? setting
          : `${home}/${setting}`;
  return path.replace(/\/+$/, '') || '/';
}

export type HostCreateOptions = {
  /** The relay's goal: its first line names the branch when none is given. */
  goal?: string;
  /** A branch name of the person's own: used as given, never renamed. */
  branch?: string;
  /** What the branch starts from: the main checkout's branch (or HEAD) when not given. */
  base?: string;
  /** Where the bare repositories are on the host (default `.relevo/repos`, from the host user's home). */
  reposDir?: string;
  /** Where the worktrees are on the host, one directory per repository (default `.relevo/worktrees`). */
  worktreesDir?: string;
};

export type HostCreated = { root: string; branch: string; base: string; baseRef: string; host: string; path: string };

/**
 * Makes a relay's branch here and on the host (at the base, pushed over ssh to `<reposDir>/<repo>.git`)
 * and its worktree on the host at `<worktreesDir>/<repo>/<slug>`. A name taken here or there is passed over.
 */
export async function createHostWorktree(cwd: string, host: SshHost, options: HostCreateOptions): Promise<HostCreated> {
  const root = await mainRoot(cwd);
  const given = options.branch;
  if (given !== undefined && !(await git(root, ['check-ref-format', '--branch', given])).ok)
    throw new RelayError(`not a valid branch name: ${given}`);
  const baseRef = options.base ?? (await currentBranch(root)) ?? 'HEAD';
  const base = await commitOf(root, baseRef);
  if (base === null) throw new RelayError(`no such base: ${baseRef}`);

  const home = await hostHome(host);
  const name = basename(root);
  const repo = `${onHostPath(home, options.reposDir ?? DEFAULT_REPOS_DIR)}/${name}.git`;
  const trees = `${onHostPath(home, options.worktreesDir ?? DEFAULT_WORKTREES_DIR)}/${name}`;
  await ensureBare(host, repo);
  const { url, env } = hostRemote(host, repo);

  const passed = new Set<string>();
  for (let pick = 0; pick < MAX_PICKS; pick++) {
    const branch = given ?? (await pickBranch(root, host, repo, trees, branchForGoal(options.goal ?? ''), passed));
    const path = `${trees}/${branchSlug(branch)}`;
    const pass = (why: string) => {
      if (given !== undefined) throw new RelayError(why);
      passed.add(branch);
    };
    const local = await git(root, ['branch', '--no-track', branch, base]);
    if (!local.ok) {
      if (!/already exists/i.test(local.err)) throw new RelayError(`cannot create the branch ${branch}: ${firstLine(local)}`);
      pass(`cannot create the branch ${branch}: ${firstLine(local)}`);
      continue;
    }
    // An empty lease: the host's branch is created, never moved when another relay made it meanwhile.
    const lease = `--force-with-lease=refs/heads/${branch}:`;
    const pushed = await git(root, ['push', '--quiet', '--no-verify', lease, url, `${base}:refs/heads/${branch}`], env);
    if (!pushed.ok) {
      await dropLocal(root, branch, base);
      const why = `cannot push ${branch} to ${host.destination}: ${firstLine(pushed)}`;
      if (!/stale info|already exists|fetch first/i.test(pushed.err)) throw new RelayError(why);
      pass(why);
      continue;
    }
    try {
      await onHost(host, ['git', '-C', repo, 'worktree', 'add', '--quiet', path, branch]);
    } catch (error) {
      await dropHost(host, repo, branch, base);
      await dropLocal(root, branch, base);
      const why = `cannot add the worktree for ${branch} on ${host.destination}: ${oneLine(error)}`;
      if (error instanceof SshError || !/already exists|already registered/i.test(oneLine(error))) throw new RelayError(why);
      pass(why);
      continue;
    }
    const record = [
      [BASE_KEY(branch), baseRef],
      [HOST_KEYS.destination(branch), host.destination],
      [HOST_KEYS.path(branch), path],
      [HOST_KEYS.repo(branch), repo],
    ] as const;
    for (const [key, value] of record) await gitOrFail(root, ['config', key, value], `recording ${key}`);
    return { root, branch, base, baseRef, host: host.destination, path };
  }
  throw new RelayError(`cannot create the worktree on ${host.destination}: no free branch name found`);
}

/** `git init --bare` on the host, again while another relevo making the same repository holds its locks. */
async function ensureBare(host: SshHost, repo: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await onHost(host, ['git', 'init', '--bare', '--quiet', repo]);
      return;
    } catch (error) {
      const busy = !(error instanceof SshError) && (LOCKED.test(oneLine(error)) || /exists/i.test(oneLine(error)));
      if (!busy || attempt >= INIT_TRIES)
        throw new RelayError(`cannot make the repository ${repo} on ${host.destination}: ${oneLine(error)}`);
      await sleep(25 + Math.floor(Math.random() * 100));
    }
  }
}

/** A name for the goal free here and on the host: no branch there, no worktree at its path there. */
async function pickBranch(root: string, host: SshHost, repo: string, trees: string, wanted: string, passed: ReadonlySet<string>) {
  const theirs = lines(
    await hostRun(host, ['git', '-C', repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/'], 'listing branches'),
  );
  const paths = new Set(
    lines(await hostRun(host, ['git', '-C', repo, 'worktree', 'list', '--porcelain'], 'listing worktrees'))
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice('worktree '.length)),
  );
  const taken = new Set([...(await branches(root)), ...theirs, ...passed]);
  for (;;) {
    const name = freeName(wanted, taken);
    if (!paths.has(`${trees}/${branchSlug(name)}`)) return name;
    taken.add(name);
  }
}

/** Deletes a branch this call made here, only while it is still at the base. */
async function dropLocal(root: string, branch: string, base: string): Promise<void> {
  await git(root, ['update-ref', '-d', `refs/heads/${branch}`, base]);
}

/** Deletes a branch this call pushed to the host, only while it is still at the base. */
async function dropHost(host: SshHost, repo: string, branch: string, base: string): Promise<void> {
  await onHost(host, ['git', '-C', repo, 'update-ref', '-d', `refs/heads/${branch}`, base]).catch(() => undefined);
}

/** Where the host's branch is kept locally (a private ref, moved freely; the relay's own branch never is). */
export const trackingRef = (branch: string) => `refs/relevo/hosts/${branch}`;

export type Fetched = { head: string; fetched: string[] };

/**
 * Fetches the relay's branch from its host and fast-forwards the local branch to it. Never forced:
 * when the local branch has commits the host's lacks, refuses in one line listing them.
 */
export async function fetchFromHost(relay: Relay, ssh: SshSettings = {}): Promise<Fetched> {
  const { root, branch, host: place } = relay;
  if (place === null) throw new RelayError(`${branch} is not a relay on a host`);
  const host = hostFor(root, place.destination, ssh);
  const { url, env } = hostRemote(host, place.repo);
  const tracking = trackingRef(branch);
  const r = await git(root, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', url, `+refs/heads/${branch}:${tracking}`], env);
  if (!r.ok) throw new RelayError(`cannot fetch ${branch} from ${place.destination}: ${firstLine(r)}`);
  const theirs = (await commitOf(root, tracking))!;
  const ours = await commitOf(root, `refs/heads/${branch}`);
  if (ours === null) throw new RelayError(`no relay branch ${branch}`);
  const log = (range: string[]) => gitOrFail(root, ['log', '--format=%h %s', ...range], `comparing ${branch} with ${place.destination}`);
  const lacking = lines(await log([ours, '--not', theirs]));
  if (lacking.length > 0)
    throw new RelayError(
      `refusing to fetch ${branch} from ${place.destination}: the local branch has commits the host's lacks: ${lacking.join(', ')}`,
    );
  const fetched = lines(await log([theirs, '--not', ours]));
  if (ours !== theirs) {
    const checkout = (await worktrees(root)).find((w) => w.branch === branch)?.path;
    if (checkout !== undefined)
      throw new RelayError(`refusing to fetch ${branch} from ${place.destination}: it is checked out at ${checkout}`);
    await gitOrFail(root, ['update-ref', `refs/heads/${branch}`, theirs, ours], `moving ${branch}`);
  }
  return { head: theirs, fetched };
}
