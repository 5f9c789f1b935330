import { describe, expect, it } from 'vitest';
import { type InputEvent, InputParser } from '../../src/sim/input.js';

function parse(...chunks: Array<string | Uint8Array>): InputEvent[] {
  const parser = new InputParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
}

describe('InputParser', () => {
  it('merges printable text and tells CR from LF', () => {
    expect(parse('hello wor', 'ld\r', 'a\nb')).toEqual([
      { type: 'text', text: 'hello wor' },
      { type: 'text', text: 'ld' },
      { type: 'enter' },
      { type: 'text', text: 'a' },
      { type: 'newline' },
      { type: 'text', text: 'b' },
    ]);
  });

  it('maps DEL and BS to backspace, ^C and ^D to their keys', () => {
    expect(parse('ab\x7f\b\x03\x04')).toEqual([
      { type: 'text', text: 'ab' },
      { type: 'backspace' },
      { type: 'backspace' },
      { type: 'ctrl-c' },
      { type: 'ctrl-d' },
    ]);
  });

  it('reads a bracketed paste and normalizes its newlines', () => {
    expect(parse('\x1b[200~one\r\ntwo\rthree\nfour\x1b[201~\r')).toEqual([
      { type: 'paste', text: 'one\ntwo\nthree\nfour' },
      { type: 'enter' },
    ]);
  });

  it('keeps control bytes and lone ESC inside a paste as content', () => {
    expect(parse('\x1b[200~a\x03\x1bb\x7f\x1b[201~')).toEqual([{ type: 'paste', text: 'a\x03\x1bb\x7f' }]);
  });

  it('reads a paste split across chunks, markers included', () => {
    const text = '\x1b[200~[relevo ronda 1 · de planner]\r\nStep 1\x1b[201~';
    for (let a = 1; a < text.length; a += 1) {
      for (const b of [a + 1, a + 3, a + 7]) {
        if (b >= text.length) continue;
        const events = parse(text.slice(0, a), text.slice(a, b), text.slice(b));
        expect(events, `split at ${a},${b}`).toEqual([{ type: 'paste', text: '[relevo ronda 1 · de planner]\nStep 1' }]);
      }
    }
  });

  it('joins a CR LF pair split across chunks inside a paste', () => {
    expect(parse('\x1b[200~a\r', '\nb\x1b[201~')).toEqual([{ type: 'paste', text: 'a\nb' }]);
  });

  it('decodes UTF-8 split across chunks', () => {
    const bytes = new TextEncoder().encode('ñ❯·');
    const events = parse(bytes.slice(0, 1), bytes.slice(1, 3), bytes.slice(3));
    expect(events.map((e) => (e.type === 'text' ? e.text : e.type)).join('')).toBe('ñ❯·');
  });

  it('decodes UTF-8 split inside a paste', () => {
    const bytes = new TextEncoder().encode('\x1b[200~ronda · de\x1b[201~');
    const cut = bytes.indexOf(0xb7); // second byte of U+00B7
    expect(parse(bytes.slice(0, cut), bytes.slice(cut))).toEqual([{ type: 'paste', text: 'ronda · de' }]);
  });

  it('tells a lone Escape from arrows, function keys and focus events', () => {
    expect(parse('\x1b[A\x1b[1;5C\x1bOP\x1b[15~\x1b[I\x1b[O')).toEqual([
      { type: 'sequence', sequence: '\x1b[A' },
      { type: 'sequence', sequence: '\x1b[1;5C' },
      { type: 'sequence', sequence: '\x1bOP' },
      { type: 'sequence', sequence: '\x1b[15~' },
      { type: 'sequence', sequence: '\x1b[I' },
      { type: 'sequence', sequence: '\x1b[O' },
    ]);
    expect(parse('\x1bx')).toEqual([{ type: 'escape' }, { type: 'text', text: 'x' }]);
    expect(parse('\x1b\x1bx')).toEqual([{ type: 'escape' }, { type: 'escape' }, { type: 'text', text: 'x' }]);
  });

  it('holds a bare ESC at the end of a chunk until the next chunk or flush()', () => {
    const parser = new InputParser();
    expect(parser.push('ab\x1b')).toEqual([{ type: 'text', text: 'ab' }]);
    expect(parser.pendingEscape).toBe(true);
    expect(parser.flush()).toEqual([{ type: 'escape' }]);
    expect(parser.pendingEscape).toBe(false);
    expect(parser.flush()).toEqual([]);
    expect(parser.push('\x1b')).toEqual([]);
    expect(parser.push('x')).toEqual([{ type: 'escape' }, { type: 'text', text: 'x' }]);
    expect(parser.push('\x1b')).toEqual([]);
    expect(parser.push('\x1b')).toEqual([{ type: 'escape' }]);
    expect(parser.flush()).toEqual([{ type: 'escape' }]);
  });

  it('does not hold an ESC that ends a chunk inside a paste', () => {
    const parser = new InputParser();
    parser.push('\x1b[200~abc\x1b');
    expect(parser.pendingEscape).toBe(false);
    expect(parser.push('x\x1b[201~')).toEqual([{ type: 'paste', text: 'abc\x1bx' }]);
  });

  it('waits for the rest of a sequence cut after ESC [ or ESC O', () => {
    expect(parse('a\x1b[', '1;2', 'Db')).toEqual([
      { type: 'text', text: 'a' },
      { type: 'sequence', sequence: '\x1b[1;2D' },
      { type: 'text', text: 'b' },
    ]);
    expect(parse('\x1bO', 'Q')).toEqual([{ type: 'sequence', sequence: '\x1bOQ' }]);
    expect(parse('\x1b[20', '0~hi\x1b[2', '01~')).toEqual([{ type: 'paste', text: 'hi' }]);
  });

  it('reports whether a paste is still open', () => {
    const parser = new InputParser();
    parser.push('\x1b[200~abc');
    expect(parser.inPaste).toBe(true);
    expect(parser.push('\x1b[201~x')).toEqual([
      { type: 'paste', text: 'abc' },
      { type: 'text', text: 'x' },
    ]);
    expect(parser.inPaste).toBe(false);
  });

  it('keeps tabs as text and drops other control bytes', () => {
    expect(parse('a\tb\x01\x1fc')).toEqual([{ type: 'text', text: 'a\tbc' }]);
  });
});
