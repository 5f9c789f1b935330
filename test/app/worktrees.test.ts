import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { mergeRelay, removeRelay } from '../../src/app/relays/cleanup.js';
import { createWorktree, findRelay, relayStatus } from '../../src/app/relays/worktrees.js';
import { tempDir } from '../helpers/cli.js';
import { gitAuthorEachTest, gitRepo, refusal } from '../helpers/git.js';
import { undoAfterEach } from '../helpers/undo.js';

const undo = undoAfterEach();

gitAuthorEachTest(undo);

/** A repository `shop` in a temp directory of its own (its relays' worktrees land beside it), removed when the test ends. */
async function shop() {
  const dir = realpathSync(tempDir('relevo-relays-'));
  undo.add(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'shop');
  mkdirSync(root);
  await gitRepo(root);
  const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd })).stdout.trim();
  /** Writes `file` in `cwd` and commits it; returns the commit. */
  const commit = async (cwd: string, file: string, text: string) => {
    writeFileSync(join(cwd, file), text);
    await git(cwd, 'add', file);
    await git(cwd, 'commit', '-q', '-m', `edit ${file}`);
    return git(cwd, 'rev-parse', 'HEAD');
  };
  return { dir, root, git, commit };
}

describe('a relay worktree is made', () => {
  it('outside the repository, at <repo>/../<repo>.relevo/<slug>, on a branch named from the goal', async () => {
    const { dir, root, git } = await shop();
    const made = await createWorktree(root, { goal: 'Add pagination\nto users' });
    expect(made).toMatchObject({ root, branch: 'relevo/add-pagination', path: join(dir, 'shop.relevo', 'add-pagination') });
    expect(made.base).toBe(await git(root, 'rev-parse', 'HEAD'));
    expect(await git(made.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('relevo/add-pagination');
    expect(made.path.startsWith(`${root}/`)).toBe(false);
  });

  it('a taken name gets -2; a given branch is checked and a path in the way is refused, never deleted', async () => {
    const { dir, root } = await shop();
    await createWorktree(root, { goal: 'add pagination' });
    const second = await createWorktree(root, { goal: 'add pagination' });
    expect(second.branch).toBe('relevo/add-pagination-2');
    expect(second.path).toBe(join(dir, 'shop.relevo', 'add-pagination-2'));
    expect(await refusal(createWorktree(root, { goal: 'x', branch: 'bad..name' }))).toContain('not a valid branch name');
    const blocker = join(dir, 'shop.relevo', 'mine');
    mkdirSync(blocker);
    writeFileSync(join(blocker, 'keep.txt'), 'keep');
    expect(await refusal(createWorktree(root, { goal: 'x', branch: 'mine' }))).toContain('already exists');
    expect(existsSync(join(blocker, 'keep.txt'))).toBe(true);
  });

  it('four made at the same moment all succeed, each on its own branch and path', async () => {
    const { root } = await shop();
    const made = await Promise.all([1, 2, 3, 4].map(() => createWorktree(root, { goal: 'same goal' })));
    expect(new Set(made.map((m) => m.branch)).size).toBe(4);
    expect(new Set(made.map((m) => m.path)).size).toBe(4);
    for (const m of made) expect(existsSync(join(m.path, 'users.ts'))).toBe(true);
  });

  it("a lock another git holds is waited for, never failed on (a ref's and the config's)", async () => {
    const { root } = await shop();
    const locks = [join(root, '.git', 'config.lock'), join(root, '.git', 'refs', 'heads', 'relevo', 'held.lock')];
    mkdirSync(join(root, '.git', 'refs', 'heads', 'relevo'), { recursive: true });
    for (const lock of locks) writeFileSync(lock, '');
    const making = createWorktree(root, { goal: 'held' }).then((m) => m.branch, String);
    await new Promise((r) => setTimeout(r, 400));
    for (const lock of locks) rmSync(lock);
    expect(await making).toBe('relevo/held');
  });

  it('made from inside a linked worktree, it still lands beside the main repository', async () => {
    const { dir, root } = await shop();
    const first = await createWorktree(root, { goal: 'first' });
    const second = await createWorktree(first.path, { goal: 'second' });
    expect(second.root).toBe(root);
    expect(second.path).toBe(join(dir, 'shop.relevo', 'second'));
  });

  it('worktrees_dir puts it there instead', async () => {
    const { dir, root } = await shop();
    const made = await createWorktree(root, { goal: 'g', worktreesDir: join(dir, 'trees') });
    expect(made.path).toBe(join(dir, 'trees', 'g'));
  });
});

describe("a relay's status", () => {
  it('counts commits ahead and behind, lines added and removed, and the files not committed', async () => {
    const { root, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    await commit(made.path, 'a.ts', 'one\ntwo\n');
    await commit(root, 'b.ts', 'base\n');
    writeFileSync(join(made.path, 'users.ts'), 'changed\n');
    writeFileSync(join(made.path, 'new.txt'), 'n');
    const status = await relayStatus(await findRelay(root, made.branch));
    expect(status).toEqual({ ahead: 1, behind: 1, added: 2, removed: 0, uncommitted: ['users.ts'], untracked: ['new.txt'] });
  });
});

describe('removing a relay never loses work', () => {
  it('refuses when the branch has commits the base lacks, and lists them', async () => {
    const { root, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    await commit(made.path, 'a.ts', 'a');
    const message = await refusal(removeRelay(root, made.branch));
    expect(message).toMatch(/commits not in .*: [0-9a-f]+ edit a\.ts/);
    expect(existsSync(made.path)).toBe(true);
  });

  it('refuses when the worktree holds an untracked file, and lists it', async () => {
    const { root } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    writeFileSync(join(made.path, 'notes.md'), 'mine');
    expect(await refusal(removeRelay(root, made.branch))).toContain('untracked: notes.md');
    expect(existsSync(join(made.path, 'notes.md'))).toBe(true);
  });

  it('--force removes the worktree but keeps an unmerged branch and its commit', async () => {
    const { root, git, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    const sha = await commit(made.path, 'a.ts', 'a');
    writeFileSync(join(made.path, 'scratch.txt'), 's');
    const removed = await removeRelay(root, made.branch, { force: true });
    expect(removed).toMatchObject({ worktreeRemoved: true, branchDeleted: false });
    expect(existsSync(made.path)).toBe(false);
    expect(await git(root, 'rev-parse', made.branch)).toBe(sha);
    expect((await git(root, 'rev-list', made.branch)).split('\n')).toContain(sha);
  });

  it('a merged relay: its worktree and branch both go, and the name is free again', async () => {
    const { root, git } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    expect(await removeRelay(root, made.branch)).toMatchObject({ worktreeRemoved: true, branchDeleted: true });
    expect(existsSync(made.path)).toBe(false);
    expect(await git(root, 'branch', '--list', made.branch)).toBe('');
    expect((await createWorktree(root, { goal: 'g' })).branch).toBe(made.branch);
  });
});

describe('merging a relay back', () => {
  it("rebases onto the base and fast-forwards it to the relay's commits", async () => {
    const { root, git, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    await commit(made.path, 'a.ts', 'a');
    const baseMoved = await commit(root, 'b.ts', 'b');
    const merged = await mergeRelay(root, made.branch);
    expect(merged.head).toBe(await git(root, 'rev-parse', 'HEAD'));
    expect(await git(root, 'rev-parse', made.branch)).toBe(merged.head);
    expect(await git(root, 'rev-parse', 'HEAD^')).toBe(baseMoved);
    expect(existsSync(join(root, 'a.ts'))).toBe(true);
    expect(await removeRelay(root, made.branch)).toMatchObject({ branchDeleted: true });
  });

  it('a base checked out nowhere is moved only by its ref, the main checkout untouched', async () => {
    const { root, git, commit } = await shop();
    await git(root, 'branch', 'dev');
    const made = await createWorktree(root, { goal: 'g', base: 'dev' });
    const theirs = await commit(made.path, 'a.ts', 'a');
    const head = await git(root, 'rev-parse', 'HEAD');
    expect(await mergeRelay(root, made.branch)).toMatchObject({ baseRef: 'dev', head: theirs });
    expect(await git(root, 'rev-parse', 'dev')).toBe(theirs);
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('--squash puts the relay on the base as one commit naming it', async () => {
    const { root, git, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    const start = await git(root, 'rev-parse', 'HEAD');
    await commit(made.path, 'a.ts', 'a');
    await commit(made.path, 'c.ts', 'c');
    await mergeRelay(root, made.branch, { squash: true });
    expect(await git(root, 'rev-parse', 'HEAD^')).toBe(start);
    expect(await git(root, 'log', '-1', '--format=%s')).toContain(made.branch);
    expect(await git(root, 'status', '--porcelain')).toBe('');
  });

  it('a conflicting rebase is aborted and refused: base and branch unchanged', async () => {
    const { root, git, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    const theirs = await commit(made.path, 'users.ts', 'relay\n');
    const ours = await commit(root, 'users.ts', 'base\n');
    expect(await refusal(mergeRelay(root, made.branch))).toContain('conflicts');
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(ours);
    expect(await git(root, 'rev-parse', made.branch)).toBe(theirs);
    expect(await git(made.path, 'status', '--porcelain')).toBe('');
  });

  it("refused when the base's checkout has uncommitted changes", async () => {
    const { root, git, commit } = await shop();
    const made = await createWorktree(root, { goal: 'g' });
    const theirs = await commit(made.path, 'a.ts', 'a');
    const before = await git(root, 'rev-parse', 'HEAD');
    writeFileSync(join(root, 'users.ts'), 'dirty\n');
    expect(await refusal(mergeRelay(root, made.branch))).toContain('uncommitted changes');
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(before);
    expect(await git(root, 'rev-parse', made.branch)).toBe(theirs);
  });
});
