// GitHub Copilot CLI's captured screens (test/fixtures/screens/copilot/<release>, from
// test/fixtures/capture/copilot.capture.ts) read back through the shipped profile: the reply, the
// input box, an interrupted turn.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { extract, reconstructReply } from '../../src/protocol/index.js';

const lines = (release: string, file: string) =>
  readFileSync(new URL(`../fixtures/screens/copilot/${release}/${file}`, import.meta.url), 'utf8')
    .split('\n---\n')[1]!
    .replace(/\n$/, '')
    .split('\n');
const rows = (release: string, file: string) => lines(release, file).map((text) => ({ text, wrapped: false }));
const profile = loadProfile('copilot', 'test');

describe('GitHub Copilot CLI screens', () => {
  it('1.0.62 draws the reply as sent, tags included; 1.0.102 hides the <handoff> tags (its replies come from its session events)', () => {
    const old = reconstructReply(rows('1.0.62', 'idle--after-reply.txt'), profile.layout);
    expect(old.interrupted).toBe(false);
    expect(extract(old.text).handoff).toBe(
      '## Paso 1\n- escribir **los tests** que fallan\n    - con cuatro espacios\nVerificar: npm test',
    );
    const now = reconstructReply(rows('1.0.102', 'idle--after-reply.txt'), profile.layout);
    expect(now.text).toContain('## Paso 1');
    expect(extract(now.text).handoff).toBeNull();
  });

  it.each(['1.0.62', '1.0.102'])(
    '%s: the input box is empty when idle; Esc\'s "Operation cancelled by user" marks the turn interrupted',
    (release) => {
      const input = (file: string) => {
        const line = lines(release, file).findLast((l) => profile.layout.prompt.test(l))!;
        return (profile.layout.prompt.exec(line)?.[1] ?? '').trim();
      };
      expect(input('idle--startup.txt')).toBe('');
      expect(input('idle--after-reply.txt')).toBe('');
      expect(reconstructReply(rows(release, 'idle--interrupted.txt'), profile.layout).interrupted).toBe(true);
    },
  );
});
