import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CheckpointError, CheckpointStore, sha256 } from '../../src/app/store/checkpoints.js';
import {
  ackSchema,
  type GitAnchor,
  handoffCheckpointSchema,
  handoffMarkdown,
  MAX_CHECKPOINT_BYTES,
  type Outgoing,
  offerSchema,
  type Role,
} from '../../src/protocol/index.js';
import { stub } from '../helpers/stub.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const anchor: GitAnchor = { head: '0123456789abcdef0123456789abcdef01234567', status_sha256: 'b'.repeat(64) };
const hex = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** A handoff as the relay machine hands it to the store. */
function message(from: Role, seq: number, round: number, body: string): Outgoing {
  return {
    kind: 'handoff',
    from,
    to: from === 'planner' ? 'builder' : 'planner',
    round,
    seq,
    body,
    text: `[relevo ronda ${round} · de ${from}]\n${body}`,
    via: 'inline',
  };
}

let tmp: string;
let runDir: string;
let store: CheckpointStore;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'relevo-checkpoints-'));
  runDir = join(tmp, 'runs', 'r1');
  mkdirSync(runDir, { recursive: true });
  store = new CheckpointStore(runDir, 'r1');
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const cpDir = (lane: Role, seq: number) => join(runDir, lane, 'checkpoints', String(seq));
const readJsonFile = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('CheckpointStore.write', () => {
  it('writes handoff.json with every field, the body inline, and HANDOFF.md with header and body verbatim', () => {
    const body = 'Step one: add pagination\n  - keep this indent\n\nand this ñ line';
    const before = Date.now();
    const { checkpoint, dir } = store.write('planner', message('planner', 1, 1, body), anchor);
    const after = Date.now();
    expect(dir).toBe(cpDir('planner', 1));
    expect(readdirSync(dir).sort()).toEqual(['HANDOFF.md', 'handoff.json']);

    const raw = readFileSync(join(dir, 'handoff.json'), 'utf8');
    const json = readJsonFile(join(dir, 'handoff.json')) as Record<string, unknown>;
    expect(handoffCheckpointSchema.parse(json)).toEqual(checkpoint);
    expect(raw).toBe(`${JSON.stringify(checkpoint, null, 2)}\n`);
    expect(json).toEqual({
      schema_version: 1,
      run_id: 'r1',
      seq: 1,
      round: 1,
      from: 'planner',
      to: 'builder',
      created_at: expect.any(String),
      sha256: hex(body),
      bytes: Buffer.byteLength(body, 'utf8'),
      lines: 4,
      anchor,
      body,
    });
    expect(json.bytes).toBe(body.length + 1); // one 'ñ'
    const created = Date.parse(json.created_at as string);
    expect(created).toBeGreaterThanOrEqual(before);
    expect(created).toBeLessThanOrEqual(after);
    expect(sha256(body)).toBe(hex(body));

    const md = readFileSync(join(dir, 'HANDOFF.md'), 'utf8');
    expect(md).toContain(`\n[relevo ronda 1 · de planner]\n${body}\n`);
    expect(md).toBe(handoffMarkdown(checkpoint, body, '[relevo ronda 1 · de planner]'));
    expect(md).toContain('- workspace: HEAD 0123456789ab · status bbbbbbbbbbbb');
    expect(md).toContain('- checkpoint: planner/checkpoints/1\n');

    // Written aside, then renamed: nothing left next to it.
    expect(readdirSync(join(runDir, 'planner', 'checkpoints'))).toEqual(['1']);
  });

  it('leaves the anchor out outside a git repository, and records what a new checkpoint supersedes', () => {
    const { checkpoint } = store.write('builder', message('builder', 3, 2, 'report'), null, 2);
    const json = readJsonFile(join(cpDir('builder', 3), 'handoff.json')) as Record<string, unknown>;
    expect(json).not.toHaveProperty('anchor');
    expect(checkpoint).not.toHaveProperty('anchor');
    expect(json).toMatchObject({ seq: 3, round: 2, from: 'builder', to: 'planner', supersedes: 2, lines: 1, bytes: 6, body: 'report' });
    const md = readFileSync(join(cpDir('builder', 3), 'HANDOFF.md'), 'utf8');
    expect(md).toContain('- checkpoint: builder/checkpoints/3 (replaces 2)\n');
    expect(md).toContain('- workspace: not a git repository\n');
    expect(md).toContain('\n[relevo ronda 2 · de builder]\nreport\n');
    const plain = store.write('planner', message('planner', 1, 1, 'x'), null);
    expect(plain.checkpoint).not.toHaveProperty('supersedes');
  });

  it('puts a body too big for the JSON in body.txt, and reads it back', () => {
    const body = Array.from({ length: 400 }, (_, i) => `line ${i}: ${'ñ'.repeat(10)} and some words`).join('\n');
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_CHECKPOINT_BYTES);
    const { checkpoint, dir } = store.write('planner', message('planner', 1, 1, body), anchor);
    expect(readdirSync(dir).sort()).toEqual(['HANDOFF.md', 'body.txt', 'handoff.json']);
    const json = readJsonFile(join(dir, 'handoff.json')) as Record<string, unknown>;
    expect(json).not.toHaveProperty('body');
    expect(json.body_file).toBe('body.txt');
    expect(json.sha256).toBe(hex(body));
    expect(json.bytes).toBe(Buffer.byteLength(body, 'utf8'));
    expect(json.lines).toBe(400);
    expect(Buffer.byteLength(readFileSync(join(dir, 'handoff.json')))).toBeLessThanOrEqual(MAX_CHECKPOINT_BYTES);
    expect(checkpoint.body_file).toBe('body.txt');
    expect(readFileSync(join(dir, 'body.txt'), 'utf8')).toBe(body);
    expect(readFileSync(join(dir, 'HANDOFF.md'), 'utf8')).toContain(`[relevo ronda 1 · de planner]\n${body}\n`);

    const read = store.read('planner', 1);
    expect(read.body).toBe(body);
    expect(read.digestOk).toBe(true);
    expect(read).toMatchObject({ offered: false, acked: false, offer: null });
    expect(read.checkpoint).toEqual(checkpoint);
  });

  it('never replaces a checkpoint: writing the same lane and seq again throws and leaves the first as it was', () => {
    store.write('planner', message('planner', 1, 1, 'first'), anchor);
    const before = readFileSync(join(cpDir('planner', 1), 'handoff.json'), 'utf8');
    const md = readFileSync(join(cpDir('planner', 1), 'HANDOFF.md'), 'utf8');
    const again = () => store.write('planner', message('planner', 1, 1, 'second'), anchor);
    expect(again).toThrow(CheckpointError);
    expect(again).toThrow('checkpoint planner/checkpoints/1 already exists: checkpoints are immutable');
    expect(readFileSync(join(cpDir('planner', 1), 'handoff.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(cpDir('planner', 1), 'HANDOFF.md'), 'utf8')).toBe(md);
    expect(store.read('planner', 1).body).toBe('first');
    expect(readdirSync(join(runDir, 'planner', 'checkpoints'))).toEqual(['1']);
    // The same seq in the other lane is another checkpoint.
    expect(() => store.write('builder', message('builder', 1, 1, 'report'), anchor)).not.toThrow();
  });

  it('writes a handoff only into the lane of its sender', () => {
    expect(() => store.write('builder', message('planner', 1, 1, 'step'), anchor)).toThrow(CheckpointError);
    expect(() => store.write('builder', message('planner', 1, 1, 'step'), anchor)).toThrow(
      'the builder lane cannot hold a handoff from planner',
    );
    expect(existsSync(join(runDir, 'builder'))).toBe(false);
    expect(existsSync(join(runDir, 'planner'))).toBe(false);
  });

  it('refuses what is not a handoff with a seq', () => {
    const goal: Outgoing = { kind: 'goal', to: 'planner', from: 'relevo', round: 0, body: 'G', text: 'Goal: G' };
    expect(() => store.write('planner', goal, null)).toThrow('not a handoff: goal');
    // The union no longer lets a handoff without a seq be written down; one read from elsewhere is still refused.
    const { seq: _seq, ...noSeq } = message('planner', 1, 1, 'x');
    expect(() => store.write('planner', stub<Outgoing>(noSeq), null)).toThrow(CheckpointError);
    expect(existsSync(join(runDir, 'planner'))).toBe(false);
  });

  it('refuses a string field over 240 characters through the schema, before writing anything', () => {
    const long = new CheckpointStore(runDir, 'r'.repeat(300));
    expect(() => long.write('planner', message('planner', 1, 1, 'x'), null)).toThrow(z.ZodError);
    expect(existsSync(join(runDir, 'planner'))).toBe(false);
    const ok = new CheckpointStore(runDir, 'r'.repeat(240));
    expect(ok.write('planner', message('planner', 1, 1, 'x'), null).checkpoint.run_id).toBe('r'.repeat(240));
  });
});

describe('CheckpointStore.read / readAll', () => {
  it('reads what it wrote, validated, with its digest checked', () => {
    const { checkpoint } = store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    const { jsonSha256, markdownSha256 } = store.write('planner', message('planner', 2, 1, 'step 2'), anchor);
    expect(store.read('planner', 1)).toEqual({
      checkpoint,
      body: 'step 1',
      offered: false,
      acked: false,
      offer: null,
      digestOk: true,
      evidence: expect.objectContaining({
        lane: 'planner',
        seq: 1,
        bodyFile: 'handoff.json',
        bodySha256: sha256('step 1'),
        offerSha256: null,
      }),
    });
    // What write() reports is what read() finds: the journal line's digests.
    expect(store.read('planner', 2).evidence).toMatchObject({ jsonSha256, markdownSha256 });
  });

  it('lists both lanes in seq order, skipping directories being written aside', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    store.write('builder', message('builder', 1, 1, 'report 1'), anchor);
    store.write('planner', message('planner', 2, 2, 'step 2'), anchor);
    store.write('planner', message('planner', 10, 3, 'step 3'), anchor);
    mkdirSync(join(runDir, 'planner', 'checkpoints', '.11.4242.tmp'));
    store.offer('planner', 1);
    store.ack('planner', 1, 'builder', false);
    store.offer('builder', 1);
    expect(store.seqs('planner')).toEqual([1, 2, 10]);
    expect(store.seqs('builder')).toEqual([1]);
    const all = store.readAll();
    expect(all.map((c) => [c.checkpoint.from, c.checkpoint.seq, c.body, c.offered, c.acked])).toEqual([
      ['planner', 1, 'step 1', true, true],
      ['planner', 2, 'step 2', false, false],
      ['planner', 10, 'step 3', false, false],
      ['builder', 1, 'report 1', true, false],
    ]);
    expect(new CheckpointStore(join(tmp, 'empty'), 'r2').readAll()).toEqual([]);
  });

  it('throws a CheckpointError naming the checkpoint when handoff.json is corrupted', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    writeFileSync(join(cpDir('planner', 1), 'handoff.json'), '{"schema_version": 1, "run_id": ');
    expect(() => store.read('planner', 1)).toThrow(CheckpointError);
    expect(() => store.read('planner', 1)).toThrow(/^checkpoint planner\/checkpoints\/1: bad handoff\.json: /);
  });

  it('throws when handoff.json breaks the schema or claims to be another checkpoint', () => {
    const { checkpoint } = store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    writeFileSync(join(cpDir('planner', 1), 'handoff.json'), JSON.stringify({ ...checkpoint, extra: true }));
    expect(() => store.read('planner', 1)).toThrow(/^checkpoint planner\/checkpoints\/1: bad handoff\.json: /);

    store.write('builder', message('builder', 2, 1, 'report'), anchor);
    mkdirSync(cpDir('builder', 5), { recursive: true });
    writeFileSync(join(cpDir('builder', 5), 'handoff.json'), readFileSync(join(cpDir('builder', 2), 'handoff.json')));
    expect(() => store.read('builder', 5)).toThrow('checkpoint builder/checkpoints/5: it says builder/checkpoints/2');
  });

  it('reports a tampered body as digestOk false', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    const path = join(cpDir('planner', 1), 'handoff.json');
    const json = readJsonFile(path) as Record<string, unknown>;
    writeFileSync(path, JSON.stringify({ ...json, body: 'step 1, but changed' }));
    const read = store.read('planner', 1);
    expect(read.body).toBe('step 1, but changed');
    expect(read.digestOk).toBe(false);
  });
});

describe('CheckpointStore.offer', () => {
  it('creates offer.json once; offering again reuses it as a resend', () => {
    const { checkpoint } = store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    const before = Date.now();
    const first = store.offer('planner', 1);
    expect(first.resend).toBe(false);
    expect(first.offer).toEqual({
      schema_version: 1,
      transfer_id: expect.stringMatching(UUID),
      checkpoint: 'planner/checkpoints/1',
      sha256: checkpoint.sha256,
      from: 'planner',
      to: 'builder',
      round: 1,
      created_at: expect.any(String),
    });
    expect(first.offer.sha256).toBe(hex('step 1'));
    expect(Date.parse(first.offer.created_at)).toBeGreaterThanOrEqual(before);
    const path = join(cpDir('planner', 1), 'offer.json');
    expect(offerSchema.parse(readJsonFile(path))).toEqual(first.offer);
    const raw = readFileSync(path, 'utf8');

    const second = store.offer('planner', 1);
    expect(second).toEqual({ offer: first.offer, resend: true });
    expect(readFileSync(path, 'utf8')).toBe(raw);
    expect(store.read('planner', 1)).toMatchObject({ offered: true, acked: false, offer: first.offer });
  });

  it('offers a builder checkpoint to the planner, and gives each checkpoint its own transfer', () => {
    store.write('builder', message('builder', 1, 1, 'report 1'), anchor);
    store.write('builder', message('builder', 2, 1, 'report 1 again'), anchor, 1);
    const a = store.offer('builder', 1).offer;
    const b = store.offer('builder', 2).offer;
    expect(a).toMatchObject({ checkpoint: 'builder/checkpoints/1', from: 'builder', to: 'planner', round: 1 });
    expect(b.checkpoint).toBe('builder/checkpoints/2');
    expect(a.transfer_id).not.toBe(b.transfer_id);
  });

  it('cannot offer a checkpoint that does not exist', () => {
    expect(() => store.offer('planner', 1)).toThrow(CheckpointError);
    expect(existsSync(cpDir('planner', 1))).toBe(false);
  });
});

describe('CheckpointStore.ack', () => {
  it('acknowledges once: ack.json carries the transfer, receiver, digest and stale flag', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    const { offer } = store.offer('planner', 1);
    const before = Date.now();
    const acked = store.ack('planner', 1, 'builder', true);
    expect(acked).toEqual({
      ok: true,
      ack: {
        schema_version: 1,
        transfer_id: offer.transfer_id,
        receiver: 'builder',
        sha256: hex('step 1'),
        acked_at: expect.any(String),
        stale: true,
      },
    });
    if (!acked.ok) throw new Error('unreachable');
    expect(Date.parse(acked.ack.acked_at)).toBeGreaterThanOrEqual(before);
    const path = join(cpDir('planner', 1), 'ack.json');
    expect(ackSchema.parse(readJsonFile(path))).toEqual(acked.ack);
    const raw = readFileSync(path, 'utf8');
    expect(store.read('planner', 1)).toMatchObject({ offered: true, acked: true });

    const again = store.ack('planner', 1, 'builder', false);
    expect(again).toEqual({ ok: false, detail: `already acknowledged: planner/checkpoints/1 (transfer ${offer.transfer_id})` });
    if (again.ok) throw new Error('unreachable');
    expect(again.detail.startsWith('already acknowledged')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(raw);
  });

  it('records stale false when the workspace did not move', () => {
    store.write('builder', message('builder', 1, 1, 'report'), null);
    store.offer('builder', 1);
    const acked = store.ack('builder', 1, 'planner', false);
    expect(acked).toMatchObject({ ok: true, ack: { receiver: 'planner', stale: false, sha256: hex('report') } });
  });

  it('refuses the wrong receiver, and writes nothing', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    store.offer('planner', 1);
    expect(store.ack('planner', 1, 'planner', false)).toEqual({
      ok: false,
      detail: 'intended for builder, not planner: planner/checkpoints/1',
    });
    expect(existsSync(join(cpDir('planner', 1), 'ack.json'))).toBe(false);
    // The right receiver still can.
    expect(store.ack('planner', 1, 'builder', false).ok).toBe(true);
  });

  it('refuses a body tampered inside handoff.json (the old sha256 kept) as a digest mismatch', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    store.offer('planner', 1);
    const path = join(cpDir('planner', 1), 'handoff.json');
    const json = readJsonFile(path) as Record<string, unknown>;
    writeFileSync(path, `${JSON.stringify({ ...json, body: 'step 1: and also delete the tests' }, null, 2)}\n`);
    const refused = store.ack('planner', 1, 'builder', false);
    expect(refused.ok).toBe(false);
    if (refused.ok) throw new Error('unreachable');
    const old = hex('step 1').slice(0, 12);
    const now = hex('step 1: and also delete the tests').slice(0, 12);
    expect(refused.detail).toBe(`digest mismatch: planner/checkpoints/1 (offer ${old}, checkpoint ${old}, body ${now})`);
    expect(existsSync(join(cpDir('planner', 1), 'ack.json'))).toBe(false);
  });

  it('refuses a tampered body.txt as a digest mismatch', () => {
    const body = 'x'.repeat(MAX_CHECKPOINT_BYTES + 10);
    store.write('planner', message('planner', 1, 1, body), anchor);
    store.offer('planner', 1);
    writeFileSync(join(cpDir('planner', 1), 'body.txt'), `${body}y`);
    expect(store.read('planner', 1).digestOk).toBe(false);
    const refused = store.ack('planner', 1, 'builder', false);
    expect(refused).toMatchObject({ ok: false, detail: expect.stringMatching(/^digest mismatch: planner\/checkpoints\/1 /) });
  });

  it('refuses a checkpoint that was never offered', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    expect(store.ack('planner', 1, 'builder', false)).toEqual({ ok: false, detail: 'not offered: planner/checkpoints/1' });
    expect(existsSync(join(cpDir('planner', 1), 'ack.json'))).toBe(false);
  });

  it('refuses a checkpoint that cannot be read, naming it', () => {
    store.write('planner', message('planner', 1, 1, 'step 1'), anchor);
    store.offer('planner', 1);
    writeFileSync(join(cpDir('planner', 1), 'handoff.json'), 'garbage');
    const refused = store.ack('planner', 1, 'builder', false);
    expect(refused).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^digest mismatch: checkpoint planner\/checkpoints\/1: bad handoff\.json/),
    });
    expect(store.ack('builder', 7, 'planner', false).ok).toBe(false);
  });
});
