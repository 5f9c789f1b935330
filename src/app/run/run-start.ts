import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../../protocol/index.js';
import type { Pane } from '../../pty/pane.js';
import { untestedEntry } from '../config/versions.js';
import type { RunnerOptions } from './run-options.js';

/**
 * The run's first journal lines, before any agent is watched: `run_started` (with the link nonce)
 * or `run_resumed` (with what was pending), then each agent whose CLI release is untested, then the
 * state of mnemosyne with `--memory`. A line that cannot be written throws: the run does not start.
 */
export function journalRunStart(
  options: RunnerOptions,
  panes: Readonly<Record<Role, Pane>>,
  hookSocket: string | null,
  /** The run this one follows (a next goal after `done`, same agents). */
  follows?: string,
): void {
  const { journal } = options;
  const agentInfo = (role: Role) => {
    const { argv, profile, cli } = options.agents[role];
    return {
      command: [...argv],
      profile: profile.data.id,
      ...(panes[role].owned ? {} : { pane: panes[role].where }),
      ...(cli?.status === 'found' ? { cli_version: cli.version } : {}),
    };
  };
  const socket = hookSocket !== null ? { hook_socket: hookSocket } : {};
  if (options.restored) {
    const p = options.restored.pending;
    journal.append({
      type: 'run_resumed',
      version: options.version,
      planner: agentInfo('planner'),
      builder: agentInfo('builder'),
      ...(p ? { pending_kind: p.kind, pending_to: p.to, pending_round: p.round } : {}),
      ...socket,
    });
  } else {
    // The link nonce: it stays in the journal, never in what an agent sees.
    journal.append({
      type: 'run_started',
      run_id: options.runId,
      version: options.version,
      nonce: randomBytes(16).toString('hex'),
      cwd: options.cwd,
      max_rounds: options.maxRounds,
      lang: options.lang,
      planner: agentInfo('planner'),
      builder: agentInfo('builder'),
      ...socket,
      ...(options.tmuxSocket ? { tmux_socket: options.tmuxSocket } : {}),
      ...(follows !== undefined ? { follows } : {}),
    });
  }
  for (const role of ROLES) {
    const entry = untestedEntry(role, options.agents[role]);
    if (entry) journal.append(entry);
  }
  const memory = options.memory;
  if (memory) {
    const st = memory.status;
    journal.append(
      st.state === 'ready'
        ? { type: 'memory', state: 'ready', bank: st.bank }
        : { type: 'memory', state: 'blocked', detail: st.detail.slice(0, 240) },
    );
  }
}
