/**
 * The width string-width gives text of plain characters (each its own cluster, measured by its East
 * Asian Width: no emoji, mark, control, default-ignorable or Hangul), without compiling its costly
 * emoji regex for a first frame that shows none; anything else is `undefined`, for string-width.
 * `test/tui/plain-width.test.ts` checks every plain character against string-width.
 */
import { eastAsianWidth } from 'get-east-asian-width';
import stripAnsi from 'strip-ansi';

const ASCII = /^[\x20-\x7e]*$/;
/** The ranges plain characters come from (inclusive code points), less NOT_PLAIN's. */
export const PLAIN_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], // ASCII
  [0xa0, 0x24f], // Latin-1, Latin Extended-A and -B
  [0x2010, 0x2027], // punctuation: dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e], // punctuation: per mille, primes, guillemets
  [0x20a0, 0x20c0], // currency
  [0x2100, 0x27bf], // letterlike, arrows, maths, technical, box drawing, blocks, shapes, symbols, dingbats
  [0x2e80, 0x303f], // CJK radicals and punctuation
  [0x3041, 0x3096], // hiragana
  [0x30a0, 0x30ff], // katakana
  [0x3400, 0x4dbf], // CJK
  [0x4e00, 0x9fff], // CJK
  [0xf900, 0xfaff], // CJK compatibility
  [0xff01, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
];
const hex = (n: number) => `\\u${n.toString(16).padStart(4, '0')}`;
const PLAIN = new RegExp(`^[${PLAIN_RANGES.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('')}]*$`);
// Digits, `#` and `*` are emoji too (keycap bases), but only with the mark that makes them one.
const NOT_PLAIN = /(?![0-9#*])\p{Emoji}|[\p{M}\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

/**
 * The columns `text` takes if every character in it is plain, else `undefined`. ANSI escape
 * sequences count for nothing (string-width strips them the same way).
 */
export function plainWidth(given: string): number | undefined {
  const text = given.includes('\x1b') || given.includes('\x9b') ? stripAnsi(given) : given;
  if (ASCII.test(text)) return text.length;
  if (!PLAIN.test(text) || NOT_PLAIN.test(text)) return undefined;
  let width = 0;
  for (const char of text) width += eastAsianWidth(char.codePointAt(0)!);
  return width;
}
