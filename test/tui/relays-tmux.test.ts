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
/** The relays made from the dashboard: branch slug → goal. */
const GOALS: Readonly<Record<string, string>> = {
  'add-pagination': 'Add pagination',
  'fix-the-login': 'Fix the login',
  'write-the-docs': 'Write the docs',
};
const onDashboard = (s: string) => /^relevo · \d+ relays?\b/.test(s);

describe('several relays in one relevo, in tmux', () => {
  it('four relays (one from `new`, three from the dashboard) run at once to done; the blocked one is listed first; Enter and C-] w move between views', {
    timeout: 240_000,
  }, async () => {
    const dir = realpathSync(tempDir('relevo-fleet-tui-'));
    undo.add(() => rmSync(dir, { recursive: true, force: true }));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    // Every relay of this relevo runs its agents: each builder asks for a permission on its first turn.
    const sim = (role: 'planner' | 'builder', ...flags: string[]) => quote(simArgv(role, '1500', ...flags));
    const agents = ['--planner', sim('planner'), '--builder', sim('builder', '--misbehave', 'permission:1')];
    const first = [process.execPath, BIN, 'new', '--goal', 'Guard the api', ...agents];
    await session(200, 30, root, `env ${AUTHOR.join(' ')} ${quote(first)}; echo "exited with $?"; sleep 60`);
    await untilScreen('the first relay running', (s) => / · running/.test(band(s)));

    for (const goal of Object.values(GOALS)) {
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

    // On the dashboard, the three made from it are answered: each found (/), opened (Enter), its builder's prompt confirmed, back (C-] w).
    const others = Object.keys(GOALS);
    await keys('C-]', 'w');
    for (const name of others) {
      await untilScreen(`${name} blocked`, (s) => onDashboard(s) && /blocked/.test(rowOf(s, `relevo/${name}`)), 60_000);
      await keys('/');
      await keys('-l', name);
      await keys('Enter');
      await keys('Enter');
      await untilScreen(`${name}'s view`, (s) => s.includes(`goal: ${GOALS[name]}`));
      // The builder's pane takes the keys: its prompt is confirmed there.
      await keys('C-]', 'o');
      await untilScreen(`${name}'s prompt on screen`, (s) => s.includes('Do you want to proceed?'));
      await keys('Enter');
      await untilScreen(`${name} going on`, (s) => !s.includes('Do you want to proceed?'));
      await keys('C-]', 'w');
      await untilScreen('the dashboard', onDashboard);
      await keys('/');
      await keys('Escape');
    }
    // The relay still blocked is listed first, before the ones done; the commit shows as lines added and one commit ahead.
    // The two done with nothing to merge read `merged` and need the person no more.
    const listed = await untilScreen(
      'the three others done, the blocked relay first',
      (s) =>
        onDashboard(s) &&
        /done ✓/.test(rowOf(s, 'relevo/add-pagination')) &&
        ['fix-the-login', 'write-the-docs'].every((n) => /merged/.test(rowOf(s, `relevo/${n}`))) &&
        /\+2 −0 +↑1 ↓0/.test(rowOf(s, 'relevo/add-pagination')),
      120_000,
    );
    const rows = listed.split('\n');
    expect(rows[0]).toMatch(/^relevo · 4 relays · 2 need you/);
    expect(rowOf(listed, 'relevo/guard-the-api')).toMatch(/^. relevo\/guard-the-api +blocked +1\/10 → builder/);
    expect(rows.findIndex((l) => l.includes('relevo/guard-the-api'))).toBeLessThan(
      Math.min(...others.map((n) => rows.findIndex((l) => l.includes(`relevo/${n}`)))),
    );
    expect(rowOf(listed, 'relevo/fix-the-login')).toMatch(/merged +3\/10 /);

    // Enter opens the blocked relay (the top row); the person answers its prompt there.
    await keys('Up', 'Up', 'Up');
    await untilScreen('the top row selected', (s) => rowOf(s, 'relevo/guard-the-api').startsWith('▸'));
    await keys('Enter');
    await untilScreen('the blocked relay on screen', (s) => s.includes('goal: Guard the api'));
    await keys('C-]', 'o');
    await untilScreen('its prompt', (s) => s.includes('Do you want to proceed?'));
    await keys('Enter');
    await untilScreen('the last relay done', (s) => / · done/.test(band(s)) && s.includes('goal: Guard the api'), 120_000);
    await keys('C-]', 'w');
    await untilScreen(
      'all four done',
      (s) => onDashboard(s) && ['guard-the-api', ...others].every((n) => /done|merged/.test(rowOf(s, `relevo/${n}`))),
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
