import { describe, expect, it } from 'vitest';
import { KeyDraft } from '../../src/pty/draft.js';
import { isEscape, isPaste, keyAt, markerTail, PASTE_START, pastedText, splitKeys } from '../../src/pty/keys.js';
import { KeyRouter } from '../../src/tui/input/keyboard.js';
import { editLine, emptyLine } from '../../src/tui/input/line-editor.js';

describe('one key tokenizer', () => {
  it('reads escape sequences whole: arrows, Ctrl-arrows, Delete, PgUp, SS3 and mouse reports', () => {
    expect(splitKeys('a\x1b[A\x1b[1;5C\x1b[3~\x1b[5~\x1bOB\x1b[<0;3;4M')).toEqual([
      'a',
      '\x1b[A',
      '\x1b[1;5C',
      '\x1b[3~',
      '\x1b[5~',
      '\x1bOB',
      '\x1b[<0;3;4M',
    ]);
  });

  it('reads ESC alone, and ESC with the key after it as one Alt-key', () => {
    expect(splitKeys('\x1b')).toEqual(['\x1b']);
    expect(splitKeys('\x1bq\x1b\r')).toEqual(['\x1bq', '\x1b\r']);
    expect(['\x1b', '\x1bq', '\x1b[', '\x1b\x1b'].every(isEscape)).toBe(true);
    expect(['\x1b[A', '\x1bOA', 'q', `${PASTE_START}q`].some(isEscape)).toBe(false);
  });

  it('keeps an emoji and a CJK character as one key each (whole code points)', () => {
    expect(splitKeys('😀日x')).toEqual(['😀', '日', 'x']);
    expect(keyAt('a😀', 1)).toBe('😀');
    expect(keyAt('a', 1)).toBe('');
  });

  it('reads a bracketed paste as one key, ended or not yet', () => {
    const keys = splitKeys('x\x1b[200~two\rlines\x1b[201~y\x1b[200~still');
    expect(keys).toEqual(['x', '\x1b[200~two\rlines\x1b[201~', 'y', '\x1b[200~still']);
    expect(keys.filter(isPaste).map(pastedText)).toEqual(['two\rlines', 'still']);
  });

  it('finds a paste marker cut in two at the end of a read', () => {
    expect(markerTail('ab\x1b[20', PASTE_START, 3)).toBe(4);
    expect(markerTail('ab\x1b', PASTE_START, 3)).toBe(0);
  });
});

describe('its readers', () => {
  it('the draft ignores a mouse report and removes an emoji whole with one Backspace', () => {
    const d = new KeyDraft();
    d.keys('ok\x1b[<0;3;4M😀\x7f');
    expect(d.text).toBe('ok');
  });

  it('the key router reads the key after the prefix whole: an arrow is one unbound key, nothing of it reaches the agent', () => {
    const k = new KeyRouter('\x1d');
    expect(k.feed('\x1d\x1b[Ab')).toEqual([
      { type: 'unbound', key: '\x1b[A' },
      { type: 'forward', data: 'b' },
    ]);
    expect(k.feed('\x1d😀')).toEqual([{ type: 'unbound', key: '😀' }]);
  });

  it('the goal prompt takes an emoji as one key', () => {
    const r = editLine(emptyLine, splitKeys('😀')[0]!, []);
    expect(r).toEqual({ state: { text: '😀', cursor: 2, browsing: null, draft: '' } });
  });
});
