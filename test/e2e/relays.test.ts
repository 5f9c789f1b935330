import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/protocol/index.js';
import { BIN, recorded, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { runProcesses } from '../helpers/procs.js';
import { ackedRounds, expectDoneExactlyOnce, type RelayRun, relayRuns } from '../helpers/relay-runs.js';
import { undoWhenFinished } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

const ROLES: Role[] = ['planner', 'builder'];
const HEADER = /^\[relevo ronda (\d+) · de (planner|builder)\]$/m;

/** A repository `shop` alone in a temp directory (its relays' worktrees land beside it, in shop.relevo/), and a place for the agents' records. */
async function shop(onTestFinished: (fn: () => Promise<void>) => void) {
  const dir = realpathSync(tempDir('relevo-fleet-'));
  undoWhenFinished(onTestFinished).add(() => rmSync(dir, { recursive: true, force: true }));
  const root = join(dir, 'shop');
  const records = join(dir, 'records');
  mkdirSync(root);
  mkdirSync(records);
  const git = await gitRepo(root);
  /** The agents of relay `n`, each recording what it was typed. */
  const agents = (n: number) => ROLES.flatMap((role) => [`--${role}`, simCommand(role, '--record', join(records, `${n}-${role}.record`))]);
  return { dir, root, records, git, agents };
}

describe.concurrent('several relays, each in a worktree of its own', { timeout: 240_000 }, () => {
  it('four `new --headless` started at the same moment all reach done, each on its own branch, worktree and ports', async ({
    onTestFinished,
  }) => {
    const { dir, root, git, agents } = await shop(onTestFinished);
    writeFileSync(join(root, 'relevo.toml'), '[worktree]\nsetup = "echo $RELEVO_RELAY $RELEVO_PORT"\n');
    const goal = 'Add pagination to users';
    const runs = await Promise.all([0, 1, 2, 3].map((n) => relevo(['new', '--headless', '--goal', goal, ...agents(n)], root)));
    for (const r of runs) expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({ exit: 0, stderr: '' });

    const relays = relayRuns(root);
    const names = [
      'relevo/add-pagination-to-users',
      'relevo/add-pagination-to-users-2',
      'relevo/add-pagination-to-users-3',
      'relevo/add-pagination-to-users-4',
    ];
    expect(relays.map((r) => r.relay.branch).sort()).toEqual(names);
    for (const r of relays) {
      // Outside the repository, beside it; the run journaled in the main repository.
      expect(r.relay.path).toBe(join(dir, 'shop.relevo', r.relay.branch.slice('relevo/'.length)));
      expect(existsSync(join(r.relay.path, 'users.ts'))).toBe(true);
      expectDoneExactlyOnce(r);
      // Each JSON line printed names its relay.
      const printed = runs.find((p) => p.stdout.includes(`"relay":"${r.relay.branch}"`))!;
      expect(
        printed.stdout
          .split('\n')
          .filter((l) => l !== '')
          .every((l) => JSON.parse(l).relay === r.relay.branch),
      ).toBe(true);
      expect(readFileSync(join(r.dir, 'setup.log'), 'utf8')).toContain(`${r.relay.branch} ${r.relay.port}`);
    }
    const ports = relays.map((r) => r.relay.port);
    expect(new Set(ports).size).toBe(4);
    for (const a of ports) for (const b of ports) if (a !== b) expect(Math.abs(a! - b!)).toBeGreaterThanOrEqual(10);
    const listed = (await git('worktree', 'list', '--porcelain')).stdout;
    for (const name of names) expect(listed).toContain(`branch refs/heads/${name}`);
    // The repository itself stays as it was: nothing of the relays in its tree.
    expect((await git('status', '--porcelain')).stdout).toBe('?? relevo.toml');
  });

  it('a relay whose setup fails pauses setup_failed while the other finishes; --resume runs the setup again', async ({
    onTestFinished,
  }) => {
    const { root, agents } = await shop(onTestFinished);
    writeFileSync(join(root, 'relevo.toml'), '[worktree]\nsetup = "test -f ready || { echo deps missing; exit 7; }"\n');
    const [failed, fine] = await Promise.all([
      relevo(['new', '--headless', '--goal', 'Fix the login', ...agents(0)], root),
      relevo(['new', '--headless', '--goal', 'Fix the logout', '--setup', 'true', ...agents(1)], root),
    ]);
    expect(fine.exitCode).toBe(0);
    expect(failed.exitCode).toBe(3);
    expect(failed.stderr).toMatch(
      /^relevo-tui: relevo\/fix-the-login: paused: setup_failed: setup exited 7: deps missing — journal: .*; go on with: .* --resume \S+$/,
    );
    const run = relayRuns(root).find((r) => r.relay.branch === 'relevo/fix-the-login')!;
    expect(run.lines.map((l) => l.type)).toEqual(['run_started', 'goal', 'paused']);
    expect(run.lines.at(-1)).toMatchObject({ reason: 'setup_failed', detail: 'setup exited 7: deps missing' });
    // No agent was started: neither recorded a message.
    expect(readdirSync(join(root, '..', 'records')).filter((f) => f.startsWith('0-'))).toEqual([]);

    writeFileSync(join(run.relay.path, 'ready'), '');
    const resumed = await relevo(['--headless', '--resume', run.id], root);
    expect({ exit: resumed.exitCode, stderr: resumed.stderr }).toEqual({ exit: 0, stderr: '' });
    expect(readFileSync(join(run.dir, 'setup.log'), 'utf8').match(/^\$ test -f ready/gm)).toHaveLength(2);
    expectDoneExactlyOnce(relayRuns(root).find((r) => r.id === run.id)!);
  });

  it('relevo SIGKILLed with four relays mid-round, then --resume --all: all four done, none lost, none typed twice', async ({
    onTestFinished,
  }) => {
    const { root, records, agents } = await shop(onTestFinished);
    // Four relays, each relevo killed at its second checkpoint: four interrupted runs.
    const made = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        relevo(['new', '--headless', '--goal', `Task ${n}`, ...agents(n)], root, { RELEVO_FAILPOINT: 'checkpoint:2' }),
      ),
    );
    for (const m of made) expect(m.signal).toBe('SIGKILL');
    for (const r of relayRuns(root)) await until(`${r.relay.branch}'s agents to exit`, () => runProcesses(r.id).length === 0);

    // One relevo goes on with all four, and is killed once each has delivered again.
    const fleet = execa(process.execPath, [BIN, '--headless', '--resume', '--all'], { cwd: root, reject: false, stdin: 'ignore' });
    const deliveredAgain = (r: RelayRun) => {
      const resumedAt = r.lines.findIndex((l) => l.type === 'run_resumed');
      return resumedAt >= 0 && r.lines.slice(resumedAt).some((l) => l.type === 'delivered');
    };
    await until('each relay to deliver after the resume', () => relayRuns(root).every(deliveredAgain), 60_000);
    fleet.kill('SIGKILL');
    expect((await fleet).signal).toBe('SIGKILL');
    const before = new Map(relayRuns(root).map((r) => [r.id, ackedRounds(r)]));
    for (const r of relayRuns(root)) await until(`${r.relay.branch}'s agents to exit`, () => runProcesses(r.id).length === 0);
    const typedBefore = (n: number, role: Role) => recorded(join(records, `${n}-${role}.record`)).length;
    const counts = [0, 1, 2, 3].map((n) => ({ planner: typedBefore(n, 'planner'), builder: typedBefore(n, 'builder') }));

    const again = await relevo(['--headless', '--resume', '--all'], root);
    expect({ exit: again.exitCode, stderr: again.stderr }).toEqual({ exit: 0, stderr: '' });
    for (const r of relayRuns(root)) {
      expectDoneExactlyOnce(r);
      // What the last relevo typed: never a round acknowledged before it started.
      const goal = r.lines.find((l) => l.type === 'goal');
      const n = Number(goal?.type === 'goal' ? goal.text.slice('Task '.length) : Number.NaN);
      const acked = before.get(r.id)!;
      for (const role of ROLES) {
        const typed = recorded(join(records, `${n}-${role}.record`)).slice(counts[n]![role]);
        const headers = typed.flatMap((t) => {
          const h = HEADER.exec(t);
          return h ? [{ round: Number(h[1]), from: h[2] as Role }] : [];
        });
        const from: Role = role === 'planner' ? 'builder' : 'planner';
        for (const round of acked[from])
          expect(
            headers.filter((h) => h.round === round && h.from === from),
            `${r.relay.branch} ${from}/${round}`,
          ).toEqual([]);
      }
    }
  });
  it('one relay whose agent exits pauses alone: --resume --all drives the others to done and names it', async ({ onTestFinished }) => {
    const { root, records } = await shop(onTestFinished);
    // Relay 0's builder exits on its second turn after the resume; each relevo that makes a relay is killed at its second checkpoint.
    const agents = (n: number) =>
      ROLES.flatMap((role) => [
        `--${role}`,
        simCommand(
          role,
          '--record',
          join(records, `${n}-${role}.record`),
          ...(n === 0 && role === 'builder' ? ['--misbehave', 'exit:2'] : []),
        ),
      ]);
    await Promise.all(
      [0, 1, 2].map((n) => relevo(['new', '--headless', '--goal', `Task ${n}`, ...agents(n)], root, { RELEVO_FAILPOINT: 'checkpoint:2' })),
    );
    for (const r of relayRuns(root)) await until(`${r.relay.branch}'s agents to exit`, () => runProcesses(r.id).length === 0);
    const all = await relevo(['--headless', '--resume', '--all'], root);
    expect(all.exitCode).toBe(3);
    expect(all.stderr).toMatch(/^relevo-tui: relevo\/task-0: paused: agent_exited \(builder\)[^\n]*$/);
    const runs = relayRuns(root);
    for (const r of runs.filter((r) => r.relay.branch !== 'relevo/task-0')) expectDoneExactlyOnce(r);
    expect(runs.find((r) => r.relay.branch === 'relevo/task-0')?.lines.at(-1)).toMatchObject({ type: 'paused', reason: 'agent_exited' });
  });
  it("one relay's usage limit holds the others on the same CLI in one relevo; all go on at its reset and reach done", async ({
    onTestFinished,
  }) => {
    const { root, records } = await shop(onTestFinished);
    // Made with a setup that fails until RELEVO_GO is set: two relays whose goals wait, resumed together.
    writeFileSync(join(root, 'relevo.toml'), '[worktree]\nsetup = "test -n \\"$RELEVO_GO\\""\n');
    const agents = (n: number, ...builder: string[]) =>
      ROLES.flatMap((role) => [
        `--${role}`,
        simCommand(role, '--record', join(records, `${n}-${role}.record`), ...(role === 'builder' ? builder : ['--think-ms', '600'])),
      ]);
    const made = await Promise.all([
      relevo(['new', '--headless', '--goal', 'Task 0', ...agents(0, '--misbehave', 'limit:1')], root),
      relevo(['new', '--headless', '--goal', 'Task 1', ...agents(1, '--think-ms', '1500')], root),
    ]);
    for (const m of made) expect(m.stderr).toContain('paused: setup_failed');
    const all = await relevo(['--headless', '--resume', '--all'], root, { RELEVO_GO: '1' });
    expect({ exit: all.exitCode, stderr: all.stderr }).toEqual({ exit: 0, stderr: '' });
    const runs = relayRuns(root);
    const limited = (r: RelayRun) => r.lines.filter((l) => l.type === 'paused' && l.reason === 'rate_limited');
    const hit = runs.find((r) => r.relay.branch === 'relevo/task-0')!;
    const held = runs.find((r) => r.relay.branch === 'relevo/task-1')!;
    expect(limited(hit)).toMatchObject([{ role: 'builder', profile: 'sim', resume_at: expect.any(String) }]);
    // Held with the same reason and reset, no agent of its own named; both went on by themselves.
    const resetAt = (limited(hit)[0] as { resume_at?: string }).resume_at;
    expect(limited(held)).toMatchObject([{ profile: 'sim', resume_at: resetAt }]);
    expect(limited(held)[0]).not.toHaveProperty('role');
    for (const r of runs) {
      expect(
        r.lines.filter((l) => l.type === 'resumed' && l.limit_reset === true),
        r.relay.branch,
      ).toHaveLength(1);
      expectDoneExactlyOnce(r);
    }
  });
});
