/** `--host`: the agents in tmux on another machine, reached through ssh and one shared master connection. */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ROLES, type Role } from '../../protocol/index.js';
import { MirrorPane } from '../../pty/backends/mirror.js';
import { checkHost, onHost, RemoteError, SshError, type SshHost } from '../../pty/backends/ssh.js';
import { hostTmuxSocket, launchOnHost, TmuxError, type TmuxLaunch, type TmuxServer, TmuxSource } from '../../pty/backends/tmux.js';
import { tmux } from '../../pty/backends/tmux-control.js';
import type { Pane } from '../../pty/pane.js';
import { splitCommand } from '../config/command.js';
import type { AgentSpec } from '../config/launch.js';
import type { Backend, Options } from '../config/options.js';
import { ConfigError } from '../faults/errors.js';
import { stateDirPath } from '../store/state-dir.js';
import { requireOnHost } from './host-check.js';
import { launchOne, onLiveServer } from './host-server.js';
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

const launchOf = (q: PaneRequest): TmuxLaunch => ({ argv: q.argv, env: q.extraEnv, cwd: q.cwd, cols: q.cols, rows: q.rows });

/** The first directory of a relative path (`.relevo` of `.relevo/runs/…`), else ''. */
function topOf(path: string): string {
  const top = path.startsWith('/') || !path.includes('/') ? '' : path.slice(0, path.indexOf('/'));
  return top === '.' || top === '..' ? '' : top;
}

/**
 * Writes `text` to `path` on the host, a relative path from `cwd` (the relay's worktree there): its
 * directories made, its top one ignored by git (`*`), so the agents never commit relevo's files.
 */
const PUBLISH_SCRIPT = [
  'set -e',
  'cd "$1"',
  'mkdir -p "$(dirname "$2")"',
  'if [ -n "$3" ] && [ ! -e "$3/.gitignore" ]; then printf \'*\\n\' > "$3/.gitignore"; fi',
  'cat > "$2"',
].join('\n');

/**
 * The agents on the host: the host is asked first (its user names relevo's tmux server there, a
 * refused or unreachable host is one line before anything is made), then the panes open in a new
 * session of that server, or are found again by their ids (a resumed run). A pane that is gone
 * (the host rebooted, the agent ended) is started again in the relay's worktree there, as `r`
 * (reopen) starts an exited one.
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
  // A server killed a moment ago may still take a session and end under it: started again on the next one.
  const reopen = (role: Role, r: PaneRequest) =>
    orHostError(() =>
      onLiveServer(server, async () =>
        mirror(await launchOne(server, `${name()}-${role}-${randomBytes(2).toString('hex')}`, launchOf(r)), r),
      ),
    );
  /**
   * The pane found again, or null when it (or its server) is gone; ssh's failure goes on. A server
   * started anew numbers its panes from %0 again: a pane of another session is not this run's.
   */
  const refind = async (pane: string, r: PaneRequest) => {
    try {
      const session = (await tmux(server, ['display-message', '-p', '-t', pane, '#{session_name}'])).trim();
      return session === name() || session.startsWith(`${name()}-`) ? await mirror(pane, r) : null;
    } catch (error) {
      if (error instanceof TmuxError) return null;
      throw error;
    }
  };
  // Where the agents run (the relay's worktree there), as the last request to start one said.
  let cwd: string | null = null;
  // The roles whose panes a resumed run found again (their agents lived on).
  const lived = new Set<Role>();
  const publish = async (path: string, text: string) => {
    if (cwd !== null)
      await orHostError(() => onHost(host, ['sh', '-c', PUBLISH_SCRIPT, 'sh', cwd!, path, topOf(path)], text, { timeoutMs: 30_000 }));
  };
  const panes: PaneOpener =
    found === null
      ? {
          attached: false,
          host,
          open: (r) =>
            orHostError(async () => {
              cwd = r.planner.cwd;
              const pair = async () => {
                const ids = await launchOnHost(host, socket, name(), launchOf(r.planner), launchOf(r.builder));
                return { planner: await mirror(ids.planner, r.planner), builder: await mirror(ids.builder, r.builder) };
              };
              // Half a pair made on a server that ended under it is taken away before the pair is made again.
              return onLiveServer(server, pair, () => tmux(server, ['kill-session', '-t', name()]));
            }),
          reopen,
          publish,
        }
      : {
          attached: true,
          host,
          livedOn: (role) => lived.has(role),
          open: (r) =>
            orHostError(async () => {
              cwd = r.planner.cwd;
              const again = { planner: await refind(found.planner, r.planner), builder: await refind(found.builder, r.builder) };
              // One after the other: two sessions made at once on a server that is gone would each start one.
              const panes: Partial<Record<Role, Pane>> = {};
              for (const role of ROLES) {
                if (again[role]) lived.add(role);
                panes[role] = again[role] ?? (await reopen(role, r[role]));
              }
              return panes as Record<Role, Pane>;
            }),
          reopen,
          publish,
        };
  return { agents: commanded(), panes, tmuxSocket: socket };
}
