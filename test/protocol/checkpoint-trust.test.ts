import { describe, expect, it } from 'vitest';
import {
  type CheckpointEvidence,
  checkpointMismatch,
  type JournaledCheckpoint,
  type JournalLine,
  journaledCheckpoints,
} from '../../src/protocol/index.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const J = 'c'.repeat(64);
const M = 'd'.repeat(64);

const found = (patch: Partial<CheckpointEvidence> = {}): CheckpointEvidence => ({
  lane: 'builder',
  seq: 2,
  bodyFile: 'handoff.json',
  bodySha256: A,
  recordedSha256: A,
  jsonSha256: J,
  markdownSha256: M,
  offerSha256: null,
  ackSha256: null,
  ...patch,
});

const line = (patch: Partial<JournaledCheckpoint> = {}): JournaledCheckpoint => ({
  seq: 7,
  ts: '2026-12-05T10:00:00.000Z',
  type: 'checkpoint',
  lane: 'builder',
  checkpoint_seq: 2,
  round: 1,
  to: 'planner',
  sha256: A,
  bytes: 10,
  lines: 1,
  handoff_json_sha256: J,
  handoff_md_sha256: M,
  ...patch,
});

describe('checkpointMismatch: the journal line anchors a checkpoint, its offer and ack stand in without one', () => {
  it('a checkpoint as journaled is trusted', () => {
    expect(checkpointMismatch(found(), line())).toBeNull();
    expect(checkpointMismatch(found({ offerSha256: A, ackSha256: A }), line())).toBeNull();
  });

  it('a body rewritten with its own sha256 still differs from the journal: the body file is named', () => {
    expect(checkpointMismatch(found({ bodySha256: B, recordedSha256: B }), line())).toBe(
      'builder/checkpoints/2/handoff.json changed: sha256 bbbbbbbbbbbb…, journaled aaaaaaaaaaaa…',
    );
    expect(checkpointMismatch(found({ bodyFile: 'body.txt', bodySha256: B, recordedSha256: B, offerSha256: B }), line())).toMatch(
      /^builder\/checkpoints\/2\/body\.txt changed: /,
    );
  });

  it('the same body with another note (handoff.json) or another HANDOFF.md is named by its file', () => {
    expect(checkpointMismatch(found({ jsonSha256: B }), line())).toBe(
      'builder/checkpoints/2/handoff.json changed: sha256 bbbbbbbbbbbb…, journaled cccccccccccc…',
    );
    expect(checkpointMismatch(found({ markdownSha256: B }), line())).toMatch(/^builder\/checkpoints\/2\/HANDOFF\.md changed: /);
    expect(checkpointMismatch(found({ markdownSha256: null }), line())).toBe(
      'builder/checkpoints/2/HANDOFF.md changed: sha256 missing, journaled dddddddddddd…',
    );
  });

  it('a journal line from before file digests were journaled checks the body alone', () => {
    const older = line();
    delete (older as { handoff_json_sha256?: string }).handoff_json_sha256;
    delete (older as { handoff_md_sha256?: string }).handoff_md_sha256;
    expect(checkpointMismatch(found({ jsonSha256: B, markdownSha256: B }), older)).toBeNull();
  });

  it('without a journal line the offer and the ack are the witnesses; with none, the checkpoint agrees with itself or not', () => {
    expect(checkpointMismatch(found(), undefined)).toBeNull();
    expect(checkpointMismatch(found({ bodySha256: B }), undefined)).toBe(
      'builder/checkpoints/2/handoff.json changed: sha256 bbbbbbbbbbbb…, handoff.json says aaaaaaaaaaaa…',
    );
    expect(checkpointMismatch(found({ bodySha256: B, recordedSha256: B, offerSha256: A }), undefined)).toBe(
      'builder/checkpoints/2/handoff.json changed: sha256 bbbbbbbbbbbb…, offered aaaaaaaaaaaa…',
    );
    expect(checkpointMismatch(found({ bodySha256: B, recordedSha256: B, ackSha256: A }), undefined)).toMatch(/, acked aaaaaaaaaaaa…$/);
  });

  it('journaledCheckpoints finds each lane/seq, the later line winning', () => {
    const lines: JournalLine[] = [line(), line({ seq: 9, lane: 'planner', checkpoint_seq: 2, sha256: B })];
    const map = journaledCheckpoints(lines);
    expect(map.get('builder/2')?.sha256).toBe(A);
    expect(map.get('planner/2')?.sha256).toBe(B);
    expect(map.size).toBe(2);
  });
});
