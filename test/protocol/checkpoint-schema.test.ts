import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ackRefusal,
  anchorMoved,
  BODY_FILE,
  bodySize,
  buildCheckpoint,
  CHECKPOINT_SCHEMA_VERSION,
  type CheckpointDraft,
  checkpointPath,
  formatHeader,
  type GitAnchor,
  handoffCheckpointSchema,
  handoffMarkdown,
  MAX_CHECKPOINT_BYTES,
  MAX_FIELD_CHARS,
  type Offer,
  offerSchema,
} from '../../src/protocol/index.js';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);
const SHA_C = 'c'.repeat(64);
const CREATED = '2025-03-01T10:20:30.000Z';

const draft: CheckpointDraft = {
  run_id: 'r1',
  seq: 1,
  round: 1,
  from: 'planner',
  to: 'builder',
  created_at: CREATED,
  sha256: SHA_C,
};

const utf8 = (text: string) => new TextEncoder().encode(text).length;

describe('checkpoint schema: constants', () => {
  it('pins the protocol numbers', () => {
    expect(CHECKPOINT_SCHEMA_VERSION).toBe(1);
    expect(MAX_CHECKPOINT_BYTES).toBe(8192);
    expect(MAX_FIELD_CHARS).toBe(240);
    expect(BODY_FILE).toBe('body.txt');
    expect(checkpointPath('planner', 3)).toBe('planner/checkpoints/3');
    expect(checkpointPath('builder', 12)).toBe('builder/checkpoints/12');
  });
});

describe('checkpoint schema: bodySize', () => {
  it('counts UTF-8 bytes, not characters', () => {
    expect(bodySize('ñ')).toEqual({ bytes: 2, lines: 1 });
    expect(bodySize('abc')).toEqual({ bytes: 3, lines: 1 });
    expect(bodySize('año → 🙂')).toEqual({ bytes: 1 + 2 + 1 + 1 + 3 + 1 + 4, lines: 1 });
    expect(bodySize('')).toEqual({ bytes: 0, lines: 1 });
  });

  it('counts lines as newline-separated pieces', () => {
    expect(bodySize('a\nb')).toEqual({ bytes: 3, lines: 2 });
    expect(bodySize('a\nb\n')).toEqual({ bytes: 4, lines: 3 });
    expect(bodySize('\n\n\n')).toEqual({ bytes: 3, lines: 4 });
  });
});

describe('checkpoint schema: buildCheckpoint', () => {
  it('fills schema_version, bytes and lines, and keeps a small body inline', () => {
    const body = 'Step one\n  - indented ñ';
    const { checkpoint, json, bodyFile } = buildCheckpoint(draft, body);
    expect(bodyFile).toBeNull();
    expect(checkpoint).toEqual({ schema_version: 1, ...draft, bytes: 24, lines: 2, body });
    expect(json).toBe(`${JSON.stringify(checkpoint, null, 2)}\n`);
    expect(JSON.parse(json)).toEqual(checkpoint);
    expect(handoffCheckpointSchema.parse(JSON.parse(json))).toEqual(checkpoint);
  });

  it('keeps the body inline when the JSON is exactly 8192 bytes, and moves it out one byte later', () => {
    // The JSON's size is a fixed overhead plus the body, for an ASCII body whose byte count keeps 4 digits.
    const probe = buildCheckpoint(draft, 'x'.repeat(7000));
    expect(probe.bodyFile).toBeNull();
    const overhead = utf8(probe.json) - 7000;
    const fits = MAX_CHECKPOINT_BYTES - overhead;
    expect(fits).toBeGreaterThan(7000);
    expect(fits).toBeLessThan(8192);

    const atLimit = buildCheckpoint(draft, 'x'.repeat(fits));
    expect(utf8(atLimit.json)).toBe(8192);
    expect(atLimit.bodyFile).toBeNull();
    expect(atLimit.checkpoint.body).toBe('x'.repeat(fits));
    expect(atLimit.checkpoint).not.toHaveProperty('body_file');

    const justUnder = buildCheckpoint(draft, 'x'.repeat(fits - 1));
    expect(utf8(justUnder.json)).toBe(8191);
    expect(justUnder.bodyFile).toBeNull();

    const over = buildCheckpoint(draft, 'x'.repeat(fits + 1));
    expect(over.bodyFile).toBe('x'.repeat(fits + 1));
    expect(over.checkpoint).not.toHaveProperty('body');
    expect(over.checkpoint.body_file).toBe('body.txt');
    expect(over.checkpoint.bytes).toBe(fits + 1);
    expect(over.checkpoint.lines).toBe(1);
    const parsed = JSON.parse(over.json) as Record<string, unknown>;
    expect(parsed).not.toHaveProperty('body');
    expect(parsed.body_file).toBe('body.txt');
    expect(over.json).toBe(`${JSON.stringify(over.checkpoint, null, 2)}\n`);
    expect(utf8(over.json)).toBeLessThan(1024);
  });

  it('measures the limit in UTF-8 bytes: a body of multi-byte characters that fits by characters goes out', () => {
    const body = 'ñ'.repeat(5000);
    // As characters the inline JSON would fit; as bytes it does not.
    const asChars = JSON.stringify({ schema_version: 1, ...draft, ...bodySize(body), body }, null, 2).length + 1;
    expect(asChars).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES);
    const { checkpoint, bodyFile } = buildCheckpoint(draft, body);
    expect(bodyFile).toBe(body);
    expect(checkpoint.bytes).toBe(10000);
    expect(checkpoint.body_file).toBe('body.txt');
  });

  it('validates every field: a string over 240 characters, equal roles or a bad digest throw', () => {
    expect(() => buildCheckpoint({ ...draft, run_id: 'r'.repeat(240) }, 'x')).not.toThrow();
    expect(() => buildCheckpoint({ ...draft, run_id: 'r'.repeat(241) }, 'x')).toThrow(z.ZodError);
    expect(() => buildCheckpoint({ ...draft, to: 'planner' }, 'x')).toThrow(/from and to must differ/);
    expect(() => buildCheckpoint({ ...draft, sha256: 'nope' }, 'x')).toThrow(/sha256/);
    expect(() => buildCheckpoint({ ...draft, seq: 0 }, 'x')).toThrow(z.ZodError);
    expect(() => buildCheckpoint({ ...draft, created_at: 'yesterday' }, 'x')).toThrow(z.ZodError);
    expect(() => buildCheckpoint({ ...draft, anchor: { head: 'abc', status_sha256: SHA_A } }, 'x')).toThrow(/commit id/);
  });

  it('rejects a handoff.json holding both body and body_file, or neither, or an unknown field', () => {
    const { checkpoint } = buildCheckpoint(draft, 'x');
    expect(handoffCheckpointSchema.safeParse({ ...checkpoint, body_file: 'body.txt' }).success).toBe(false);
    const { body: _omit, ...neither } = checkpoint;
    expect(handoffCheckpointSchema.safeParse(neither).success).toBe(false);
    expect(handoffCheckpointSchema.safeParse({ ...checkpoint, extra: 1 }).success).toBe(false);
    expect(handoffCheckpointSchema.safeParse({ ...checkpoint, schema_version: 2 }).success).toBe(false);
    expect(handoffCheckpointSchema.safeParse({ ...neither, body_file: 'other.txt' }).success).toBe(false);
  });
});

describe('checkpoint schema: anchorMoved', () => {
  const then: GitAnchor = { head: '1'.repeat(40), status_sha256: SHA_A };

  it('never calls a checkpoint without an anchor stale', () => {
    expect(anchorMoved(undefined, null)).toBe(false);
    expect(anchorMoved(undefined, then)).toBe(false);
  });

  it('is stale when the workspace is no longer a repository, HEAD moved or the status changed', () => {
    expect(anchorMoved(then, null)).toBe(true);
    expect(anchorMoved(then, { ...then, head: '2'.repeat(40) })).toBe(true);
    expect(anchorMoved(then, { ...then, status_sha256: SHA_B })).toBe(true);
    expect(anchorMoved(then, { head: '2'.repeat(40), status_sha256: SHA_B })).toBe(true);
  });

  it('is not stale when both are equal', () => {
    expect(anchorMoved(then, { head: '1'.repeat(40), status_sha256: SHA_A })).toBe(false);
  });
});

describe('checkpoint schema: ackRefusal', () => {
  const offer: Offer = offerSchema.parse({
    schema_version: 1,
    transfer_id: '123e4567-e89b-42d3-a456-426614174000',
    checkpoint: 'planner/checkpoints/1',
    sha256: SHA_A,
    from: 'planner',
    to: 'builder',
    round: 1,
    created_at: CREATED,
  });
  const ok = { offer, checkpointSha256: SHA_A, bodySha256: SHA_A, receiver: 'builder' as const, acked: false };

  it('allows the ack when nothing is wrong', () => {
    expect(ackRefusal(ok)).toBeNull();
  });

  it('refuses a second ack first of all', () => {
    const expected = 'already acknowledged: planner/checkpoints/1 (transfer 123e4567-e89b-42d3-a456-426614174000)';
    expect(ackRefusal({ ...ok, acked: true })).toBe(expected);
    expect(ackRefusal({ ...ok, acked: true, receiver: 'planner', bodySha256: SHA_B })).toBe(expected);
  });

  it('then refuses the wrong receiver, before looking at digests', () => {
    const expected = 'intended for builder, not planner: planner/checkpoints/1';
    expect(ackRefusal({ ...ok, receiver: 'planner' })).toBe(expected);
    expect(ackRefusal({ ...ok, receiver: 'planner', bodySha256: SHA_B })).toBe(expected);
  });

  it('then refuses a body, checkpoint or offer whose digests disagree', () => {
    expect(ackRefusal({ ...ok, bodySha256: SHA_B })).toBe(
      'digest mismatch: planner/checkpoints/1 (offer aaaaaaaaaaaa, checkpoint aaaaaaaaaaaa, body bbbbbbbbbbbb)',
    );
    // The body matches its checkpoint, but the offer was for another one.
    expect(ackRefusal({ ...ok, checkpointSha256: SHA_C, bodySha256: SHA_C })).toBe(
      'digest mismatch: planner/checkpoints/1 (offer aaaaaaaaaaaa, checkpoint cccccccccccc, body cccccccccccc)',
    );
    expect(ackRefusal({ ...ok, checkpointSha256: SHA_C })).toMatch(/^digest mismatch: /);
  });
});

describe('checkpoint schema: handoffMarkdown', () => {
  it('renders the checkpoint for people, with the header and the body verbatim', () => {
    const body = 'Step one\n  - keep this indent\n\nand this';
    const { checkpoint } = buildCheckpoint(
      { ...draft, seq: 2, round: 3, anchor: { head: 'f'.repeat(40), status_sha256: SHA_B }, supersedes: 1 },
      body,
    );
    expect(handoffMarkdown(checkpoint, body, formatHeader(3, 'planner'))).toBe(
      [
        '# relevo handoff · round 3 · planner → builder',
        '',
        '- run: r1',
        '- checkpoint: planner/checkpoints/2 (replaces 1)',
        `- created: ${CREATED}`,
        `- sha256: ${SHA_C}`,
        '- workspace: HEAD ffffffffffff · status bbbbbbbbbbbb',
        '',
        'The handoff follows, as relevo relays it:',
        '',
        '[relevo ronda 3 · de planner]',
        'Step one',
        '  - keep this indent',
        '',
        'and this',
        '',
      ].join('\n'),
    );
  });

  it('says when there is no git repository and when nothing is replaced', () => {
    const { checkpoint } = buildCheckpoint({ ...draft, from: 'builder', to: 'planner' }, 'report');
    const md = handoffMarkdown(checkpoint, 'report', formatHeader(1, 'builder'));
    expect(md.split('\n').slice(0, 7)).toEqual([
      '# relevo handoff · round 1 · builder → planner',
      '',
      '- run: r1',
      '- checkpoint: builder/checkpoints/1',
      `- created: ${CREATED}`,
      `- sha256: ${SHA_C}`,
      '- workspace: not a git repository',
    ]);
    expect(md.endsWith('[relevo ronda 1 · de builder]\nreport\n')).toBe(true);
  });
});
