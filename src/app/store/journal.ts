import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { journalEntrySchema, ROLES, journalLineSchema, type JournalEntry, type JournalLine } from '../../protocol/index.js';
import { parseJsonLines, wholeLinesLength } from '../../protocol/json-lines.js';
import { Emitter } from '../../pty/emitter.js';
import { stateWrite } from '../faults/fault.js';
import { fsFault } from '../faults/fsfault.js';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Sortable run id from the local time: `20261130-143000-123`. */
export function runIdFor(date: Date): string {
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}-${pad(date.getMilliseconds(), 3)}`
  );
}

/** Creates `<stateDir>/runs/<run-id>/`, exclusively: a second run in the same millisecond gets a suffix. */
export function createRunDir(stateDir: string, now = new Date()): { runId: string; dir: string } {
  const runs = join(stateDir, 'runs');
  fsFault('state-dir', runs, 'mkdir');
  mkdirSync(runs, { recursive: true });
  const base = runIdFor(now);
  for (let n = 0; ; n++) {
    const runId = n === 0 ? base : `${base}-${n}`;
    const dir = join(runs, runId);
    try {
      mkdirSync(dir);
      return { runId, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * `events.jsonl`: one validated JSON object per line, a monotonic `seq` and an ISO `ts`,
 * each append written and fsynced before it returns. An append that fails (ENOSPC …) throws
 * `StateUnwritable` and leaves the file as it was: the line is cut off again, its `seq` not used.
 */
export class Journal {
  readonly path: string;
  readonly #fd: number;
  readonly #onAppend = new Emitter<JournalLine>();
  readonly onAppend = this.#onAppend.event;
  #seq = 0;
  /** The file's length after the last whole line. */
  #size: number;
  /** A failed append could not be cut off: the next line starts on a new line. */
  #torn = false;

  /** Appends to `<dir>/events.jsonl`; a resumed run's journal goes on after its last `seq`. */
  constructor(
    readonly dir: string,
    lastSeq = 0,
  ) {
    this.path = join(dir, 'events.jsonl');
    this.#fd = openSync(this.path, 'a', 0o644);
    this.#size = fstatSync(this.#fd).size;
    this.#seq = lastSeq;
  }

  append(entry: JournalEntry): JournalLine {
    const checked = journalEntrySchema.parse(entry);
    const line = { seq: this.#seq + 1, ts: new Date().toISOString(), ...checked } as JournalLine;
    const text = `${this.#torn ? '\n' : ''}${JSON.stringify(line)}\n`;
    try {
      stateWrite(() => {
        fsFault('journal', this.path, 'write');
        writeSync(this.#fd, text);
        fsyncSync(this.#fd);
      });
    } catch (error) {
      try {
        ftruncateSync(this.#fd, this.#size);
      } catch {
        this.#torn = true;
      }
      throw error;
    }
    this.#torn = false;
    this.#size += Buffer.byteLength(text);
    this.#seq = line.seq;
    this.#onAppend.fire(line);
    return line;
  }

  close(): void {
    this.#onAppend.dispose();
    closeSync(this.#fd);
  }
}

/**
 * The lines of a run's journal. A line torn by a kill in the middle of a write (no newline at the
 * end, or not JSON) is dropped, and with `repair` cut from the file so appends start clean.
 */
export function readJournal(path: string, repair = false): JournalLine[] {
  const text = readFileSync(path, 'utf8');
  const end = wholeLinesLength(text);
  if (repair && end < text.length) truncateSync(path, end);
  return parseJsonLines(text, journalLineSchema, { wholeLinesOnly: true });
}

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
