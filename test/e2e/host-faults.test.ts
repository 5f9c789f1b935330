/**
 * Faults of a relay whose agents run on the test host: local relevo killed while the agents live on
 * in the host's tmux, and the host's tmux server gone (a reboot). Each relay still reaches `done`
 * with every handoff delivered exactly once.
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/app/store/checkpoints.js';
import type { Role } from '../../src/protocol/index.js';
import { BIN, recorded, relevo, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { expectDoneExactlyOnce, type RelayRun, relayRuns } from '../helpers/relay-runs.js';
import { testHostPerFile } from '../helpers/ssh-host.js';
import { until } from '../helpers/until.js';

const host = testHostPerFile();
const GOAL = 'Add pagination';
const HEADER = /^\[relevo ronda (\d+) · de (planner|builder)\]$/m;
const ROLES: Role[] = ['planner', 'builder'];
/**
 * Where relevo SIGKILLs itself (`RELEVO_FAILPOINT`) while the agents go on on the host: a turn's end
 * seen, a handoff checkpointed, offered, pasted and not sent, Enter pressed, its submit confirmed and
 * not acknowledged (the agent took it: found in its conversation, not typed again), acknowledged, journaled.
 */
const KILLED_AT = ['turn-end:2', 'checkpoint:1', 'offer:2', 'pasted:2', 'entered:2', 'confirmed:3', 'ack:2', 'delivered:3'];

/** A repository to start relays in, the files the host's simulated agents record what they are typed into, and the ssh command. */
async function setup() {
  const dir = realpathSync(tempDir('relevo-host-faults-'));
  const root = join(dir, 'shop');
  mkdirSync(root);
  await gitRepo(root);
  const record = (role: Role) => join(dir, `${role}.record`);
  // The host's relevo-tui (its PATH) runs the simulators; the host sees this machine's /tmp.
  const sim = (role: Role) => quote(['relevo-tui', 'sim-agent', '--role', role, '--think-ms', '300', '--record', record(role)]);
  const env = { RELEVO_SSH_COMMAND: quote([...host().sshCommand]) };
  const args = [
    'new',
    '--headless',
    '--host',
    host().destination,
    '--goal',
    GOAL,
    '--planner',
    sim('planner'),
    '--builder',
    sim('builder'),
  ];
  /** The round headers `role` was typed, in order (`from/round`). */
  const headers = (role: Role) =>
    recorded(record(role)).flatMap((text) => {
      const h = HEADER.exec(text);
      return h ? [`${h[2]}/${h[1]}`] : [];
    });
  /** What `role` was typed that carries a round header: the header must be its first line. */
  const headed = (role: Role) => recorded(record(role)).filter((text) => HEADER.test(text));
  return { dir, root, env, args, headers, headed, done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The run's checkpoints on disk: `from/round` of those acknowledged, and of those not. */
function checkpoints(run: RelayRun) {
  const all = new CheckpointStore(run.dir, run.id).readAll();
  const key = (c: (typeof all)[number]) => `${c.checkpoint.from}/${c.checkpoint.round}`;
  return { acked: all.filter((c) => c.acked).map(key), pending: all.filter((c) => !c.acked).map(key) };
}

/** Every handoff of both lanes typed into its receiver exactly once: rounds 1 to 3 each way. */
function expectEachHeaderOnce(headers: (role: Role) => string[]) {
  expect(headers('builder')).toEqual(['planner/1', 'planner/2', 'planner/3']);
  expect(headers('planner')).toEqual(['builder/1', 'builder/2', 'builder/3']);
}

/** A session writing fast and a control client of it whose output no one reads, left running on the host. */
const STALLED_CLIENT = [
  'tmux -L "$1" new-session -d -s stall "yes | head -c 2000000; sleep 600"',
  'mkfifo "$2/stalled"',
  'setsid sh -c \'exec 3<>"$2/stalled"; sleep 600 | tmux -L "$1" -C attach -t stall > "$2/stalled"\' sh "$1" "$2" >/dev/null 2>&1 &',
].join('\n');

describe('faults of a relay on a host', () => {
  it.each(KILLED_AT)(
    'local relevo SIGKILLed at %s, the agents live on on the host: --resume finds them, done, every handoff once',
    async (point) => {
      const s = await setup();
      const killed = await relevo(s.args, s.root, { ...s.env, RELEVO_FAILPOINT: point });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const [before] = relayRuns(s.root);
      expect(before!.lines.some((l) => l.type === 'done')).toBe(false);
      const started = before!.lines.find((l) => l.type === 'run_started');
      if (started?.type !== 'run_started') throw new Error('no run_started');
      // The agents lived on: their panes are still on the host's tmux server.
      const socket = started.tmux_socket!;
      const panes = ROLES.map((role) => /^tmux (%\d+) on /.exec(started[role].pane ?? '')?.[1]);
      const listed = await host().exec(['tmux', '-L', socket, 'list-panes', '-a', '-F', '#{pane_id}']);
      for (const pane of panes) expect(listed.split('\n')).toContain(pane);

      const resumed = await relevo(['--headless', '--resume'], s.root, s.env);
      expect({ exit: resumed.exitCode, stderr: resumed.stderr }).toEqual({ exit: 0, stderr: '' });
      const [run, ...others] = relayRuns(s.root);
      expect(others).toEqual([]);
      expect(run!.lines.filter((l) => l.type === 'run_resumed')).toHaveLength(1);
      // Found again, not launched anew: the resumed run names the same panes.
      const again = run!.lines.find((l) => l.type === 'run_resumed');
      if (again?.type !== 'run_resumed') throw new Error('no run_resumed');
      expect([again.planner.pane, again.builder.pane]).toEqual([started.planner.pane, started.builder.pane]);
      expectDoneExactlyOnce(run!);
      // The same two agents the whole run: each handoff typed once, none lost, none twice.
      expectEachHeaderOnce(s.headers);
      // They lived on and know the run: no restart notice or role prompt goes before a round header.
      for (const role of ROLES) for (const text of s.headed(role)) expect(text.split('\n')[0]).toMatch(/^\[relevo ronda \d+ · de \w+\]$/);
      s.done();
    },
    180_000,
  );

  // The server the test kills waits there for a client of an earlier relevo whose ssh channel stalled
  // (seen under load): relevo ends what is left of it once it refuses clients for seconds.
  it("the host's tmux server killed mid-run (a reboot): paused agent_exited saying so, --resume starts the agents again there, done, every handoff once", async () => {
    const s = await setup();
    const child = execa(process.execPath, [BIN, ...s.args], {
      cwd: s.root,
      reject: false,
      stdin: 'ignore',
      env: { LANG: 'C.UTF-8', npm_command: '', ...s.env },
    });
    // Mid-run: the builder has been typed the planner's first handoff.
    await until('round 1 typed into the builder', () => s.headers('builder').length >= 1, 60_000);
    const [run0] = relayRuns(s.root);
    const started = run0!.lines.find((l) => l.type === 'run_started');
    if (started?.type !== 'run_started') throw new Error('no run_started');
    // A client that never reads (its channel stalled) holds the killed server: it lingers, refusing every client.
    await host().exec(['sh', '-c', STALLED_CLIENT, 'sh', started.tmux_socket!, s.dir]);
    await until(
      'the stalled client attached',
      async () => (await host().exec(['tmux', '-L', started.tmux_socket!, 'list-clients'])).includes('stall'),
      30_000,
    );
    await host().exec(['tmux', '-L', started.tmux_socket!, 'kill-server']);
    const gone = ['sh', '-c', 'tmux -L "$1" list-sessions >/dev/null 2>&1 || echo gone', 'sh', started.tmux_socket!];
    await until('the host tmux server gone', async () => (await host().exec(gone)).includes('gone'), 30_000);
    const paused = await child;
    expect(paused.exitCode, paused.stderr).toBe(3);
    expect(paused.stderr.trim().split('\n')).toHaveLength(1);
    expect(paused.stderr).toContain(`paused: agent_exited`);
    expect(paused.stderr).toContain(`the tmux server on ${host().destination} is gone`);
    const [run1] = relayRuns(s.root);
    const pause = run1!.lines.filter((l) => l.type === 'paused').at(-1);
    expect(pause).toMatchObject({ reason: 'agent_exited' });
    expect(pause?.type === 'paused' ? pause.detail : '').toMatch(new RegExp(`^the tmux server on ${host().destination} is gone \\(`));
    const before = checkpoints(run1!);
    const typedBefore = { planner: s.headers('planner').length, builder: s.headers('builder').length };

    // The worktree is still there; the agents start again in it, on the host.
    const resumed = await relevo(['--headless', '--resume'], s.root, s.env);
    expect({ exit: resumed.exitCode, stderr: resumed.stderr }).toEqual({ exit: 0, stderr: '' });
    const [run] = relayRuns(s.root);
    const again = run!.lines.find((l) => l.type === 'run_resumed');
    if (again?.type !== 'run_resumed') throw new Error('no run_resumed');
    expect(again.planner.pane).toMatch(new RegExp(`^tmux %\\d+ on ${host().destination}$`));
    expectDoneExactlyOnce(run!);
    // Each in a new session of the run's on the host's new server, in the relay's worktree.
    const format = '#{session_name} #{pane_current_path}';
    const panes = (await host().exec(['tmux', '-L', started.tmux_socket!, 'list-panes', '-a', '-F', format])).split('\n');
    const path = run!.relay.path;
    expect(panes.map((p) => p.replace(/-[0-9a-f]{4} /, ' ')).sort()).toEqual([
      `relevo-${run!.id}-builder ${path}`,
      `relevo-${run!.id}-planner ${path}`,
    ]);
    // What relevo put in the worktree for the agents to read is no change of theirs.
    expect(await host().exec(['git', '-C', run!.relay.path, 'status', '--porcelain'])).toBe('');
    // The new agents were typed what was pending, once, and nothing acknowledged before the reboot.
    const typedAfter = ROLES.flatMap((role) => s.headers(role).slice(typedBefore[role]));
    for (const h of before.acked)
      expect(
        typedAfter.filter((t) => t === h),
        `${h} acked before`,
      ).toEqual([]);
    for (const h of before.pending)
      expect(
        typedAfter.filter((t) => t === h),
        `${h} pending`,
      ).toHaveLength(1);
    expect(new Set(typedAfter).size).toBe(typedAfter.length);
    s.done();
  }, 180_000);
});
