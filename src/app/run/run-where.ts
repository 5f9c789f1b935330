/** Where a run's agents are (relevo's terminals, tmux, Herdr, a host) and where relevo itself works for it. */
import type { JournalLine, RelayInfo } from '../../protocol/index.js';
import { sshArgv } from '../../pty/backends/ssh.js';
import type { Options } from '../config/options.js';
import { withCliVersions } from '../config/versions.js';
import type { Agents } from './backends.js';
import { sshHostOf } from './host-backend.js';

/** The tmux server (`-L`) the agents run on, when it has a name. */
export const tmuxSocketOf = (o: Options, b?: { tmuxSocket?: string }): string | null =>
  b?.tmuxSocket ?? (o.backend.kind === 'tmux' || o.backend.kind === 'host' ? o.backend.socket : null);
/** Where relevo works for a relay: its worktree, or (its worktree on a host) the repository it was started in. */
export const localCwd = (relay: RelayInfo | undefined): string =>
  relay !== undefined && relay.host === undefined ? relay.path : process.cwd();
/** The agents' CLI versions, read where they run (on a host, through its ssh master). */
export function versioned(o: Options, agents: Agents, env: NodeJS.ProcessEnv) {
  if (o.backend.kind !== 'host') return withCliVersions(agents, env);
  const host = sshHostOf(o.backend.destination, o);
  return withCliVersions(agents, env, (argv) => sshArgv(host, argv));
}

/** Where a run's agents ran, from its `run_started` line: tmux (`tmux %3`, on a host `tmux %3 on HOST`) or Herdr panes (by id), else relevo's own. */
export function recordedBackend(started: Extract<JournalLine, { type: 'run_started' }>): Options['backend'] {
  const [planner, builder] = [started.planner.pane ?? '', started.builder.pane ?? ''].map((p) =>
    /^(tmux|herdr) (\S+)(?: on \S+)?$/.exec(p),
  );
  const host = started.worktree?.host;
  if (!planner || !builder || planner[1] !== builder[1])
    return host !== undefined ? { kind: 'host', destination: host, socket: started.tmux_socket ?? null, panes: null } : { kind: 'local' };
  const panes = { planner: planner[2]!, builder: builder[2]! };
  if (host !== undefined) return { kind: 'host', destination: host, socket: started.tmux_socket ?? null, panes };
  return planner[1] === 'tmux' ? { kind: 'tmux', socket: started.tmux_socket ?? null, panes } : { kind: 'herdr', panes };
}
