/** `--host`: the agents in tmux on another machine, reached through ssh and one shared master connection. */
import { join } from 'node:path';
import type { Role } from '../../protocol/index.js';
import { MirrorPane } from '../../pty/backends/mirror.js';
import { checkHost, RemoteError, SshError, type SshHost } from '../../pty/backends/ssh.js';
import { hostTmuxSocket, launchOnHost, TmuxError, type TmuxServer, TmuxSource } from '../../pty/backends/tmux.js';
import { splitCommand } from '../config/command.js';
import type { AgentSpec } from '../config/launch.js';
import type { Backend, Options } from '../config/options.js';
import { ConfigError } from '../faults/errors.js';
import { stateDirPath } from '../store/state-dir.js';
import { requireOnHost } from './host-check.js';
import type { PaneOpener, PaneRequest } from './panes.js';

export type SshSettings = { readonly sshCommand?: readonly string[]; readonly stateDir?: string };

/** The SshHost for `destination` as relevo reaches it from the repository at `root`. */
export function hostFor(root: string, destination: string, settings: SshSettings = {}): SshHost {
  const env = process.env.RELEVO_SSH_COMMAND;
  const command = settings.sshCommand ?? (env !== undefined && env.trim() !== '' ? splitCommand(env, 'RELEVO_SSH_COMMAND') : ['ssh']);
  const controlDir = join(settings.stateDir ?? stateDirPath('.relevo', root), 'ssh');
  return { destination, command, controlDir };
}

/** Both agents (as backends.ts names them; not imported from it: it imports this). */
type Agents = Readonly<Record<Role, AgentSpec>>;

type HostBackend = Extract<Backend, { kind: 'host' }>;

/** The host of `destination` as relevo reaches it: the ssh command of the options, the master's socket in the state directory. */
export function sshHostOf(destination: string, options: Pick<Options, 'sshCommand' | 'stateDir'>, cwd = process.cwd()): SshHost {
  return hostFor(cwd, destination, { sshCommand: options.sshCommand, stateDir: stateDirPath(options.stateDir, cwd) });
}

/** An ssh or tmux failure on the host as the one line `--host` prints (exit 2). */
export async function orHostError<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SshError || error instanceof RemoteError || error instanceof TmuxError)
      throw new ConfigError('--host', error.message);
    throw error;
  }
}

/**
 * The agents on the host: the host is asked first (its user names relevo's tmux server there, a
 * refused or unreachable host is one line before anything is made), then the panes open in a new
 * session of that server, or are found again by their ids (a resumed run).
 */
export async function hostBackend(
  backend: HostBackend,
  options: Options,
  commanded: () => Agents,
  name: () => string,
): Promise<{ agents: Agents; panes: PaneOpener; tmuxSocket: string }> {
  const host = sshHostOf(backend.destination, options);
  const found = backend.panes;
  // Agents to launch: the host must have tmux and their programs (one line naming what it lacks).
  const facts = found === null ? await requireOnHost(host, { repo: null, agents: commanded() }) : null;
  const socket = backend.socket ?? hostTmuxSocket(facts?.user ?? (await orHostError(() => checkHost(host))));
  const server: TmuxServer = { socket, host };
  const mirror = (pane: string, request: PaneRequest) => MirrorPane.attach(new TmuxSource(server, pane), request.osc);
  const panes: PaneOpener =
    found === null
      ? {
          attached: false,
          host,
          open: (r) =>
            orHostError(async () => {
              const launch = (q: PaneRequest) => ({ argv: q.argv, env: q.extraEnv, cwd: q.cwd, cols: q.cols, rows: q.rows });
              const ids = await launchOnHost(host, socket, name(), launch(r.planner), launch(r.builder));
              return { planner: await mirror(ids.planner, r.planner), builder: await mirror(ids.builder, r.builder) };
            }),
        }
      : {
          attached: true,
          host,
          open: (r) =>
            orHostError(async () => ({ planner: await mirror(found.planner, r.planner), builder: await mirror(found.builder, r.builder) })),
        };
  return { agents: commanded(), panes, tmuxSocket: socket };
}
