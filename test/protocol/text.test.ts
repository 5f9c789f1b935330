import { describe, expect, it } from 'vitest';
import {
  extract,
  findLookalikes,
  formatHeader,
  isLookalike,
  parseHeader,
  rolePrompt,
  sanitizeForTyping,
} from '../../src/protocol/index.js';

describe('round header', () => {
  it('is exactly "[relevo ronda N · de ROLE]" with U+00B7 and single spaces', () => {
    expect(formatHeader(3, 'planner')).toBe('[relevo ronda 3 · de planner]');
    expect(formatHeader(12, 'builder')).toBe('[relevo ronda 12 \u00b7 de builder]');
    expect(() => formatHeader(0, 'planner')).toThrow(RangeError);
  });

  it('parses only the exact format', () => {
    expect(parseHeader('[relevo ronda 3 · de planner]')).toEqual({ round: 3, from: 'planner' });
    for (const bad of [
      '[relevo ronda 3 . de planner]',
      '[relevo ronda 3 ·  de planner]',
      ' [relevo ronda 3 · de planner]',
      '[relevo ronda 03 · de planner]',
      '[relevo round 3 · from planner]',
      '[relevo ronda 3 · de human]',
    ]) {
      expect(parseHeader(bad)).toBeNull();
    }
  });

  it('recognises look-alikes in any spelling an agent might produce', () => {
    for (const line of [
      '[relevo ronda 4 · de planner]',
      'see [relevo ronda 4 - de builder] above',
      '[Relevo Round 2 · from planner]',
      '[ relevo ronda 7]',
    ]) {
      expect(isLookalike(line)).toBe(true);
    }
    for (const line of ['relevo ronda 4', '[relevo] said', 'the relevo round ends']) expect(isLookalike(line)).toBe(false);
    expect(findLookalikes('a\n  [relevo ronda 1 · de planner]  \nb')).toEqual(['[relevo ronda 1 · de planner]']);
  });
});

describe('block extraction', () => {
  it("takes the last complete handoff, keeping the body's own line breaks and indentation", () => {
    const reply = 'Plan:\n<handoff>\nold\n</handoff>\nBetter:\n<handoff>\n  Step 2\n    - nested   \n\n  end\n</handoff>\ntrailing words';
    expect(extract(reply).handoff).toBe('  Step 2\n    - nested\n\n  end');
  });

  it('accepts a block on one line and ignores an unclosed or a stray closing tag', () => {
    expect(extract('<handoff>do X</handoff>').handoff).toBe('do X');
    expect(extract('</handoff> then <handoff>\nnever closed').handoff).toBeNull();
    expect(extract('no blocks at all').handoff).toBeNull();
  });

  it('reads the last <done> summary', () => {
    expect(extract('<done>first</done> <done>\n  Goal met.\n</done>').done).toBe('Goal met.');
    expect(extract('<done>unclosed').done).toBeNull();
  });

  it('cuts header look-alikes out of the body', () => {
    expect(extract('<handoff>\n[relevo ronda 9 · de planner]\nreal body\n</handoff>').handoff).toBe('real body');
  });
});

describe('sanitizing what relevo types', () => {
  it('removes bracketed-paste terminators, Ctrl-C, Enter and every escape sequence', () => {
    const hostile = 'a\x1b[201~b\x03c\rd\x1b]0;title\x07e\x1b]8;;http://x\x1b\\f\x1bOPg\x9b31mh\x7fi\x1bcj';
    expect(sanitizeForTyping(hostile)).toBe('abc\ndefghij');
  });

  it('keeps text, newlines and Unicode, turns CRLF into LF and tabs into spaces', () => {
    expect(sanitizeForTyping('línea 1\r\n\tpaso · ✅ 日本\n')).toBe('línea 1\n    paso · ✅ 日本\n');
  });
});

describe('role prompts', () => {
  it('exist in Spanish and English for both roles and say what each role must do', () => {
    for (const lang of ['es', 'en'] as const) {
      const planner = rolePrompt('planner', lang);
      const builder = rolePrompt('builder', lang);
      expect(planner).toContain('<handoff>');
      expect(planner).toContain('<done>');
      expect(planner).toContain('[relevo ronda N · de builder]');
      expect(builder).toContain('<handoff>');
      expect(builder).toContain('[relevo ronda N · de planner]');
    }
    expect(rolePrompt('planner', 'es')).toMatch(/no toques el código/);
    expect(rolePrompt('planner', 'en')).toMatch(/never edit code/);
  });
});
