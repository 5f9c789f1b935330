import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { ROLES } from '../../protocol/index.js';
import { procStat } from '../../pty/procs.js';
import { fsFault } from '../faults/fsfault.js';

/*
 * `<run>/lock/`: who holds a run, as numbered records `<n>.json`. The highest names the holder, or
 * says `released`. A record is written whole to a temp file, then linked to its number: the link
 * fails when the number is taken, so of two processes taking over a dead holder one gets it. The
 * highest record is never deleted (only records below a newer one), so a number is never given twice.
 */

const LOCK = 'lock';
const RECORD = /^(\d+)\.json$/;
const TEMP = /^\.(\d+)\.[0-9a-f]+\.tmp$/;
/** Takeovers in a row lost to processes that then died or let go, before relevo gives up. */
const ATTEMPTS = 20;

/** What a record of `<run>/lock/` holds: the relevo process, and (written once the panes are open) the agents it started. */
const agentRecord = z.object({
  role: z.enum(ROLES),
  pid: z.number().int().positive(),
  pgid: z.number().int().positive(),
  sid: z.number().int().positive(),
  /** Its start time (clock ticks since boot, `/proc/<pid>/stat`): tells it from a later process given the same pid. */
  start: z.string().nullable(),
});
// A malformed agents list never hides the holder's pid (the lock would be taken over from a live relevo).
const lockSchema = z.looseObject({
  pid: z.number().int().positive(),
  /** The holder's start time, as for an agent; absent in a lock written before it was recorded. */
  start: z.string().nullable().optional().catch(undefined),
  /** The holder let go of the run: the next relevo takes it. */
  released: z.literal(true).optional().catch(undefined),
  agents: z.array(agentRecord).optional().catch(undefined),
});
export type AgentRecord = z.infer<typeof agentRecord>;
export type LockRecord = z.infer<typeof lockSchema>;
type Top = { readonly path: string; readonly n: number; readonly legacy: boolean; readonly record: LockRecord | null };

/** The records this process holds: run directory → its record's path. */
const held = new Map<string, string>();
const recordPath = (dir: string, n: number) => join(resolve(dir), LOCK, `${n}.json`);
const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Takes run `dir` for this process, or throws `run X is in use by relevo-tui (pid N)`. Returns the release. */
export function lockRun(dir: string): () => void {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = top(dir);
    if (current?.record && holds(current.record, current.path, dir)) {
      throw new Error(`run ${basename(dir)} is in use by relevo-tui (pid ${current.record.pid})`);
    }
    if (current?.legacy) {
      retire(current.path);
      continue;
    }
    const n = (current?.n ?? 0) + 1;
    if (n === 1) makeLockDir(dir);
    if (!create(recordPath(dir, n), stamp())) continue;
    // A number below the highest was free again (its record deleted once a newer holder took over): this try lost.
    if (numbers(dir)?.at(-1) !== n) {
      rmSync(recordPath(dir, n), { force: true });
      continue;
    }
    held.set(resolve(dir), recordPath(dir, n));
    prune(dir, n);
    return () => release(dir, n);
  }
  throw new Error(`run ${basename(dir)}: could not take its lock`);
}

/** The run's holder record as written (pid, since, the agents it started), or null when there is none or it is unreadable. */
export function readLock(dir: string): LockRecord | null {
  try {
    return top(dir)?.record ?? null;
  } catch {
    return null;
  }
}

/** The pid of the live relevo process holding the run, or null. */
export function lockHolder(dir: string): number | null {
  try {
    const current = top(dir);
    return current?.record && holds(current.record, current.path, dir) ? current.record.pid : null;
  } catch {
    return null;
  }
}

/** Adds `fields` (the agents it started) to this process's own record of run `dir`: written whole, then renamed over it. */
export function updateOwnRecord(dir: string, fields: { readonly agents: readonly AgentRecord[] }): void {
  const path = held.get(resolve(dir));
  const record = path === undefined ? null : readRecord(path);
  if (path === undefined || record === null) return;
  const temp = tempBeside(path);
  writeFileSync(temp, `${JSON.stringify({ ...record, ...fields })}\n`);
  renameSync(temp, path);
}

/** Whether process `pid` exists: `kill(pid, 0)` succeeds, or fails with EPERM (alive, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

/**
 * Whether the process a record names still holds the run: not released, alive, and the same process
 * (its start time, where /proc shows it). This process's pid holds only in the record it wrote itself
 * (another is an earlier process given the same pid, in a container).
 */
function holds(record: LockRecord, path: string, dir: string): boolean {
  if (record.released === true) return false;
  if (record.pid === process.pid) return held.get(resolve(dir)) === path;
  if (!pidAlive(record.pid)) return false;
  // Without /proc (or its entry hidden from this user) the pid alone says.
  const stat = procStat(record.pid);
  if (stat === null) return true;
  return stat.state !== 'Z' && stat.state !== 'X' && (record.start == null || stat.start === record.start);
}

/** The record that names the holder: the highest in `<run>/lock/`, or a `<run>/lock` file as relevo wrote it before; null when there is none. */
function top(dir: string): Top | null {
  const ns = numbers(dir);
  if (ns === null) return { path: join(dir, LOCK), n: 0, legacy: true, record: readRecord(join(dir, LOCK)) };
  const n = ns.at(-1);
  return n === undefined ? null : { path: recordPath(dir, n), n, legacy: false, record: readRecord(recordPath(dir, n)) };
}

/** The record numbers in `<run>/lock/`, lowest first ([] before it exists); null when `lock` is a file. */
function numbers(dir: string): number[] | null {
  try {
    return readdirSync(join(dir, LOCK))
      .flatMap((name) => {
        const m = RECORD.exec(name);
        return m ? [Number(m[1])] : [];
      })
      .sort((a, b) => a - b);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return [];
    if (codeOf(error) === 'ENOTDIR') return null;
    throw error;
  }
}

function readRecord(path: string): LockRecord | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** This process, as a record names it. */
function stamp(): LockRecord & { since: string } {
  return { pid: process.pid, start: procStat(process.pid)?.start ?? null, since: new Date().toISOString() };
}

const tempBeside = (path: string) => join(path, '..', `.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/** Creates record `path` whole, or returns false when its number is taken (or `lock` is no directory, or is gone). */
function create(path: string, record: LockRecord): boolean {
  const temp = tempBeside(path);
  fsFault('lock', path, 'open');
  try {
    writeFileSync(temp, `${JSON.stringify(record)}\n`, { flag: 'wx' });
  } catch (error) {
    if (codeOf(error) === 'ENOTDIR' || codeOf(error) === 'ENOENT') return false;
    throw error;
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

function makeLockDir(dir: string): void {
  try {
    mkdirSync(join(dir, LOCK));
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
  }
}

/** A `<run>/lock` file whose process is gone is unlinked: never removed recursively, so once another process made the directory this fails and changes nothing. */
function retire(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!['ENOENT', 'EISDIR', 'EPERM'].includes(codeOf(error) ?? '')) throw error;
  }
}

/** Deletes the records below `n` and the temp files of processes that are gone (they are no one's). */
function prune(dir: string, n: number): void {
  try {
    for (const name of readdirSync(join(dir, LOCK))) {
      const record = RECORD.exec(name);
      const temp = TEMP.exec(name);
      if ((record && Number(record[1]) < n) || (temp && !pidAlive(Number(temp[1])))) rmSync(join(dir, LOCK, name), { force: true });
    }
  } catch {
    // Records left below the holder's change nothing: the next holder deletes them.
  }
}

/** Lets go of the run: a `released` record above this process's own, then the records below it. */
function release(dir: string, n: number): void {
  if (held.get(resolve(dir)) !== recordPath(dir, n)) return;
  held.delete(resolve(dir));
  try {
    if (create(recordPath(dir, n + 1), { ...stamp(), released: true })) prune(dir, n + 1);
  } catch {
    // A record that cannot be written (read-only state dir) names a process that is gone: the next relevo takes the run over.
  }
}
