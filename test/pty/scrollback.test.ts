// The scrollback above xterm's own few hundred lines (src/pty/scrollback.ts, screen-lines.ts): a
// line reads the same after it left xterm, every way lines leave is caught, and the view and marks
// stay on their lines.
import { describe, expect, it } from 'vitest';
import { Screen } from '../../src/pty/screen.js';

const E = '\x1b[';
/** Line `i` of a varied log: colours, bold/italic/underline, a wide character, a combining accent, curly underline with a colour. */
function fancy(i: number): string {
  const parts = [
    `${E}2m${String(i).padStart(5, '0')}${E}0m`,
    i % 3 === 0 ? `${E}38;2;${i % 256};100;200mrgb${E}0m` : `${E}${31 + (i % 7)}mred${E}0m`,
    i % 5 === 0 ? `${E}1;3;4mbold${E}22;23;24m` : 'plain',
    i % 7 === 0 ? '漢字' : 'ab',
    i % 11 === 0 ? 'cafe\u0301' : 'cafe',
    i % 13 === 0 ? `${E}4:3m${E}58;5;196mcurly${E}59;24m` : '',
    i % 17 === 0 ? `${E}44m${' '.repeat(8)}${E}49m` : '',
  ];
  return parts.join(' ');
}

/** Every line's text, wrap flag and painted row (the view scrolled to it). */
function readAll(screen: Screen, from: number, to: number, width: number) {
  const out: { text: string; wrapped: boolean; styled: string }[] = [];
  for (let i = from; i < to; i++) {
    screen.scrollViewTo(i);
    const row = i - screen.text.viewTop;
    out.push({ text: screen.text.line(i), wrapped: screen.text.wrapped(i), styled: screen.styledRow(row, width) });
  }
  screen.scrollViewToBottom();
  return out;
}

const lines = (from: number, n: number, f: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: n }, (_, k) => f(from + k)).join('\r\n');

describe('the scrollback kept beyond xterm', () => {
  it('reads a line the same after it left xterm: text, soft wraps, colours and attributes, wide and combined characters', async () => {
    const screen = new Screen({ cols: 30, rows: 5 });
    await screen.write(lines(0, 400, fancy));
    const before = readAll(screen, 0, 400, 30);
    expect(before.some((l) => l.wrapped)).toBe(true); // long lines wrapped at 30 columns
    expect(before.some((l) => l.text.includes('cafe\u0301'))).toBe(true);
    // 2,000 more lines: all of the first ones have left xterm's 500 lines for the scrollback.
    await screen.write(`\r\n${lines(400, 2000)}`);
    expect(screen.text.length).toBeGreaterThan(2400);
    expect(readAll(screen, 0, 400, 30)).toEqual(before);
    screen.dispose();
  });

  it('keeps exactly its 10,000 lines and no more, through a flood', async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    for (let k = 0; k < 5; k++) await screen.write(`${lines(k * 8000, 8000)}\r\n`);
    expect(screen.text.liveTop).toBe(10_000);
    expect(screen.text.line(0)).toBe('line 29997');
    expect(screen.text.line(9_999)).toBe(`line ${29_997 + 9_999}`);
    screen.dispose();
  });

  it('follows a scroll region (a TUI that inserts lines above its input box) into the scrollback', async () => {
    const screen = new Screen({ cols: 20, rows: 6 });
    // Rows 1–4 scroll; row 5–6 stay (the input box); lines are printed at the region's bottom.
    await screen.write(`${E}1;4r${E}4;1H`);
    await screen.write(Array.from({ length: 1200 }, (_, i) => `\r\nregion ${i}`).join(''));
    expect(screen.text.line(0)).toBe('');
    const texts = Array.from({ length: screen.text.length }, (_, i) => screen.text.line(i)).filter((t) => t.startsWith('region'));
    expect(texts).toEqual(Array.from({ length: 1200 }, (_, i) => `region ${i}`));
    screen.dispose();
  });

  it('forgets the scrollback when the program erases it (ED3) or resets the terminal (RIS), and keeps the lines after', async () => {
    const screen = new Screen({ cols: 20, rows: 3 });
    await screen.write(lines(0, 1000));
    expect(screen.text.length).toBe(1000);
    await screen.write(`${E}3J`);
    expect(screen.text.length).toBe(3);
    await screen.write(`\r\n${lines(0, 1000, (i) => `after ${i}`)}`);
    expect(screen.text.line(0)).toBe('line 997'); // the live screen's rows stay
    expect(screen.text.line(3)).toBe('after 0');
    await screen.write('\x1bc');
    await screen.write(lines(0, 800, (i) => `reset ${i}`));
    expect(screen.text.length).toBe(800);
    expect(screen.text.line(0)).toBe('reset 0');
    screen.dispose();
  });

  it('loses no line when a resize makes xterm rewrap its lines', async () => {
    const screen = new Screen({ cols: 40, rows: 4 });
    await screen.write(lines(0, 700, (i) => `${String(i).padStart(4, '0')} ${'x'.repeat(25)}`));
    screen.resize(10, 4);
    const all = Array.from({ length: screen.text.length }, (_, i) => screen.text.line(i)).join('\n');
    for (const i of [0, 1, 199, 200, 500, 699]) expect(all).toContain(String(i).padStart(4, '0'));
    screen.dispose();
  });

  it('keeps a scrolled-back view and a mark on their lines as output goes on and their lines leave xterm', async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    await screen.write(lines(0, 100));
    const mark = screen.markRow(3); // "line 99"
    screen.scrollView(-50);
    const shown = screen.styledRow(0, 20);
    expect(shown).toContain('line 46');
    await screen.write(`\r\n${lines(100, 3000)}`);
    expect(screen.styledRow(0, 20)).toBe(shown);
    expect(screen.scrolledBack).toBeGreaterThan(3000);
    expect(screen.rowsFrom(mark.line)[0]?.text).toBe('line 99');
    screen.scrollViewToBottom();
    expect(screen.scrolledBack).toBe(0);
    await screen.write(`\r\n${lines(3100, 10_000)}`);
    expect(mark.line).toBe(-1); // gone off the top
    screen.dispose();
  });
});
