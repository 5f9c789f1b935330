/** Where a run's agents are (relevo's terminals, tmux, Herdr, a host) and where relevo itself works for it. */
import type { JournalLine, RelayInfo } from '../../protocol/index.js';
import type { Options } from '../config/options.js';
import { withCliVersions } from '../config/versions.js';
import type { Resumable } from '../store/rebuild.js';
import type { Agents } from './backends.js';
import { sshHostOf } from './host-backend.js';
import { hostVersionReader } from './host-check.js';

/** The tmux server (`-L`) the agents run on, when it has a name. */
export const tmuxSocketOf = (o: Options, b?: { tmuxSocket?: string }): string | null =>
  b?.tmuxSocket ?? (o.backend.kind === 'tmux' || o.backend.kind === 'host' ? o.backend.socket : null);
/** Where relevo works for a relay: its worktree, or (its worktree on a host) the repository it was started in. */
export const localCwd = (relay: RelayInfo | undefined): string =>
  relay !== undefined && relay.host === undefined ? relay.path : process.cwd();
/** The agents' CLI versions, read where they run (on a host, through its master connection). */
export const versioned = (o: Options, agents: Agents, env: NodeJS.ProcessEnv) =>
  withCliVersions(agents, env, o.backend.kind === 'host' ? hostVersionReader(sshHostOf(o.backend.destination, o)) : undefined);

/** Each agent's pane as the journal last names it: `run_started`'s, unless a resume or a restart moved it. */
function lastPanes(started: Extract<JournalLine, { type: 'run_started' }>, lines: readonly JournalLine[] = []): [string, string] {
  const at = { planner: started.planner.pane ?? '', builder: started.builder.pane ?? '' };
  for (const l of lines) {
    if (l.type === 'run_resumed') Object.assign(at, { planner: l.planner.pane ?? at.planner, builder: l.builder.pane ?? at.builder });
    else if (l.type === 'agent_restarted' && l.pane !== undefined) at[l.role] = l.pane;
  }
  return [at.planner, at.builder];
}

/** Where a run's agents ran, from its journal: tmux (`tmux %3`, on a host `tmux %3 on HOST`) or Herdr panes (by id), else relevo's own. */
export function recordedBackend(
  started: Extract<JournalLine, { type: 'run_started' }>,
  lines: readonly JournalLine[] = [],
): Options['backend'] {
  const [planner, builder] = lastPanes(started, lines).map((p) => /^(tmux|herdr) (\S+)(?: on \S+)?$/.exec(p));
  const host = started.worktree?.host;
  if (!planner || !builder || planner[1] !== builder[1])
    return host !== undefined ? { kind: 'host', destination: host, socket: started.tmux_socket ?? null, panes: null } : { kind: 'local' };
  const panes = { planner: planner[2]!, builder: builder[2]! };
  if (host !== undefined) return { kind: 'host', destination: host, socket: started.tmux_socket ?? null, panes };
  return planner[1] === 'tmux' ? { kind: 'tmux', socket: started.tmux_socket ?? null, panes } : { kind: 'herdr', panes };
}

/** What a resumed run goes on with: agents that ran in tmux, Herdr or on a host are found where the journal last names them, unless flags say otherwise. */
export const resumedWhere = (o: Options, found: Resumable): Options =>
  o.backend.kind === 'local' && found.rebuild === null ? { ...o, backend: recordedBackend(found.started, found.lines) } : o;
