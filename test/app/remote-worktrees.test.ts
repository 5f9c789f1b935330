import { chmodSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { mergeRelay, removeRelay } from '../../src/app/relays/cleanup.js';
import { createHostWorktree, hostFor } from '../../src/app/relays/remote.js';
import { findRelay } from '../../src/app/relays/worktrees.js';
import { closeMaster, type SshHost } from '../../src/pty/backends/ssh.js';
import { tempDir } from '../helpers/cli.js';
import { gitAuthorEachTest, gitRepo, refusal } from '../helpers/git.js';
import { testHostPerFile } from '../helpers/ssh-host.js';
import { undoAfterEach } from '../helpers/undo.js';

const undo = undoAfterEach();
const testHost = testHostPerFile();

gitAuthorEachTest(undo);

/** A repository named uniquely (so each test has its own bare repository on the host), its state dir, and the host as relevo reaches it. */
async function shop() {
  const dir = realpathSync(tempDir('relevo-remote-'));
  undo.add(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, `shop-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(root);
  await gitRepo(root);
  const stateDir = join(root, '.relevo');
  const ssh = { sshCommand: testHost().sshCommand, stateDir };
  const host: SshHost = hostFor(root, testHost().destination, ssh);
  // The shared master outlives each ssh call (ControlPersist): ended with the test, or the host's sshd would wait on it.
  undo.add(() => closeMaster(host));
  const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd })).stdout.trim();
  /** Runs git on the host (as its sessions run). */
  const onHost = async (...args: string[]) => (await testHost().exec(['git', '-c', 'user.name=h', '-c', 'user.email=h@h', ...args])).trim();
  /** Writes `file` in the host worktree at `path` (a path as the host sees it) and commits it there. */
  const commitOnHost = async (path: string, file: string, text: string) => {
    await testHost().exec(['sh', '-c', 'printf %s "$2" > "$1/$3"', 'sh', path, text, file]);
    await onHost('-C', path, 'add', file);
    await onHost('-C', path, 'commit', '-q', '-m', `host edit ${file}`);
    return onHost('-C', path, 'rev-parse', 'HEAD');
  };
  const commit = async (cwd: string, file: string, text: string) => {
    writeFileSync(join(cwd, file), text);
    await git(cwd, 'add', file);
    await git(cwd, 'commit', '-q', '-m', `edit ${file}`);
    return git(cwd, 'rev-parse', 'HEAD');
  };
  return { dir, root, ssh, host, git, onHost, commitOnHost, commit };
}

describe('a relay worktree on a host', () => {
  it('is made on the host at <worktrees>/<repo>/<slug>, on its branch, at the base; the local branch records the host', async () => {
    const { root, host, git, onHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'Add pagination' });
    const home = (await testHost().exec(['sh', '-c', 'printf %s "$HOME"'])).trim();
    const repo = root.split('/').at(-1);
    expect(made).toMatchObject({ root, branch: 'relevo/add-pagination', host: testHost().destination });
    expect(made.path).toBe(`${home}/.relevo/worktrees/${repo}/add-pagination`);
    expect(made.base).toBe(await git(root, 'rev-parse', 'HEAD'));
    expect(await onHost('-C', made.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('relevo/add-pagination');
    expect(await onHost('-C', made.path, 'rev-parse', 'HEAD')).toBe(made.base);
    expect(await onHost('-C', `${home}/.relevo/repos/${repo}.git`, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(await git(root, 'rev-parse', made.branch)).toBe(made.base);
    const relay = await findRelay(root, made.branch);
    expect(relay.host).toMatchObject({ destination: testHost().destination, path: made.path });
    expect(relay.path).toBeNull();
  }, 60_000);

  it('two made at once get distinct names, and a name taken on the host only is passed over too', async () => {
    const { root, host, git, onHost } = await shop();
    const both = await Promise.all([1, 2].map(() => createHostWorktree(root, host, { goal: 'same goal' })));
    expect(new Set(both.map((m) => m.branch))).toEqual(new Set(['relevo/same-goal', 'relevo/same-goal-2']));
    expect(new Set(both.map((m) => m.path)).size).toBe(2);
    // Taken on the host only: the local branch deleted, the host's kept.
    const repo = (await findRelay(root, 'relevo/same-goal')).host!.repo;
    await git(root, 'branch', '-D', 'relevo/same-goal-2');
    expect(await onHost('-C', repo, 'rev-parse', '--verify', '-q', 'refs/heads/relevo/same-goal-2')).not.toBe('');
    expect((await createHostWorktree(root, host, { goal: 'same goal' })).branch).toBe('relevo/same-goal-3');
  }, 60_000);

  it('a commit made on the host is merged back: rebased onto the moved base, the base fast-forwarded, no commit lost', async () => {
    const { root, host, ssh, git, commit, commitOnHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'g' });
    const theirs = await commitOnHost(made.path, 'a.ts', 'a\n');
    const baseMoved = await commit(root, 'b.ts', 'b\n');
    const merged = await mergeRelay(root, made.branch, ssh);
    expect(merged.head).toBe(await git(root, 'rev-parse', 'HEAD'));
    expect(await git(root, 'rev-parse', 'HEAD^')).toBe(baseMoved);
    expect(await git(root, 'show', 'HEAD:a.ts')).toBe('a');
    // The local branch is the host's (fetched, not rebased); every commit of it is in the base or rebased there.
    expect(await git(root, 'rev-parse', made.branch)).toBe(theirs);
    expect(await git(root, 'log', '--format=%h', '--cherry-pick', '--right-only', `HEAD...${made.branch}`)).toBe('');
    expect(await git(root, 'status', '--porcelain')).toBe('');
    // Merged: the host worktree and both branches go.
    expect(await removeRelay(root, made.branch, ssh)).toMatchObject({ worktreeRemoved: true, branchDeleted: true });
    expect(await git(root, 'branch', '--list', made.branch)).toBe('');
  }, 60_000);

  it('when the base has not moved, the base is fast-forwarded to the host commit itself', async () => {
    const { root, host, ssh, git, commitOnHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'g' });
    const theirs = await commitOnHost(made.path, 'a.ts', 'a\n');
    expect((await mergeRelay(root, made.branch, ssh)).head).toBe(theirs);
    expect(await git(root, 'rev-list', '--count', `${theirs}..HEAD`)).toBe('0');
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(theirs);
  }, 60_000);

  it('a user@host destination works for ssh and for git (scp form), and is what the branch records', async () => {
    const { root, ssh, git, commitOnHost } = await shop();
    const destination = `root@${testHost().destination}`;
    const host = hostFor(root, destination, ssh);
    undo.add(() => closeMaster(host));
    const made = await createHostWorktree(root, host, { goal: 'g' });
    expect(made.host).toBe(destination);
    expect((await findRelay(root, made.branch)).host?.destination).toBe(destination);
    const theirs = await commitOnHost(made.path, 'a.ts', 'a\n');
    expect((await mergeRelay(root, made.branch, ssh)).head).toBe(theirs);
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(theirs);
  }, 60_000);

  it('a conflicting host relay is refused: base and branch untouched', async () => {
    const { root, host, ssh, git, commit, commitOnHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'g' });
    const theirs = await commitOnHost(made.path, 'users.ts', 'host\n');
    const ours = await commit(root, 'users.ts', 'base\n');
    expect(await refusal(mergeRelay(root, made.branch, ssh))).toContain('conflicts');
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(ours);
    expect(await git(root, 'rev-parse', made.branch)).toBe(theirs);
    expect(await git(root, 'status', '--porcelain')).toBe('');
    expect(await git(root, 'worktree', 'list', '--porcelain')).not.toContain('/tmp/merge-');
  }, 60_000);

  it('a local branch with commits the host lacks is never overwritten by the fetch', async () => {
    const { root, host, ssh, git, commitOnHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'g' });
    await commitOnHost(made.path, 'a.ts', 'a\n');
    await git(root, 'worktree', 'add', '-q', join(root, '..', 'side'), made.branch);
    writeFileSync(join(root, '..', 'side', 'l.ts'), 'l');
    await git(join(root, '..', 'side'), 'add', 'l.ts');
    await git(join(root, '..', 'side'), 'commit', '-q', '-m', 'local only');
    const local = await git(root, 'rev-parse', made.branch);
    expect(await refusal(mergeRelay(root, made.branch, ssh))).toMatch(/commits the host's lacks: [0-9a-f]+ local only/);
    expect(await git(root, 'rev-parse', made.branch)).toBe(local);
  }, 60_000);

  it('rm refuses while the host worktree holds an untracked file, and lists it; --force removes it and keeps an unmerged branch', async () => {
    const { root, host, ssh, git, onHost, commitOnHost } = await shop();
    const made = await createHostWorktree(root, host, { goal: 'g' });
    await testHost().exec(['sh', '-c', 'echo mine > "$1/notes.md"', 'sh', made.path]);
    const message = await refusal(removeRelay(root, made.branch, ssh));
    expect(message).toContain(`untracked on ${testHost().destination}: notes.md`);
    expect(await onHost('-C', made.path, 'status', '--porcelain')).toBe('?? notes.md');
    const sha = await commitOnHost(made.path, 'a.ts', 'a\n');
    expect(await refusal(removeRelay(root, made.branch, ssh))).toMatch(/commits not in .*: [0-9a-f]+ host edit a\.ts/);
    expect(await removeRelay(root, made.branch, { ...ssh, force: true })).toMatchObject({ worktreeRemoved: true, branchDeleted: false });
    expect(await git(root, 'rev-parse', made.branch)).toBe(sha);
    expect(await testHost().exec(['sh', '-c', 'test -e "$1" && echo there || echo gone', 'sh', made.path])).toContain('gone');
  }, 60_000);

  it('a host without git on its PATH is one line naming it', async () => {
    const { dir, root } = await shop();
    // The ssh program runs the remote command under `env PATH=/nonexistent` (the host's own env program).
    const wrapper = join(dir, 'ssh-no-git');
    writeFileSync(
      wrapper,
      [
        '#!/bin/sh',
        '# `ssh -O exit` (ending the master) names no remote command: passed through as is.',
        'for a; do [ "$a" = -O ] && exec "$@"; done',
        'n=$#; i=0',
        'for a; do i=$((i+1)); if [ $i -eq $n ]; then set -- "$@" "env PATH=/nonexistent $a"; else set -- "$@" "$a"; fi; done',
        'shift $n',
        'exec "$@"',
        '',
      ].join('\n'),
    );
    chmodSync(wrapper, 0o755);
    const host = hostFor(root, testHost().destination, { sshCommand: [wrapper, ...testHost().sshCommand], stateDir: join(dir, 'state') });
    undo.add(() => closeMaster(host));
    const message = await refusal(createHostWorktree(root, host, { goal: 'g' }));
    expect(message).toMatch(new RegExp(`^host ${testHost().destination} has no git \\(.*\\)$`));
  }, 60_000);
});
