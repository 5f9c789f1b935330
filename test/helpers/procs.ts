/** What tests look at in the process table (Linux /proc): who is alive, who belongs to a run. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { runArgs, simCommand } from './cli.js';

export const STUBBORN = fileURLToPath(new URL('./stubborn-agent.mjs', import.meta.url));

/** `--builder` for the stubborn fake agent (ignores SIGHUP and SIGTERM, and so does its child), writing its pids to `pidsFile`. */
export const stubbornCommand = (pidsFile: string): string => quote([process.execPath, STUBBORN, pidsFile]);

/** relevo's command line for a run of `goal`: the sim planner, and the stubborn agent as builder (generic profile). */
export const stubbornRun = (goal: string, pidsFile: string): string[] =>
  runArgs(goal, { planner: simCommand('planner'), builder: stubbornCommand(pidsFile) }, '--builder-profile', 'generic');

/** Whether `pid` is a running process (a zombie is not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return false;
  }
}

/** Whether `pid` names a process at all, a zombie not yet reaped included (signal 0). */
export function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Running processes whose environment says they belong to run `runId` (RELEVO_RUN_ID). */
export function runProcesses(runId: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`RELEVO_RUN_ID=${runId}`) && alive(pid);
      } catch {
        return false;
      }
    });
}

/** The only run's id and journal text under `<cwd>/.relevo/runs`, or null before it exists. */
export function theRun(cwd: string): { id: string; journal: string } | null {
  const runs = join(cwd, '.relevo', 'runs');
  const id = existsSync(runs) ? readdirSync(runs)[0] : undefined;
  if (id === undefined || !existsSync(join(runs, id, 'events.jsonl'))) return null;
  return { id, journal: readFileSync(join(runs, id, 'events.jsonl'), 'utf8') };
}

/** The stubborn agent's pids, once it wrote them. */
export function stubbornPids(pidsFile: string): { pid: number; child: number } | null {
  return existsSync(pidsFile) ? (JSON.parse(readFileSync(pidsFile, 'utf8')) as { pid: number; child: number }) : null;
}

/** Pids of live processes whose command line contains `text` (Linux /proc): agents left behind. */
export function processesMentioning(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (cmdline.replace(/\0/g, ' ').includes(text)) found.push(Number(name));
  }
  return found;
}
