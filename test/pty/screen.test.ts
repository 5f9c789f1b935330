import { describe, expect, it } from 'vitest';
import { Screen } from '../../src/pty/screen.js';

describe('headless screen', () => {
  it('decodes UTF-8 split across writes and gives wide characters two cells (Unicode 11)', async () => {
    const screen = new Screen({ cols: 20, rows: 4 });
    const bytes = new TextEncoder().encode('añ ✅日本|');
    await screen.write(bytes.slice(0, 2)); // "a" and half of "ñ"
    await screen.write(bytes.slice(2, 7)); // the rest of "ñ", a space, part of ✅
    await screen.write(bytes.slice(7));
    expect(screen.snapshot().viewport[0]).toBe('añ ✅日本|');
    // a ñ ␠ ✅✅ 日日 本本 | → the bar sits in column 9 (0-based) only with Unicode 11 widths.
    await screen.write(`\r\n${' '.repeat(9)}^`);
    expect(screen.snapshot().viewport[1]).toBe(`${' '.repeat(9)}^`);
    screen.dispose();
  });

  it('keeps the OSC title, the bracketed-paste mode and the OSC payloads a profile asks for', async () => {
    const screen = new Screen({ cols: 20, rows: 4, osc: [7501] });
    await screen.write('\x1b]0;⠂ working\x07\x1b[?2004h\x1b]7501;state=working:app=codex\x1b\\');
    expect(screen.title).toBe('⠂ working');
    expect(screen.bracketedPaste).toBe(true);
    expect(screen.snapshot().osc.get(7501)).toBe('state=working:app=codex');
    await screen.write('\x1b[?2004l');
    expect(screen.bracketedPaste).toBe(false);
    screen.dispose();
  });

  it('reports soft wraps, keeping the space at the wrap point, and keeps 10,000 lines of scrollback', async () => {
    const screen = new Screen({ cols: 10, rows: 3, scrollback: 100 });
    await screen.write('hello big world\r\nnext');
    expect(screen.rowsFrom(0)).toEqual([
      { text: 'hello big ', wrapped: false },
      { text: 'world', wrapped: true },
      { text: 'next', wrapped: false },
    ]);
    const mark = screen.markRow(2);
    await screen.write(`\r\n${Array.from({ length: 100 }, (_, i) => `l${i}`).join('\r\n')}`);
    expect(mark.line).toBe(2); // follows its line as the screen scrolls
    expect(screen.rowsFrom(mark.line)[0]).toEqual({ text: 'next', wrapped: false });
    await screen.write(`\r\n${Array.from({ length: 10_500 }, (_, i) => `m${i}`).join('\r\n')}`);
    expect(screen.rowsFrom(0).length).toBe(10_000 + 3);
    expect(mark.line).toBe(-1); // trimmed off the top of the scrollback
    screen.dispose();
  });

  it('parses each write at once, in the write itself; the first one after typed keys is the echo', async () => {
    const screen = new Screen({ cols: 20, rows: 3 });
    let parsed = '';
    void screen.write('$ ', () => (parsed = screen.snapshot().viewport[0] ?? ''));
    expect(parsed).toBe('$ '); // no wait for xterm's 0 ms timeout: its callback was called right then
    expect(screen.echoVersion).toBe(0);
    screen.typed();
    void screen.write('a');
    expect(screen.snapshot().viewport[0]).toBe('$ a');
    const echo = screen.echoVersion;
    expect(echo).toBe(screen.version); // the echo: a painter shows it without waiting for its frame slot
    void screen.write('b');
    expect(screen.snapshot().viewport[0]).toBe('$ ab');
    expect(screen.echoVersion).toBe(echo); // only the first write after the keys
    await screen.settled();
    // A view scrolled back (copy mode) stays where it is; the echo below it is parsed at once all the same.
    await screen.write('\r\n1\r\n2\r\n3');
    screen.scrollView(-1);
    screen.typed();
    void screen.write('c');
    expect(screen.scrolledBack).toBe(1);
    expect(screen.snapshot().viewport[2]).toBe('3c');
    expect(screen.styledRow(2, 4)).toContain('2');
    screen.dispose();
  });
});
