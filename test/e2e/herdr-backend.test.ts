/**
 * Agents in Herdr panes. Herdr cannot be built here: the fake in test/helpers/fake-herdr follows
 * herdr 0.8.0's documented CLI and drives real PTYs, so relevo talks to it exactly as to herdr.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { BIN, parseJournal, recorded, relevo, tempDir } from '../helpers/cli.js';
import { type FakeHerdr, startFakeHerdr } from '../helpers/fake-herdr.js';

const GOAL = 'Add pagination to /users with tests';
const running: FakeHerdr[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) await h.stop();
});

async function herdrWith(env: NodeJS.ProcessEnv = {}) {
  const h = await startFakeHerdr({ env });
  running.push(h);
  return h;
}

const received = (cwd: string, role: Role): string[] => recorded(join(cwd, `${role}.record`));

const json = (stdout: string) => JSON.parse(stdout) as { result: { pane: { pane_id: string; agent?: string; agent_status: string } } };

/** Two new panes running the simulated planner and builder (started with `pane run`, as a person would). */
async function agentsInHerdr(h: FakeHerdr, cwd: string) {
  const ids: Record<Role, string> = { planner: '', builder: '' };
  for (const role of ['planner', 'builder'] as const) {
    const split = await h.herdr('pane', 'split', '--direction', 'right', '--cwd', cwd);
    expect(split.exitCode, split.stderr).toBe(0);
    ids[role] = json(split.stdout).result.pane.pane_id;
    const run = await h.herdr(
      'pane',
      'run',
      ids[role],
      `'${process.execPath}' '${BIN}' sim-agent --role ${role} --think-ms 150 --record '${join(cwd, `${role}.record`)}'`,
    );
    expect(run.exitCode, run.stderr).toBe(0);
  }
  for (const role of ['planner', 'builder'] as const) {
    const wait = await h.herdr('agent', 'wait', ids[role], '--until', 'idle', '--until', 'done', '--timeout', '20000');
    expect(wait.exitCode, wait.stderr).toBe(0);
  }
  return ids;
}

const herdrEnv = (h: FakeHerdr) => h.env as Record<string, string>;

describe('Herdr backend (fake herdr 0.8.0)', () => {
  it('--herdr attaches to panes running agents: exact handoffs, screen from detection, agents left running', async () => {
    const h = await herdrWith();
    const cwd = tempDir('relevo-herdr-');
    const ids = await agentsInHerdr(h, cwd);
    const result = await relevo(
      ['--headless', '--herdr', '--planner-pane', ids.planner, '--builder-pane', ids.builder, '--goal', GOAL],
      cwd,
      herdrEnv(h),
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const lines = parseJournal(result.stdout);
    expect(lines[0]).toMatchObject({
      type: 'run_started',
      planner: { profile: 'sim', pane: `herdr ${ids.planner}` },
      builder: { profile: 'sim', pane: `herdr ${ids.builder}` },
    });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    const step1 = received(cwd, 'builder')[0]!;
    expect(step1).toMatch(
      /^# relevo: builder\n[\s\S]*\n\[relevo ronda 1 · de planner\]\nStep 1 of 3: Write the failing tests — Add pagination to \/users with tests\nContext: this is step 1 of 3 towards the goal above; keep the change small and reviewable, touch only the files this step needs, leave unrelated code alone, and write down any doubt in your report so the planner can adjust the next step before sending it\.\nDo:\n {2}- write the failing test first\n/,
    );
    const delivered = lines.filter((l): l is Extract<JournalLine, { type: 'delivered' }> => l.type === 'delivered');
    expect(delivered).toHaveLength(7);
    const after = await h.herdr('pane', 'get', ids.builder);
    expect(json(after.stdout).result.pane.agent).toBe('claude');
  });

  it('--herdr-launch splits two panes next to this one (HERDR_ENV) and starts the agents there', async () => {
    const h = await herdrWith();
    const cwd = tempDir('relevo-herdr-');
    const result = await relevo(['--headless', '--herdr-launch', '--demo'], cwd, {
      ...herdrEnv(h),
      HERDR_ENV: '1',
      HERDR_PANE_ID: 'w1:p1',
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const lines = parseJournal(result.stdout);
    expect(lines[0]).toMatchObject({ planner: { pane: 'herdr w1:p2' }, builder: { pane: 'herdr w1:p3' } });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    const list = JSON.parse((await h.herdr('pane', 'list')).stdout) as { result: { panes: { pane_id: string }[] } };
    expect(list.result.panes.map((p) => p.pane_id)).toEqual(['w1:p1', 'w1:p2', 'w1:p3']);
  });

  it('answers herdr errors with one line and exit 2: no pane, no agent, no server, wrong protocol or version, no herdr', async () => {
    const h = await herdrWith();
    const cwd = tempDir();
    const attach = (env: Record<string, string>, planner = 'w1:p1', builder = 'w1:p9') =>
      relevo(['--headless', '--goal', 'g', '--herdr', '--planner-pane', planner, '--builder-pane', builder], cwd, env);
    const noAgent = await attach(herdrEnv(h));
    expect([noAgent.exitCode, noAgent.stderr]).toEqual([
      2,
      'relevo-tui: --planner-pane: herdr pane w1:p1 runs no agent (agent_status unknown): start the agent in it first',
    ]);
    const ids = await agentsInHerdr(h, cwd);
    const noPane = await attach(herdrEnv(h), ids.planner, 'w1:p9');
    expect([noPane.exitCode, noPane.stderr]).toEqual([2, 'relevo-tui: --builder-pane: herdr: pane w1:p9 not found']);
    const old = await attach({ ...herdrEnv(h), FAKE_HERDR_VERSION: '0.7.5' });
    expect([old.exitCode, old.stderr]).toEqual([
      2,
      'relevo-tui: --herdr: herdr: herdr 0.7.5 is not supported: relevo-tui works with herdr 0.8.x (socket protocol 20) (unsupported_version)',
    ]);
    const missing = await attach({ ...herdrEnv(h), PATH: '/usr/bin:/bin' });
    expect([missing.exitCode, missing.stderr]).toEqual([
      2,
      'relevo-tui: --herdr: herdr: herdr is not installed (not on PATH, and HERDR_BIN_PATH is not set) (not_installed)',
    ]);
    const viaBinPath = await attach({ ...herdrEnv(h), PATH: '/usr/bin:/bin', HERDR_BIN_PATH: h.bin }, ids.planner, 'w1:p9');
    expect(viaBinPath.stderr).toBe('relevo-tui: --builder-pane: herdr: pane w1:p9 not found');
    await h.stop();
    const down = await attach(herdrEnv(h));
    expect(down.exitCode).toBe(2);
    expect(down.stderr).toMatch(/^relevo-tui: --herdr: herdr: .+ \(server_not_running\)$/);
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
  });

  it('refuses a server speaking another protocol', async () => {
    const h = await startFakeHerdr({ protocol: 19 } as Parameters<typeof startFakeHerdr>[0]);
    running.push(h);
    const r = await relevo(
      ['--headless', '--goal', 'g', '--herdr', '--planner-pane', 'w1:p1', '--builder-pane', 'w1:p2'],
      tempDir(),
      herdrEnv(h),
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^relevo-tui: --herdr: herdr: .+ \(protocol_mismatch\)$/);
  });
});
