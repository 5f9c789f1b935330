import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ROLES } from '../../protocol/index.js';
import { fsFault } from '../faults/fsfault.js';

/** `<dir>/lock`: one relevo process per run. A lock left by a dead process is taken over. */
export function lockRun(dir: string): () => void {
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fsFault('lock', path, 'open');
      writeFileSync(path, `${JSON.stringify({ pid: process.pid, since: new Date().toISOString() })}\n`, { flag: 'wx' });
      return () => {
        try {
          rmSync(path, { force: true });
        } catch {
          // A lock that cannot be removed (read-only state dir) names a dead process: the next run takes it over.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = lockHolder(dir);
      if (holder !== null) throw new Error(`run ${basename(dir)} is in use by relevo-tui (pid ${holder})`);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`run ${basename(dir)}: could not take its lock`);
}

/** What `<run>/lock` holds: the relevo process, and (written once the panes are open) the agents it started. */
const agentRecord = z.object({
  role: z.enum(ROLES),
  pid: z.number().int().positive(),
  pgid: z.number().int().positive(),
  sid: z.number().int().positive(),
  /** Its start time (clock ticks since boot, `/proc/<pid>/stat`): tells it from a later process given the same pid. */
  start: z.string().nullable(),
});
// A malformed agents list never hides the holder's pid (the lock would be taken over from a live relevo).
const lockSchema = z.looseObject({ pid: z.number().int().positive(), agents: z.array(agentRecord).optional().catch(undefined) });
export type AgentRecord = z.infer<typeof agentRecord>;

/** The run's lock as written (holder pid, since, the agents it started), or null when absent or unreadable. */
export function readLock(dir: string): z.infer<typeof lockSchema> | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The pid of the live relevo process holding the run, or null. */
export function lockHolder(dir: string): number | null {
  const pid = readLock(dir)?.pid;
  return pid !== undefined && pidAlive(pid) ? pid : null;
}

/** Whether process `pid` exists: `kill(pid, 0)` succeeds, or fails with EPERM (alive, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
