import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  checkpointKey,
  type JournalEntry,
  type JournaledCheckpoint,
  type JournalLine,
  journalEntrySchema,
  journaledCheckpoints,
  journalLineSchema,
  type Role,
} from '../../protocol/index.js';
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

/** Said once, when relevo has just created the state directory (`stateDir` as the person named it). */
export const firstRunNote = (stateDir: string): string => `runs are journaled in ${stateDir.replace(/\/+$/, '')}/ (kept out of git)`;

/**
 * Makes `<stateDir>/<sub>` (with parents); true when this call made the state directory, which then
 * keeps itself out of git (`git status` stays clean). Of several relevos making it at once, one writes that.
 */
export function makeStateDir(stateDir: string, sub: string): boolean {
  const created = !existsSync(stateDir);
  makeDirs(join(stateDir, sub));
  if (!created) return false;
  try {
    writeFileSync(join(stateDir, '.gitignore'), '# created by relevo-tui: runs stay out of git\n*\n', { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Creates `<stateDir>/runs/<run-id>/`, exclusively: a second run in the same millisecond gets a suffix.
 * `created` says the state directory itself was made now (the first run there).
 */
export function createRunDir(stateDir: string, now = new Date()): { runId: string; dir: string; created: boolean } {
  const runs = join(stateDir, 'runs');
  fsFault('state-dir', runs, 'mkdir');
  const created = makeStateDir(stateDir, 'runs');
  const base = runIdFor(now);
  for (let n = 0; ; n++) {
    const runId = n === 0 ? base : `${base}-${n}`;
    const dir = join(runs, runId);
    try {
      mkdirSync(dir);
      return { runId, dir, created };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * `mkdir -p` whose error names the cause: each missing directory is made with a plain mkdir (a
 * recursive one reports ENOENT where the file system is read-only; a plain one says EROFS).
 */
function makeDirs(path: string): void {
  try {
    mkdirSync(path);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT' || dirname(path) === path) throw error;
  }
  makeDirs(dirname(path));
  try {
    mkdirSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * `events.jsonl`: one validated JSON object per line, a monotonic `seq` and an ISO `ts`,
 * each append written and fsynced before it returns. An append that fails (ENOSPC …) throws
 * `StateUnwritable` and leaves the file as it was: the line is cut off again, its `seq` not used.
 */
export class Journal {
  #dir: string;
  #path: string;
  #fd: number;
  readonly #onAppend = new Emitter<JournalLine>();
  readonly onAppend = this.#onAppend.event;
  #seq = 0;
  /** The file's length after the last whole line. */
  #size: number;
  /** A failed append could not be cut off: the next line starts on a new line. */
  #torn = false;
  /** The `checkpoint` lines so far: the digests each checkpoint is checked against before it is offered. */
  #checkpoints: Map<string, JournaledCheckpoint>;

  /** Appends to `<dir>/events.jsonl`; a resumed run's journal (its `prior` lines) goes on after its last `seq`. */
  constructor(dir: string, prior: readonly JournalLine[] = []) {
    this.#dir = dir;
    this.#path = join(dir, 'events.jsonl');
    this.#fd = openSync(this.#path, 'a', 0o644);
    this.#size = fstatSync(this.#fd).size;
    this.#seq = prior.at(-1)?.seq ?? 0;
    this.#checkpoints = journaledCheckpoints(prior);
  }

  /** The `checkpoint` line journaled for `lane`'s checkpoint `seq`, if any. */
  journaled(lane: Role, seq: number): JournaledCheckpoint | undefined {
    return this.#checkpoints.get(checkpointKey(lane, seq));
  }

  get dir(): string {
    return this.#dir;
  }

  get path(): string {
    return this.#path;
  }

  /**
   * The journal goes on in another run's directory (the next run after `done`), from seq 1; who
   * listens to its lines keeps listening. The new file is opened before the old one is closed.
   */
  moveTo(dir: string): void {
    const path = join(dir, 'events.jsonl');
    const fd = openSync(path, 'a', 0o644);
    const size = fstatSync(fd).size;
    closeSync(this.#fd);
    this.#dir = dir;
    this.#path = path;
    this.#fd = fd;
    this.#size = size;
    this.#seq = 0;
    this.#torn = false;
    this.#checkpoints = new Map();
  }

  append(entry: JournalEntry): JournalLine {
    const checked = journalEntrySchema.parse(entry);
    const line = { seq: this.#seq + 1, ts: new Date().toISOString(), ...checked } as JournalLine;
    const text = `${this.#torn ? '\n' : ''}${JSON.stringify(line)}\n`;
    try {
      stateWrite(() => {
        fsFault('journal', this.#path, 'write');
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
    if (line.type === 'checkpoint') this.#checkpoints.set(checkpointKey(line.lane, line.checkpoint_seq), line);
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
