import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodySize } from '../../src/protocol/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Rewrites a checkpoint consistently, as someone who knows the format would: the body of
 * `handoff.json` with its `sha256`, `bytes` and `lines`, the body inside HANDOFF.md, and (with
 * `offer`) the sha256 of `offer.json`. Returns the original files, to put back with `restore`.
 */
export function rewriteCheckpoint(runDir: string, path: string, body: string, offer = false) {
  const dir = join(runDir, ...path.split('/'));
  const files = ['handoff.json', 'HANDOFF.md', ...(offer ? ['offer.json'] : [])];
  const original = new Map(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const json = JSON.parse(original.get('handoff.json')!) as { body: string; sha256: string };
  const before = json.body;
  const digest = sha256(body);
  writeFileSync(join(dir, 'handoff.json'), `${JSON.stringify({ ...json, body, sha256: digest, ...bodySize(body) }, null, 2)}\n`);
  writeFileSync(join(dir, 'HANDOFF.md'), original.get('HANDOFF.md')!.replace(before, body).replace(json.sha256, digest));
  if (offer) writeFileSync(join(dir, 'offer.json'), original.get('offer.json')!.replace(json.sha256, digest));
  return {
    /** The journaled digest the rewrite departs from. */
    sha256: json.sha256,
    digest,
    restore: () => {
      for (const [f, text] of original) writeFileSync(join(dir, f), text);
    },
  };
}
