/**
 * Several relays in one relevo, as a person meets them in tmux: one started by `relevo-tui new`, three
 * more from its dashboard, all at once, each in its own worktree outside the repository.
 */
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { BIN, simArgv, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { expectDoneExactlyOnce, relayRuns } from '../helpers/relay-runs.js';
import { band, freshTmuxServers, keys, session, untilScreen } from '../helpers/tui-tmux.js';
import { undoAfterEach } from '../helpers/undo.js';

freshTmuxServers();
const undo = undoAfterEach();

const AUTHOR = ['GIT_AUTHOR_NAME=t', 'GIT_AUTHOR_EMAIL=t@t', 'GIT_COMMITTER_NAME=t', 'GIT_COMMITTER_EMAIL=t@t'];
/** The dashboard's row of `name` (the selected one starts with ▸). */
const rowOf = (screen: string, name: string) => screen.split('\n').find((l) => l.slice(2).startsWith(`${name} `)) ?? '';
const onDashboard = (s: string) => s.startsWith('relevo · ') && s.includes('↑↓ move');

describe('several relays in one relevo, in tmux', () => {
  it('four relays (one from `new`, three from the dashboard) run at once to done; the blocked one is listed first; Enter and C-] w move between views', async () => {
    const dir = realpathSync(tempDir('relevo-fleet-tui-'));
    undo.add(() => rmSync(dir, { recursive: true, force: true }));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    // The relays the dashboard starts run the agents relevo.toml names.
    const sim = (role: 'planner' | 'builder', ...flags: string[]) => quote(simArgv(role, '1500', ...flags));
    writeFileSync(join(root, 'relevo.toml'), `planner = ${JSON.stringify(sim('planner'))}\nbuilder = ${JSON.stringify(sim('builder'))}\n`);
    // The first relay's builder asks for a permission on its first turn: that relay waits on the person.
    const first = [process.execPath, BIN, 'new', '--goal', 'Guard the api', '--builder', sim('builder', '--misbehave', 'permission:1')];
    await session(120, 30, root, `env ${AUTHOR.join(' ')} ${quote(first)}; echo "exited with $?"; sleep 60`);
    await untilScreen('the first relay running', (s) => / · running/.test(band(s)));

    for (const goal of ['Add pagination', 'Fix the login', 'Write the docs']) {
      await keys('C-]', 'c');
      await untilScreen('the goal asked on the dashboard', (s) => onDashboard(s) && s.split('\n').some((l) => l.startsWith('goal › ')));
      await keys('-l', goal);
      await keys('Enter');
      await untilScreen(`${goal}: its relay's view`, (s) => s.includes(`goal: ${goal}`) && / · (running|starting)/.test(band(s)));
    }
    // Work committed in one worktree shows as lines added and a commit ahead of its base.
    const pages = join(dir, 'shop.relevo', 'add-pagination');
    writeFileSync(join(pages, 'pages.ts'), 'export const pages = 1;\nexport const size = 20;\n');
    await execa('git', ['add', 'pages.ts'], { cwd: pages });
    await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'pages'], { cwd: pages });

    await keys('C-]', 'w');
    const listed = await untilScreen(
      'the dashboard with the blocked relay first and the figures of the commit',
      (s) => onDashboard(s) && /blocked/.test(rowOf(s, 'relevo/guard-the-api')) && /\+2 −0 +↑1 ↓0/.test(rowOf(s, 'relevo/add-pagination')),
    );
    const lines = listed.split('\n');
    expect(lines[0]).toMatch(/^relevo · 4 relays · 1 needs you/);
    expect(lines.findIndex((l) => l.includes('relevo/guard-the-api'))).toBeLessThan(
      Math.min(...['add-pagination', 'fix-the-login', 'write-the-docs'].map((n) => lines.findIndex((l) => l.includes(`relevo/${n}`)))),
    );
    expect(rowOf(listed, 'relevo/fix-the-login')).toMatch(/ \d+\/10 /);

    // Enter opens the blocked relay (selected first); the person answers its prompt there.
    await keys('Enter');
    await untilScreen('the blocked relay on screen', (s) => s.includes('goal: Guard the api') && s.includes('Do you want to proceed?'));
    await keys('C-]', 'o');
    await keys('Enter');
    await untilScreen('the relay going on', (s) => !s.includes('Do you want to proceed?'));
    await keys('C-]', 'w');
    await untilScreen(
      'all four done',
      (s) =>
        onDashboard(s) &&
        ['guard-the-api', 'add-pagination', 'fix-the-login', 'write-the-docs'].every((n) => /done/.test(rowOf(s, `relevo/${n}`))),
      120_000,
    );
    await keys('q');
    await untilScreen('relevo gone', (s) => s.includes('exited with 0'));
    const runs = relayRuns(root);
    expect(runs.map((r) => r.relay.branch).sort()).toEqual([
      'relevo/add-pagination',
      'relevo/fix-the-login',
      'relevo/guard-the-api',
      'relevo/write-the-docs',
    ]);
    for (const run of runs) {
      expect(run.relay.path).toBe(join(dir, 'shop.relevo', run.relay.branch.slice('relevo/'.length)));
      expectDoneExactlyOnce(run);
    }
  });
});
