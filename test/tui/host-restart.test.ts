/**
 * `C-] r` after the host's tmux server went away (a reboot), as people meet it: relevo-tui in a real
 * tmux server here, the relay's agents on the test host; the host's server is killed mid-turn, the
 * band says the agents exited, `C-] r` starts both again on the host and the relay reaches done.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/protocol/index.js';
import { recorded, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { expectDoneExactlyOnce, relayRuns } from '../helpers/relay-runs.js';
import { testHostPerFile } from '../helpers/ssh-host.js';
import { band, freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';

const host = testHostPerFile();
freshTmuxServers();

describe("C-] r after the host's tmux server is gone", () => {
  it('starts both agents again on the host, in the relay worktree, and the relay reaches done with each handoff once', async () => {
    const dir = realpathSync(tempDir('relevo-host-restart-'));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    const record = (role: Role) => join(dir, `${role}.record`);
    const sim = (role: Role, think: string) =>
      quote(['relevo-tui', 'sim-agent', '--role', role, '--think-ms', think, '--record', record(role)]);
    const env = [`RELEVO_SSH_COMMAND=${quote([...host().sshCommand])}`];
    const args = ['new', '--host', host().destination, '--goal', 'Add pagination', '--planner', sim('planner', '300')];
    await start(180, 50, [...args, '--builder', sim('builder', '4000')], env, root);

    // Round 1 reached the builder, which is working on it: the host's tmux server goes away.
    await untilScreen(
      'round 1 with the builder',
      (s) => band(s).includes('turn: builder') && recorded(record('builder')).length === 1,
      60_000,
    );
    const [run0] = relayRuns(root);
    const started = run0!.lines.find((l) => l.type === 'run_started');
    if (started?.type !== 'run_started') throw new Error('no run_started');
    await host().exec(['tmux', '-L', started.tmux_socket!, 'kill-server']);
    const paused = await untilScreen('the pause', (s) => band(s).includes('paused: agent_exited'));
    expect(band(paused)).toMatch(/ · (planner and builder|builder|planner) exited: C-\] r starts (them|it) again$/);

    await keys('C-]', 'r');
    const done = await untilScreen('done', (s) => / · done$/.test(band(s)), 120_000);
    expect(band(done)).not.toContain('exited');

    const [run] = relayRuns(root);
    expectDoneExactlyOnce(run!);
    // Both started again on the host: the journal names their new panes there (a --resume finds them).
    const restarted = run!.lines.flatMap((l) => (l.type === 'agent_restarted' ? [l] : []));
    expect(restarted.map((l) => l.role).sort()).toEqual(['builder', 'planner']);
    for (const l of restarted) expect(l.pane).toMatch(new RegExp(`^tmux %\\d+ on ${host().destination}$`));
    const format = '#{pane_id} #{pane_current_path}';
    const panes = (await host().exec(['tmux', '-L', started.tmux_socket!, 'list-panes', '-a', '-F', format])).split('\n').sort();
    expect(panes).toEqual(restarted.map((l) => `${/%\d+/.exec(l.pane ?? '')?.[0]} ${run!.relay.path}`).sort());
    // The new builder was told where round 1 is, never typed it again; every handoff reached its receiver once.
    const headers = (role: Role) => recorded(record(role)).flatMap((t) => /^\[relevo ronda \d+ · de \w+\]/m.exec(t)?.[0] ?? []);
    expect(headers('builder')).toEqual(['[relevo ronda 1 · de planner]', '[relevo ronda 2 · de planner]', '[relevo ronda 3 · de planner]']);
    expect(headers('planner')).toEqual(['[relevo ronda 1 · de builder]', '[relevo ronda 2 · de builder]', '[relevo ronda 3 · de builder]']);
    expect(recorded(record('builder'))[1]).toMatch(
      /^relevo restarted you \(your process had exited\) while you were working on round 1 from the planner\./,
    );
  }, 240_000);
});
