import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { undoWhenFinished } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

const AUTHOR = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };

/** A repository with relays made by `relevo-tui new --demo`, and what its git says; removed when the test ends. */
async function shop(onTestFinished: (fn: () => Promise<void>) => void) {
  const dir = realpathSync(tempDir('relevo-merge-'));
  undoWhenFinished(onTestFinished).add(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'shop');
  mkdirSync(root);
  await gitRepo(root);
  const git = async (cwd: string, ...args: string[]) => (await execa('git', args, { cwd, env: AUTHOR })).stdout.trim();
  /** Every commit reachable from any ref. */
  const commits = async () => new Set((await git(root, 'rev-list', '--all', '--reflog')).split('\n'));
  /** The commits of `before` no ref reaches now and whose change is not on the base either (a rebased one's is): work lost. */
  const lost = async (before: Set<string>) => {
    const now = await commits();
    const gone = [...before].filter((c) => !now.has(c));
    const cherry = await Promise.all(gone.map((c) => git(root, 'cherry', 'HEAD', c, `${c}~1`)));
    return gone.filter((_, i) => !cherry[i]!.startsWith('- '));
  };
  const relay = async (goal: string) => {
    const made = await relevo(['new', '--headless', '--demo', '--goal', goal], root);
    expect({ exit: made.exitCode, stderr: made.stderr }).toEqual({ exit: 0, stderr: '' });
    const branch = `relevo/${goal.toLowerCase().replaceAll(' ', '-')}`;
    return { branch, path: join(dir, 'shop.relevo', branch.slice('relevo/'.length)) };
  };
  const commit = async (cwd: string, file: string, text: string) => {
    writeFileSync(join(cwd, file), text);
    await git(cwd, 'add', file);
    await git(cwd, 'commit', '-q', '-m', `edit ${file}`);
    return git(cwd, 'rev-parse', 'HEAD');
  };
  return { dir, root, git, commits, lost, relay, commit, cli: (...args: string[]) => relevo(args, root, AUTHOR) };
}

describe.concurrent('relevo-tui merge and rm: a relay merged back and removed, never losing work', () => {
  it('merge rebases a done relay onto its base and fast-forwards it; rm then removes the worktree and the merged branch', async ({
    onTestFinished,
  }) => {
    const { root, git, commits, lost, relay, commit, cli } = await shop(onTestFinished);
    const r = await relay('Add pagination');
    const head = await commit(r.path, 'pages.ts', 'export const pages = 1;\n');
    await commit(root, 'other.ts', 'export const other = 1;\n'); // the base moved on meanwhile
    const before = await commits();

    const merged = await cli('merge', r.branch);
    expect({ exit: merged.exitCode, stderr: merged.stderr }).toEqual({ exit: 0, stderr: '' });
    const baseBranch = await git(root, 'branch', '--show-current');
    expect(merged.stdout).toBe(`merged relevo/add-pagination into ${baseBranch}: ${(await git(root, 'rev-parse', 'HEAD')).slice(0, 12)}`);
    // Rebased (a new commit on top of the base's), then fast-forwarded: the base is the branch, linear.
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(await git(root, 'rev-parse', r.branch));
    expect(await git(root, 'rev-parse', 'HEAD')).not.toBe(head);
    expect(readFileSync(join(root, 'pages.ts'), 'utf8')).toBe('export const pages = 1;\n');
    expect(await git(root, 'rev-list', '--merges', 'HEAD')).toBe('');

    const removed = await cli('rm', r.branch);
    expect({ exit: removed.exitCode, stderr: removed.stderr, out: removed.stdout }).toEqual({
      exit: 0,
      stderr: '',
      out: `removed ${r.branch}: worktree removed; branch deleted (merged)`,
    });
    expect(existsSync(r.path)).toBe(false);
    expect(await git(root, 'branch', '--list', r.branch)).toBe('');
    expect(await lost(before)).toEqual([]);
  });

  it('a conflicting relay is refused with the base and the branch untouched (the rebase aborted)', async ({ onTestFinished }) => {
    const { root, git, commits, lost, relay, commit, cli } = await shop(onTestFinished);
    const r = await relay('Rename users');
    const head = await commit(r.path, 'users.ts', 'export const people = [];\n');
    const base = await commit(root, 'users.ts', 'export const members = [];\n');
    const before = await commits();
    const refused = await cli('merge', r.branch);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(
      /^relevo-tui: merge: refusing to merge relevo\/rename-users: rebasing it onto \S+ conflicts \(rebase aborted, nothing changed\)$/,
    );
    expect(await git(root, 'rev-parse', 'HEAD')).toBe(base);
    expect(await git(r.path, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(r.path, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(root, '.git', 'worktrees', 'rename-users', 'rebase-merge'))).toBe(false);
    expect(await lost(before)).toEqual([]);
  });

  it('rm refuses a worktree with unmerged commits or untracked files and lists them; --force keeps the branch', async ({
    onTestFinished,
  }) => {
    const { root, git, commits, lost, relay, commit, cli } = await shop(onTestFinished);
    const r = await relay('Draft the api');
    const work = await commit(r.path, 'api.ts', 'export const api = 1;\n');
    writeFileSync(join(r.path, 'notes.md'), 'half done\n');
    const before = await commits();

    const refused = await cli('rm', r.branch);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      `relevo-tui: rm: refusing to remove ${r.branch} (--force keeps the branch): commits not in ${await git(root, 'branch', '--show-current')}: ${work.slice(0, 7)} edit api.ts; untracked: notes.md`,
    );
    expect(readFileSync(join(r.path, 'notes.md'), 'utf8')).toBe('half done\n');

    const forced = await cli('rm', r.branch, '--force');
    expect(forced.stdout).toBe(`removed ${r.branch}: worktree removed; branch ${r.branch} kept (1 commits not merged)`);
    expect(existsSync(r.path)).toBe(false);
    expect(await git(root, 'rev-parse', r.branch)).toBe(work);
    expect(await lost(before)).toEqual([]);
  });

  it('merge and rm are refused while the relay is working', async ({ onTestFinished }) => {
    const { root, cli } = await shop(onTestFinished);
    const slow = (role: 'planner' | 'builder') => simCommand(role, '--think-ms', '60000');
    const run = execa(
      process.execPath,
      [BIN, 'new', '--headless', '--goal', 'Slow work', '--planner', slow('planner'), '--builder', slow('builder')],
      {
        cwd: root,
        reject: false,
        stdin: 'ignore',
      },
    );
    undoWhenFinished(onTestFinished).add(async () => {
      run.kill('SIGTERM');
      await run;
    });
    const runs = join(root, '.relevo', 'runs');
    await until(
      'the relay to have its goal',
      () =>
        existsSync(runs) &&
        readdirSync(runs).some((id) => {
          // The run's directory is made a moment before its journal.
          const journal = join(runs, id, 'events.jsonl');
          return existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"goal"');
        }),
    );
    for (const args of [
      ['merge', 'relevo/slow-work'],
      ['rm', 'relevo/slow-work'],
    ]) {
      const refused = await cli(...args);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(`^relevo-tui: ${args[0]}: relevo/slow-work is working in relevo-tui \\(pid \\d+\\): pause it first`),
      );
    }
    expect(existsSync(join(root, '..', 'shop.relevo', 'slow-work'))).toBe(true);
  });
});
