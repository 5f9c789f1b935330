import { closeSync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { journalEntrySchema, type JournalEntry, type JournalLine } from '../protocol/index.js';
import { Emitter } from '../pty/emitter.js';

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
 * each append written and fsynced before it returns.
 */
export class Journal {
  readonly path: string;
  readonly #fd: number;
  readonly #onAppend = new Emitter<JournalLine>();
  readonly onAppend = this.#onAppend.event;
  #seq = 0;

  constructor(readonly dir: string) {
    this.path = join(dir, 'events.jsonl');
    this.#fd = openSync(this.path, 'a', 0o644);
  }

  append(entry: JournalEntry): JournalLine {
    const checked = journalEntrySchema.parse(entry);
    const line = { seq: ++this.#seq, ts: new Date().toISOString(), ...checked } as JournalLine;
    writeSync(this.#fd, `${JSON.stringify(line)}\n`);
    fsyncSync(this.#fd);
    this.#onAppend.fire(line);
    return line;
  }

  close(): void {
    this.#onAppend.dispose();
    closeSync(this.#fd);
  }
}
