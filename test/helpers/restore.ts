/** A run's journal and checkpoints as `--resume` reads them back, for tests of restore and rebuild. */
import { createHash } from 'node:crypto';
import {
  buildCheckpoint,
  type CheckpointOnDisk,
  type JournalEntry,
  type JournalLine,
  journalLineSchema,
  type Role,
} from '../../src/protocol/index.js';

const agent = { command: ['sim'], profile: 'sim' };

/** The `run_started` line of run `r1`. */
export const started: JournalEntry = {
  type: 'run_started',
  run_id: 'r1',
  version: '0.1.0',
  nonce: 'n0nce',
  cwd: '/work/demo',
  max_rounds: 10,
  lang: 'en',
  planner: agent,
  builder: agent,
};

const hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Journal lines as `events.jsonl` holds them, each one validated. */
export function journalOf(entries: JournalEntry[]): JournalLine[] {
  return entries.map((entry, i) =>
    journalLineSchema.parse({ seq: i + 1, ts: new Date(Date.UTC(2025, 0, 1, 12, 0, i)).toISOString(), ...entry }),
  );
}

let clock = 0;
/** A checkpoint of run `r1` as the store reads it back, created after the previous one. */
export function cp(from: Role, seq: number, round: number, body: string, state: 'written' | 'offered' | 'acked'): CheckpointOnDisk {
  clock++;
  const { checkpoint } = buildCheckpoint(
    {
      run_id: 'r1',
      seq,
      round,
      from,
      to: from === 'planner' ? 'builder' : 'planner',
      created_at: new Date(Date.UTC(2025, 0, 1, 13, 0, clock)).toISOString(),
      sha256: hex(body),
    },
    body,
  );
  return { checkpoint, body, offered: state !== 'written', acked: state === 'acked' };
}

/** Two full rounds acknowledged, then the planner's round 3 offered but not taken. */
export function twoRoundsThenOffered(): CheckpointOnDisk[] {
  return [
    cp('planner', 1, 1, 'step 1', 'acked'),
    cp('builder', 1, 1, 'report 1', 'acked'),
    cp('planner', 2, 2, 'step 2', 'acked'),
    cp('builder', 2, 2, 'report 2', 'acked'),
    cp('planner', 3, 3, 'step 3', 'offered'),
  ];
}
