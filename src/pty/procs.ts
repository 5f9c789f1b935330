import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A process as `/proc/<pid>/stat` shows it: its group, its session and its start time (clock ticks since boot). */
export type Proc = { readonly pid: number; readonly state: string; readonly pgid: number; readonly sid: number; readonly start: string };

const POLL_MS = 50;
/** How long a SIGKILLed process may take to go, at most, before relevo stops waiting for it. */
const KILL_WAIT_MS = 3000;

/** `/proc/<pid>/stat`, or null when the process is gone or there is no /proc (not Linux). */
export function procStat(pid: number): Proc | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, , pgid, sid] = fields;
  const start = fields[19];
  if (state === undefined || pgid === undefined || sid === undefined || start === undefined) return null;
  return { pid, state, pgid: Number(pgid), sid: Number(sid), start };
}

/** Whether this system has a /proc to read processes from. */
export function hasProc(): boolean {
  return procStat(process.pid) !== null;
}

/** Every live process (zombies left out), or null without /proc. */
export function allProcesses(): Proc[] | null {
  if (!hasProc()) return null;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return null;
  }
  return names.flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    const p = procStat(Number(name));
    return p !== null && p.state !== 'Z' && p.state !== 'X' ? [p] : [];
  });
}

/** Whether `pid`'s environment holds `NAME=value` (false when it cannot be read). */
export function hasEnv(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/**
 * The processes of the session or process group `leader` started (an agent's pseudo-terminal child
 * is a session leader: its pid is its group's and its session's id), or null without /proc.
 */
export function sessionOf(leader: number): Proc[] | null {
  return allProcesses()?.filter((p) => p.pid === leader || p.pgid === leader || p.sid === leader) ?? null;
}

function signal(target: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(target, sig);
    return true;
  } catch {
    return false;
  }
}

/** Signals each process, and each whole group among them (so one forked meanwhile is reached too). */
function signalAll(procs: readonly Proc[], sig: NodeJS.Signals): void {
  for (const pgid of new Set(procs.map((p) => p.pgid))) if (pgid > 1 && pgid !== process.pid) signal(-pgid, sig);
  for (const p of procs) signal(p.pid, sig);
}

/**
 * Ends a set of processes found by `members` (looked up again while waiting): SIGTERM, then after
 * `graceMs` SIGKILL to those still there. Resolves with the pids it signalled, once none is left
 * (or the SIGKILL wait ran out).
 */
export async function endProcesses(members: () => readonly Proc[], graceMs: number): Promise<number[]> {
  const signalled = new Set<number>();
  let now = members();
  for (const p of now) signalled.add(p.pid);
  signalAll(now, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (now.length > 0 && Date.now() < deadline) {
    await sleep(POLL_MS);
    now = members();
  }
  const killDeadline = Date.now() + KILL_WAIT_MS;
  while (now.length > 0 && Date.now() < killDeadline) {
    for (const p of now) signalled.add(p.pid);
    signalAll(now, 'SIGKILL');
    await sleep(POLL_MS);
    now = members();
  }
  return [...signalled].sort((a, b) => a - b);
}

/** Whether any process of group `pgid` is there (zombies included): for systems without /proc. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
