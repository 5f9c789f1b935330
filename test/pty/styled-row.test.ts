import { afterEach, describe, expect, it } from 'vitest';
import { Screen } from '../../src/pty/screen.js';

const E = '\x1b[';
const screens: Screen[] = [];
async function screenWith(data: string, cols = 20, rows = 3): Promise<Screen> {
  const screen = new Screen({ cols, rows });
  screens.push(screen);
  await screen.write(data);
  return screen;
}
afterEach(() => {
  for (const s of screens.splice(0)) s.dispose();
});

/** Writes a styled row into a fresh screen and reads it back: what a real terminal would show. */
async function roundTrip(row: string, cols: number): Promise<string> {
  const other = await screenWith(row, cols, 1);
  return other.styledRow(0, cols);
}

describe('Screen.styledRow', () => {
  it('plain text, padded with spaces to the width, ends with an SGR reset', async () => {
    const s = await screenWith('hello', 10);
    expect(s.styledRow(0, 10)).toBe(`hello     ${E}0m`);
    expect(s.styledRow(1, 4)).toBe(`    ${E}0m`);
    expect(s.styledRow(99, 3)).toBe(`   ${E}0m`); // past the bottom: blank
    expect(s.styledRow(0, 14)).toBe(`hello${' '.repeat(9)}${E}0m`); // wider than the screen: padded
    expect(s.styledRow(0, 3)).toBe(`hel${E}0m`); // narrower: cropped
    expect(s.styledRow(0, 3, 2)).toBe(`llo${E}0m`); // from a column
  });

  it('16-colour palette (normal and bright), 256 colours and truecolor, foreground and background', async () => {
    const s = await screenWith(
      `${E}31ma${E}94mb${E}42mc${E}103md${E}0m${E}38;5;208me${E}48;5;17mf${E}0m${E}38;2;255;128;1mg${E}48;2;0;10;200mh${E}0m`,
    );
    expect(s.styledRow(0, 8)).toBe(
      `${E}31ma${E}94mb${E}42mc${E}103md${E}0;38;5;208me${E}48;5;17mf${E}0;38;2;255;128;1mg${E}48;2;0;10;200mh${E}0m`,
    );
  });

  it('keeps 38;5;n apart from 3n for the first 16 colours (terminals may brighten only the latter)', async () => {
    const s = await screenWith(`${E}38;5;1ma${E}31mb${E}0m`);
    expect(s.styledRow(0, 2)).toBe(`${E}38;5;1ma${E}31mb${E}0m`);
  });

  it('bold, dim, italic, underline, inverse, strikethrough, invisible; SGR only where the rendition changes', async () => {
    const s = await screenWith(`${E}1mBB${E}2mD${E}22;3mI${E}4mU${E}23;24;7mR${E}27;9mS${E}29;8mH${E}0mxx`);
    const row = s.styledRow(0, 10);
    // Each change is the shorter of "turn off/on what differs" and "reset, then set": `0;3` beats `22;3`.
    expect(row).toBe(`${E}1mBB${E}2mD${E}0;3mI${E}4mU${E}0;7mR${E}0;9mS${E}0;8mH${E}0mxx${E}0m`);
    const t = await screenWith(`${E}1;4;38;5;100mx${E}22my${E}24mz${E}0m`);
    expect(t.styledRow(0, 3)).toBe(`${E}1;4;38;5;100mx${E}22my${E}24mz${E}0m`);
    // Dropping bold while dim stays: 22 clears both, so dim is set again.
    const u = await screenWith(`${E}1;2;9mx${E}22;2my${E}0m`);
    expect(u.styledRow(0, 2)).toBe(`${E}1;2;9mx${E}22;2my${E}0m`);
    expect(await roundTrip(u.styledRow(0, 2), 2)).toBe(u.styledRow(0, 2));
  });

  it('a row a terminal reads back renders the same (round trip through a second xterm)', async () => {
    const data = `${E}1;38;2;10;20;30mbold rgb${E}0m ${E}3;4;45mital${E}7m inv${E}0m ${E}38;5;99m日本${E}0m ✅ ok`;
    const s = await screenWith(data, 40);
    const row = s.styledRow(0, 40);
    expect(await roundTrip(row, 40)).toBe(row);
  });

  it('wide characters take two columns; one cut by either edge becomes a space', async () => {
    const s = await screenWith('a日本✅b');
    // a(0) 日(1-2) 本(3-4) ✅(5-6) b(7)
    expect(s.styledRow(0, 8)).toBe(`a日本✅b${E}0m`);
    expect(s.styledRow(0, 4)).toBe(`a日 ${E}0m`); // 本 would straddle column 4
    expect(s.styledRow(0, 3, 2)).toBe(` 本${E}0m`); // column 2 is the right half of 日
    const back = await roundTrip(`${s.styledRow(0, 4)}|`, 6);
    expect(back).toBe(`a日 | ${E}0m`); // the bar lands in column 4: aligned
  });

  it('with an anchor column, re-syncs the cursor after characters terminals may measure differently', async () => {
    const s = await screenWith('a✅b日c\u2764\ufe0fd', 20);
    // a(0) ✅(1-2) b(3) 日(4-5) c(6) ❤️(7: xterm's Unicode 11 width ignores VS16, terminals often draw 2) d(8).
    // ✅ (a wide symbol) and ❤️ (a cluster) are followed by an absolute column; 日 (CJK) is not.
    expect(s.styledRow(0, 10, 0, 4)).toBe(`a${E}2X✅${E}8Gb日c\u2764\ufe0f${E}13Gd ${E}0m`);
    expect(s.styledRow(0, 3, 0, 4)).toBe(`a${E}2X✅${E}0m`); // nothing after the last column: no re-sync
  });

  it('erased cells keep their background (BCE); padding past the screen is default', async () => {
    const s = await screenWith(`${E}44m${E}2K${E}0mab`, 4);
    expect(s.styledRow(0, 6)).toBe(`ab${E}44m  ${E}0m  ${E}0m`);
  });
});

describe('Screen.cursor', () => {
  it('follows the program cursor and DECTCEM', async () => {
    const s = await screenWith('ab\r\ncd', 10, 4);
    expect(s.cursor()).toEqual({ row: 1, col: 2, visible: true });
    await s.write(`${E}?25l`);
    expect(s.cursor().visible).toBe(false);
    await s.write(`${E}?1049;25h`); // several modes in one sequence
    expect(s.cursor().visible).toBe(true);
    await s.write(`${E}?25l${E}!p`); // soft reset shows it
    expect(s.cursor().visible).toBe(true);
    await s.write(`${E}?25l\x1bc`); // full reset too
    expect(s.cursor()).toEqual({ row: 0, col: 0, visible: true });
  });

  it('clamps the column after a write to the last one', async () => {
    const s = await screenWith('0123456789', 10, 2);
    expect(s.cursor()).toEqual({ row: 0, col: 9, visible: true });
  });
});
