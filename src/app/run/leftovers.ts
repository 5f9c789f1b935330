import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { quote } from 'shell-quote';
import { ROLES, type Role } from '../../protocol/index.js';
import { type TmuxServer, tmux } from '../../pty/backends/tmux.js';
import type { Pane } from '../../pty/pane.js';
import { allProcesses, endProcesses, hasEnv, type Proc, procStat } from '../../pty/procs.js';
import { type AgentRecord, lockHolder, readLock, updateOwnRecord } from '../store/locks.js';

/** How long a leftover agent gets between SIGTERM and SIGKILL. */
const LEFTOVER_GRACE_MS = 2000;

/**
 * Writes into this process's record in the run's lock the agents relevo started (panes it owns), with
 * what identifies each later: its pid, process group, session and start time. Tmux and Herdr panes are not recorded.
 */
export function recordAgents(dir: string, panes: Readonly<Record<Role, Pane>>): void {
  const agents: AgentRecord[] = ROLES.flatMap((role) => {
    const pid = panes[role].owned ? panes[role].pid : undefined;
    if (pid === undefined) return [];
    const stat = procStat(pid);
    // A pane of relevo's own makes its program a session leader (setsid in the forked child); read
    // too soon after the spawn, /proc still shows relevo's own group and session — never record those.
    const own = stat !== null && stat.sid === pid;
    return [{ role, pid, pgid: own ? stat.pgid : pid, sid: pid, start: stat?.start ?? null }];
  });
  updateOwnRecord(dir, { agents });
}

/**
 * The live processes of a recorded agent: its group and session while the agent itself is still the
 * same process (same start time); else only those that carry the run's id in their environment.
 */
function membersOf(agent: AgentRecord, runId: string): Proc[] {
  const procs = allProcesses() ?? [];
  const leader = procs.find((p) => p.pid === agent.pid);
  const same = leader !== undefined && agent.start !== null && leader.start === agent.start;
  const inRun = (p: Proc) => same || hasEnv(p.pid, `RELEVO_RUN_ID=${runId}`);
  return procs.filter((p) => (p.pid === agent.pid || p.pgid === agent.pgid || p.sid === agent.sid) && p.pid !== process.pid && inRun(p));
}

/**
 * Runs under `<stateDir>/runs` whose relevo died (its lock left by a process that is gone) may have
 * left agents running: each one still there (checked against its recorded identity) is stopped,
 * SIGTERM then SIGKILL, and `say` is told in one line per run. Without /proc, nothing is done.
 */
export async function stopLeftovers(stateDir: string, say: (line: string) => void): Promise<void> {
  const runs = join(stateDir, 'runs');
  let ids: string[];
  try {
    ids = readdirSync(runs);
  } catch {
    return;
  }
  if (procStat(process.pid) === null) return;
  for (const id of ids.sort()) {
    const dir = join(runs, id);
    const lock = readLock(dir);
    if (lock === null || lock.agents === undefined || lock.agents.length === 0 || lockHolder(dir) !== null) continue;
    const runId = basename(dir);
    const found = lock.agents.filter((a) => membersOf(a, runId).length > 0);
    if (found.length === 0) continue;
    const pids = await endProcesses(() => found.flatMap((a) => membersOf(a, runId)), LEFTOVER_GRACE_MS);
    say(`stopped ${found.length} agent${found.length === 1 ? '' : 's'} left running by run ${runId} (pids ${pids.join(', ')})`);
  }
}

/** Where the tmux panes are now: each one's session and window names (a pane tmux no longer has is left out). */
async function tmuxPlaces(server: TmuxServer, panes: readonly string[]): Promise<{ session: string; window: string }[]> {
  const places = [];
  for (const pane of panes) {
    const out = await tmux(server, ['display-message', '-p', '-t', pane, '#{pane_id}\t#{session_name}\t#{window_name}']).catch(() => '');
    const [id = '', session = '', window = ''] = out.replace(/\n$/, '').split('\t');
    if (id === pane) places.push({ session, window });
  }
  return places;
}

/**
 * Where agents relevo does not own live on after it exits (tmux or Herdr panes), for its exit line:
 * `; the agents live on: planner in tmux %3, builder in tmux %4 (tmux -L sock)`, or '' when relevo owned them.
 * Agents still in the session or window `--tmux-launch` opened for run `runId` (`relevo-<runId>`) are
 * named by it, with the command that shows them: `; the agents live on in tmux session relevo-<runId>:
 * … (attach: tmux -L sock attach -t relevo-<runId>)`.
 */
export async function livesOn(panes: Readonly<Record<Role, Pane>>, tmuxSocket: string | null, runId: string): Promise<string> {
  // A pane whose agent (or tmux server) is gone keeps nothing.
  const kept = ROLES.filter((role) => !panes[role].owned && panes[role].exited === null);
  if (kept.length === 0) return '';
  const where = kept.map((role) => `${role} in ${panes[role].where}`).join(', ');
  const inTmux = kept.map((role) => /^tmux (%\d+)$/.exec(panes[role].where)?.[1]).filter((p) => p !== undefined);
  const places = inTmux.length === kept.length ? await tmuxPlaces({ socket: tmuxSocket }, inTmux) : [];
  const name = `relevo-${runId}`;
  // A command to copy: quoted for a shell only where a word needs it (`relevo:relevo-…` stays as it is).
  const tmuxArgv = (...args: string[]) =>
    ['tmux', ...(tmuxSocket !== null ? ['-L', tmuxSocket] : []), ...args]
      .map((a) => (/^[\w%@:.,/=+-]+$/.test(a) ? a : quote([a])))
      .join(' ');
  if (places.length === kept.length && places.every((p) => p.session === name))
    return `; the agents live on in tmux session ${name}: ${where} (attach: ${tmuxArgv('attach', '-t', name)})`;
  const session = places[0]?.session ?? '';
  if (places.length === kept.length && places.every((p) => p.window === name && p.session === session))
    return `; the agents live on in tmux window ${name} of session ${session}: ${where} (see them: ${tmuxArgv('select-window', '-t', `${session}:${name}`)})`;
  const socket = tmuxSocket !== null && inTmux.length > 0 ? ` (tmux -L ${tmuxSocket})` : '';
  return `; the agents live on: ${where}${socket}`;
}
