import type { Journal } from '../../src/app/store/journal.js';
import type { JournalEntry, JournalLine } from '../../src/protocol/index.js';

/** A journal that keeps what is appended in `entries`, for code that only appends. */
export function journalInto(entries: JournalEntry[]): Pick<Journal, 'append'> {
  let seq = 0;
  return {
    append: (entry) => {
      entries.push(entry);
      seq += 1;
      return { seq, ts: new Date(0).toISOString(), ...entry } as JournalLine;
    },
  };
}
