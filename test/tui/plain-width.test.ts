import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { PLAIN_RANGES, plainWidth } from '../../src/tui/paint/plain-width.js';

const plainChars = PLAIN_RANGES.flatMap(([from, to]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).filter((c) => plainWidth(c) !== undefined),
);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

describe('plain width', () => {
  it('measures every plain character as string-width does', () => {
    expect(plainChars.length).toBeGreaterThan(30_000);
    const differ = plainChars.filter((c) => plainWidth(c) !== stringWidth(c));
    expect(differ.map((c) => c.codePointAt(0)!.toString(16))).toEqual([]);
  });

  it('a plain character is a grapheme of its own, beside a letter or itself: widths add up', () => {
    const joined = plainChars.filter((c) => [...graphemes.segment(`a${c}${c}a`)].length !== 4);
    expect(joined.map((c) => c.codePointAt(0)!.toString(16))).toEqual([]);
  });

  it('measures text of plain characters and ANSI colours as string-width does', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const styles = ['\x1b[1m', '\x1b[2;36m', '\x1b[39m\x1b[22m', '\x1b[38;2;10;20;30m', '\x9b0m'];
    for (let i = 0; i < 2000; i++) {
      let text = '';
      for (let j = next(30); j > 0; j--) text += next(4) === 0 ? styles[next(styles.length)] : plainChars[next(plainChars.length)];
      expect([text, plainWidth(text)]).toEqual([text, stringWidth(text)]);
    }
    expect(plainWidth('relevo · planner: sim ○ idle ▸ builder: sim ● working · ▰▰▰▱▱▱▱▱▱▱ 3/10')).toBe(71);
    expect(plainWidth('\x1b[2m · \x1b[22m日本語 #1 *')).toBe(14);
  });

  it('leaves to string-width what is not plain: emoji, marks, joiners, controls, separators, Hangul', () => {
    const others = [
      '✔ done',
      '▶ play',
      '👍',
      '1\ufe0f\u20e3',
      '🇪🇸',
      'e\u0301',
      'a\u200db',
      'zero\u200bwidth',
      'soft\u00adhyphen',
      'tab\there',
      'line\u2028break',
      '한국어',
      'ｶﾞ',
      '\u{1f600}',
      '©',
    ];
    for (const text of others) expect([text, plainWidth(text)]).toEqual([text, undefined]);
  });
});
