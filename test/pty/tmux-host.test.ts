/**
 * Panes on a host's tmux server through ssh, against the real test host: launched, mirrored, typed
 * into, through a master connection that is closed, a link that is cut, a server that is killed.
 */
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MirrorPane } from '../../src/pty/backends/mirror.js';
import { checkHost, closeMaster, type SshHost } from '../../src/pty/backends/ssh.js';
import { hostTmuxSocket, launchOnHost, type TmuxLaunch, TmuxSource } from '../../src/pty/backends/tmux.js';
import { tempDir } from '../helpers/cli.js';
import { startTestHost, type TestHost } from '../helpers/ssh-host.js';
import { Undo } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

let host: TestHost;
let ssh: SshHost;
const undo = new Undo();
let launched = 0;
beforeAll(async () => {
  host = await startTestHost();
  ssh = { destination: host.destination, command: host.sshCommand, controlDir: tempDir('relevo-ctl-') };
}, 60_000);
afterAll(async () => {
  try {
    await undo.run();
  } finally {
    // The master first: the host's sshd is only done once its sessions are.
    if (ssh) await closeMaster(ssh);
    await host?.stop();
    if (ssh) rmSync(ssh.controlDir, { recursive: true, force: true });
  }
});

/** A line-echoing program (no shell: a pane back at a shell reads as the agent gone): its env's RELEVO_MARK first, then each line it reads as `<name> got: <line>`. */
const ECHO = `console.log(process.argv[1] + ' mark=' + process.env.RELEVO_MARK);
require('node:readline').createInterface({ input: process.stdin }).on('line', (l) => console.log(process.argv[1] + ' got: ' + l));`;
const echo = (name: string, cwd: string): TmuxLaunch => ({
  argv: ['node', '-e', ECHO, name],
  env: { RELEVO_MARK: `${name}-env` },
  cwd,
  cols: 60,
  rows: 12,
});

const text = (pane: MirrorPane) => pane.screen.snapshot().viewport.join('\n');

/** Two panes launched on the host's server `socket` and mirrored here. */
async function pair(socket: string, name: string) {
  const ids = await launchOnHost(ssh, socket, `${name}-${++launched}`, echo('planner', homedir()), echo('builder', homedir()));
  const server = { socket, host: ssh };
  const planner = await MirrorPane.attach(new TmuxSource(server, ids.planner));
  const builder = await MirrorPane.attach(new TmuxSource(server, ids.builder));
  undo.add(
    () => planner.dispose(),
    () => builder.dispose(),
  );
  return { ids, planner, builder };
}

const hostTmux = (socket: string, ...args: string[]) => host.exec(['tmux', '-L', socket, ...args]);

describe('tmux on a host through ssh', () => {
  it('checks the host by the remote user’s name', async () => {
    expect(await checkHost(ssh)).toBe('root');
  });

  it('launches two panes there with their env, mirrors them and types into one', async () => {
    const socket = hostTmuxSocket('pair');
    const { planner, builder } = await pair(socket, 'r1');
    expect(planner.where).toMatch(/^tmux %\d+ on relevo-test-host$/);
    await until(
      'both panes started with their env',
      () => text(planner).includes('planner mark=planner-env') && text(builder).includes('builder mark=builder-env'),
    );
    planner.write('hello there\r');
    await until('the typed line echoed in the planner’s mirror', () => text(planner).includes('planner got: hello there'));
    expect(text(builder)).not.toContain('got:');
    planner.paste("a 'pasted' $line", '\r');
    planner.write('\r');
    await until('the pasted line echoed', () => text(planner).includes("planner got: a 'pasted' $line"));
    expect((await hostTmux(socket, 'list-panes', '-a', '-F', '#{pane_id}')).split('\n')).toHaveLength(2);
  });

  it('goes on through a new master after the master is closed; the panes and their server live on', async () => {
    const socket = hostTmuxSocket('master');
    const { planner } = await pair(socket, 'r2');
    await until('the planner started', () => text(planner).includes('planner mark='));
    await closeMaster(ssh);
    // The server was started from an ssh session that has ended, and its master is gone too.
    expect(await hostTmux(socket, 'list-sessions', '-F', '#{session_name}')).toMatch(/^r2-\d+$/);
    planner.write('after the master\r');
    await until('typed through a new master', () => text(planner).includes('planner got: after the master'));
    expect(planner.exited).toBeNull();
    expect(planner.unreachable).toBeNull();
  });

  it('ends the mirror saying the host’s tmux server is gone when it is killed', async () => {
    const socket = hostTmuxSocket('killed');
    const { planner, builder } = await pair(socket, 'r3');
    await until('the planner started', () => text(planner).includes('planner mark='));
    await hostTmux(socket, 'kill-server');
    await until('both mirrors ended', () => planner.exited !== null && builder.exited !== null);
    expect(planner.exited?.reason).toMatch(/^the tmux server on relevo-test-host is gone \((no server running|error connecting to)/);
    expect(planner.unreachable).toBeNull();
  });

  it('says unreachable (not exit) while the link is cut, keeps the screen, and goes on once it is back', async (context) => {
    if (host.netns === null) {
      console.warn('no network namespace here: the link-cut test is skipped');
      context.skip();
    }
    const socket = hostTmuxSocket('cut');
    const { planner } = await pair(socket, 'r4');
    planner.write('before the cut\r');
    await until('typed before the cut', () => text(planner).includes('planner got: before the cut'));
    await host.cut();
    let restored = false;
    undo.add(() => (restored ? undefined : host.restore()));
    await until('the mirror says unreachable', () => planner.unreachable !== null, 60_000);
    expect(planner.unreachable).toMatch(/relevo-test-host|ssh:|10\./);
    expect(planner.exited).toBeNull();
    expect(text(planner)).toContain('planner got: before the cut');
    await host.restore();
    restored = true;
    await until('reachable again', () => planner.unreachable === null, 90_000);
    planner.write('after the cut\r');
    await until('typed after the cut', () => text(planner).includes('planner got: after the cut'));
    expect(planner.exited).toBeNull();
  }, 180_000);
});
