// Gemini CLI 0.61.0's captured screens (test/fixtures/screens/gemini/0.61.0, from
// test/fixtures/capture/gemini.capture.ts) read back through the shipped profile: the reply, the input box.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/app/commands/explain.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { extract, reconstructReply } from '../../src/protocol/index.js';
import { detect } from '../../src/pty/detect.js';
import { explainDetection } from '../../src/pty/explain.js';

const lines = (file: string) =>
  readFileSync(new URL(`../fixtures/screens/gemini/0.61.0/${file}`, import.meta.url), 'utf8')
    .split('\n---\n')[1]!
    .replace(/\n$/, '')
    .split('\n');
const rows = (file: string) => lines(file).map((text) => ({ text, wrapped: false }));
const profile = loadProfile('gemini', 'test');

describe('Gemini CLI 0.61.0 screens', () => {
  it('the reply after the echo of the message, gutter and indent removed, the chrome under it left out', () => {
    const reply = reconstructReply(rows('idle--after-reply.txt'), profile.layout);
    expect(reply.interrupted).toBe(false);
    expect(reply.text.split('\n').slice(0, 3)).toEqual(['Entendido. Plan listo.', '', '<handoff>']);
    // It renders markdown: the list item sent as "  - con sangría" comes back indented further, which
    // is why its replies are read from its transcript.
    expect(extract(reply.text).handoff).toBe('Paso 1: hacerlo\n   - con sangría');
  });

  it('the input box: its placeholder is an empty box, typed text and a collapsed paste are not', () => {
    const input = (file: string) => {
      const line = lines(file).findLast((l) => profile.layout.prompt.test(l))!;
      const text = (profile.layout.prompt.exec(line)?.[1] ?? '').trim();
      return profile.emptyInput?.test(text) ? '' : text;
    };
    expect(input('idle--start.txt')).toBe('');
    expect(input('idle--text-typed.txt')).toBe('clean the build');
    expect(input('idle--pasted-collapsed.txt')).toMatch(/^\[Pasted Text: \d+ lines\]$/);
  });

  it('a reply cut short by Esc ("ℹ Request cancelled.") is marked interrupted: its partial handoff is never relayed', () => {
    const reply = reconstructReply(rows('idle--interrupted.txt'), profile.layout);
    expect(reply.interrupted).toBe(true);
    expect(reconstructReply(rows('idle--after-reply.txt'), profile.layout).interrupted).toBe(false);
  });

  it.each([
    ['idle--after-reply.txt', 'idle', 'input-box'],
    ['busy--thinking.txt', 'busy', 'esc-to-cancel'],
    ['blocked--shell-permission.txt', 'blocked', 'permission-prompt'],
    ['blocked--ask-user.txt', 'blocked', 'dialog'],
  ])('%s without a window title (ui.hideWindowTitle): %s, by %s', (file, state, rule) => {
    const screen = { viewport: lines(file), title: '', osc: new Map() };
    expect(detect(profile.rules, screen), `\n${formatExplanation('gemini', explainDetection(profile.rules, screen))}`).toMatchObject({
      state,
      rule,
    });
  });
});
