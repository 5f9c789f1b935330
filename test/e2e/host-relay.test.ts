/**
 * A relay whose agents and worktree are on another machine: the test host, reached through ssh
 * with its own config (RELEVO_SSH_COMMAND), the simulated agents run there by its relevo-tui.
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { relevo, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { expectDoneExactlyOnce, relayRuns } from '../helpers/relay-runs.js';
import { testHostPerFile } from '../helpers/ssh-host.js';

const host = testHostPerFile();

async function repo() {
  const dir = realpathSync(tempDir('relevo-host-relay-'));
  const root = join(dir, 'shop');
  mkdirSync(root);
  await gitRepo(root);
  return { dir, root, done: () => rmSync(dir, { recursive: true, force: true }) };
}

describe('a relay on a host', () => {
  it('new --host --headless --demo: the worktree and both agents on the host, every handoff once, done', async () => {
    const { root, done } = await repo();
    const env = { RELEVO_SSH_COMMAND: quote([...host().sshCommand]) };
    const r = await relevo(['new', '--headless', '--demo', '--host', host().destination, '--goal', 'Add pagination'], root, env);
    expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({ exit: 0, stderr: '' });
    const [run, ...others] = relayRuns(root);
    expect(others).toEqual([]);
    expect(run!.relay).toMatchObject({ branch: 'relevo/add-pagination', host: host().destination });
    // The worktree is the host's: under its home, on the relay's branch.
    expect(run!.relay.path).toMatch(/\/\.relevo\/worktrees\/shop\/add-pagination$/);
    const branch = await host().exec(['git', '-C', run!.relay.path, 'rev-parse', '--abbrev-ref', 'HEAD']);
    expect(branch.trim()).toBe('relevo/add-pagination');
    // The agents ran there: their panes were the host's tmux server's.
    expect(r.stdout).toContain('"tmux %');
    expectDoneExactlyOnce(run!);

    // Work committed on the host comes back with `merge`: fetched, then the base fast-forwarded.
    const path = run!.relay.path;
    await host().exec(['sh', '-c', 'echo "export const pages = 1;" > "$1/pages.ts"', 'sh', path]);
    await host().exec(['git', '-C', path, 'add', 'pages.ts']);
    await host().exec(['git', '-C', path, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'pages']);
    const merged = await relevo(['merge', 'relevo/add-pagination'], root, env);
    expect({ exit: merged.exitCode, stderr: merged.stderr }).toEqual({ exit: 0, stderr: '' });
    expect(merged.stdout).toMatch(new RegExp(`^merged relevo/add-pagination into ${run!.relay.base}:`));
    const shown = await execa('git', ['show', `${run!.relay.base}:pages.ts`], { cwd: root });
    expect(shown.stdout).toBe('export const pages = 1;');
    done();
  }, 120_000);

  it('an ssh that cannot connect is one line, exit 2, and nothing is made', async () => {
    const { root, done } = await repo();
    const env = { RELEVO_SSH_COMMAND: quote([...host().sshCommand, '-o', 'Port=1']) };
    const r = await relevo(['new', '--headless', '--demo', '--host', host().destination, '--goal', 'Add pagination'], root, env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^relevo-tui: .*relevo-test-host.*(refused|unreachable|timed out)/i);
    const branches = await execa('git', ['branch', '--list', 'relevo/*'], { cwd: root });
    expect(branches.stdout).toBe('');
    done();
  }, 60_000);
});
