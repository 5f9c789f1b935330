import { afterEach, describe, expect, it, vi } from 'vitest';
import { Screen } from '../../src/pty/screen.js';
import { PanePainter, type Rect } from '../../src/tui/paint/painter.js';

const E = '\x1b[';
const CUP = /\x1b\[\d+;\d+H/g;

/** A fake stdout that keeps what it was given. */
class Sink {
  chunks: string[] = [];
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  take(): string {
    const all = this.chunks.join('');
    this.chunks = [];
    return all;
  }
}

const screens: Screen[] = [];
function screen(cols: number, rows: number): Screen {
  const s = new Screen({ cols, rows });
  screens.push(s);
  return s;
}
afterEach(() => {
  vi.useRealTimers();
  for (const s of screens.splice(0)) s.dispose();
});

/** The real terminal: 40×12, filled with '#' chrome, the cursor parked at row 11 column 3 in red. */
async function terminal(): Promise<Screen> {
  const real = screen(40, 12);
  await real.write(`${Array.from({ length: 12 }, () => '#'.repeat(40)).join('\r\n')}${E}12;4H${E}31m`);
  return real;
}

/** What the real terminal shows in `rect`, row by row, against what the pane shows. */
function expectRectShows(real: Screen, pane: Screen, rect: Rect): void {
  for (let y = 0; y < rect.height; y++)
    expect(real.styledRow(rect.top + y, rect.width, rect.left), `row ${y}`).toBe(pane.styledRow(y, rect.width));
}

const RECT: Rect = { top: 2, left: 5, width: 16, height: 5 };
const COLOURED = `${E}1;31merror${E}0m plain\r\n${E}38;5;208;48;2;0;0;90morange on navy${E}0m\r\n${E}3;4mital-und${E}7m inv${E}0m\r\n${E}9mstrike${E}0m ${E}2mdim${E}0m`;

describe('PanePainter', () => {
  it('paints the pane into its rectangle with colours and attributes, leaving the rest and the cursor alone', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write(COLOURED);
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT);
    expect(painter.paint()).toBe(true);
    const frame = out.take();
    expect(frame.startsWith(`${E}?2026h\x1b7`)).toBe(true);
    expect(frame.endsWith(`\x1b8${E}?2026l`)).toBe(true);
    await real.write(frame);
    expectRectShows(real, pane, RECT);
    expect(real.styledRow(2, 1, 5)).toBe(`${E}1;31me${E}0m`);
    expect(real.styledRow(3, 3, 5)).toBe(`${E}38;5;208;48;2;0;0;90mora${E}0m`);
    // Chrome around the rectangle is untouched.
    expect(real.styledRow(2, 5)).toBe(`#####${E}0m`);
    expect(real.styledRow(2, 19, 21)).toBe(`${'#'.repeat(19)}${E}0m`);
    expect(real.styledRow(1, 40)).toBe(`${'#'.repeat(40)}${E}0m`);
    expect(real.styledRow(7, 40)).toBe(`${'#'.repeat(40)}${E}0m`);
    // The real cursor and its SGR state are back where the other writer left them.
    expect(real.cursor()).toMatchObject({ row: 11, col: 3 });
    await real.write('Z');
    expect(real.styledRow(11, 1, 3)).toBe(`${E}31mZ${E}0m`);
    painter.dispose();
  });

  it('writes nothing when nothing changed, and only the changed row when one did', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write(COLOURED);
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT);
    painter.paint();
    await real.write(out.take());
    expect(painter.paint()).toBe(false);
    expect(out.take()).toBe('');
    await pane.write(`${E}2;1H${E}32mgreen${E}0m`);
    painter.paint();
    const frame = out.take();
    expect(frame.match(CUP)).toEqual([`${E}4;6H`]); // pane row 1 → terminal row 3 (1-based 4), column 5 (6)
    await real.write(frame);
    expectRectShows(real, pane, RECT);
    expect(painter.stats).toMatchObject({ frames: 2, rows: 6 });
  });

  it('keeps columns aligned around wide characters', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write('a日本✅b|\r\n日本語のテキストです'); // second row: 10 wide chars → 20 columns, cropped at 16
    const out = new Sink();
    new PanePainter(out, pane, RECT).paint();
    await real.write(out.take());
    expectRectShows(real, pane, RECT);
    expect(real.snapshot().viewport[2]).toBe(`#####a日本✅b|${' '.repeat(7)}${'#'.repeat(19)}`);
    expect(real.snapshot().viewport[3]).toBe(`#####日本語のテキスト${'#'.repeat(19)}`);
    // Odd width: the wide character cut by the edge becomes a space; the chrome after it stays put.
    const odd = screen(16, 5);
    await odd.write('x日本語のテキストです');
    new PanePainter(out, odd, RECT).paint();
    await real.write(out.take());
    expect(real.snapshot().viewport[2]).toBe(`#####x日本語のテキス ${'#'.repeat(19)}`);
  });

  it('a terminal measuring an emoji differently from xterm shifts nothing after it', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write('a✅b|');
    const out = new Sink();
    new PanePainter(out, pane, RECT).paint();
    // This terminal draws ✅ one column wide: the painter's re-sync still puts "b|" in columns 3-4,
    // and the cell it did not draw was erased rather than left stale.
    await real.write(out.take().replace('✅', 'V'));
    expect(real.snapshot().viewport[2]).toBe(`#####aV b|${' '.repeat(11)}${'#'.repeat(19)}`);
  });

  it('puts a trailer (the focused cursor) inside the synchronized-output bracket', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write('ab\r\ncd');
    const out = new Sink();
    const painter: PanePainter = new PanePainter(out, pane, RECT, { trailer: () => painter.cursorSequence(true) });
    painter.paint();
    const frame = out.take();
    expect(frame.endsWith(`\x1b8${E}4;8H${E}?25h${E}?2026l`)).toBe(true);
    await real.write(frame);
    expect(real.cursor()).toEqual({ row: 3, col: 7, visible: true });
  });

  it('pads a smaller screen and crops a larger one to its bottom rows (where an agent keeps its input box)', async () => {
    const real = await terminal();
    const small = screen(4, 2);
    await small.write(`${E}44mab${E}0m`);
    const out = new Sink();
    new PanePainter(out, small, RECT).paint();
    await real.write(out.take());
    expectRectShows(real, small, RECT);
    expect(real.styledRow(2, 16, 5)).toBe(`${E}44mab${E}0m${' '.repeat(14)}${E}0m`);
    expect(real.styledRow(6, 16, 5)).toBe(`${' '.repeat(16)}${E}0m`);
    const big = screen(30, 9);
    await big.write(Array.from({ length: 9 }, (_, i) => `${i}`.repeat(30)).join('\r\n'));
    new PanePainter(out, big, RECT).paint();
    await real.write(out.take());
    // Rows 4–8 of the 9: the last row of the screen is the last of the rectangle.
    for (let y = 0; y < RECT.height; y++)
      expect(real.styledRow(RECT.top + y, RECT.width, RECT.left)).toBe(big.styledRow(4 + y, RECT.width));
    expect(real.snapshot().viewport[2]).toBe(`#####${'4'.repeat(16)}${'#'.repeat(19)}`);
    expect(real.snapshot().viewport[6]).toBe(`#####${'8'.repeat(16)}${'#'.repeat(19)}`);
    expect(real.snapshot().viewport[7]).toBe('#'.repeat(40));
  });

  it('crops a taller screen whose text and cursor end within the rectangle at its top (a fresh agent shows its banner)', async () => {
    const real = await terminal();
    const tall = screen(16, 9);
    await tall.write('banner\r\n\r\n> box\r\n'); // the cursor on row 3, rows 4–8 empty
    const out = new Sink();
    const painter = new PanePainter(out, tall, RECT);
    painter.paint();
    await real.write(out.take());
    expectRectShows(real, tall, RECT);
    expect(real.snapshot().viewport[2]).toBe(`#####banner${' '.repeat(10)}${'#'.repeat(19)}`);
    // Output that reaches row 6 moves the rectangle down to show it (rows 2–6).
    await tall.write('\r\n\r\n\r\nlast');
    painter.paint();
    await real.write(out.take());
    expect(real.snapshot().viewport[2]).toBe(`#####> box${' '.repeat(11)}${'#'.repeat(19)}`);
    expect(real.snapshot().viewport[6]).toBe(`#####last${' '.repeat(12)}${'#'.repeat(19)}`);
  });

  it('caps the frame rate with one timer that is gone once painted', async () => {
    const pane = screen(16, 5);
    await pane.write('first');
    // The painter's clock moves only with the fake timers (xterm needs real ones to parse writes).
    let clock = 1000;
    const advance = (ms: number) => {
      clock += ms;
      vi.advanceTimersByTime(ms);
    };
    vi.useFakeTimers();
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT, { fps: 30, now: () => clock });
    expect(vi.getTimerCount()).toBe(0);
    painter.schedule();
    painter.schedule();
    painter.schedule(); // a burst in one tick: one timer, one frame
    expect(vi.getTimerCount()).toBe(1);
    expect(out.chunks).toHaveLength(0);
    advance(0);
    expect(out.chunks).toHaveLength(1);
    expect(painter.pending).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
    vi.useRealTimers();
    await pane.write('\r\nsecond');
    vi.useFakeTimers();
    advance(5);
    painter.schedule(); // within the frame: waits for the rest of it (33.3 - 5 ms)
    expect(vi.getTimerCount()).toBe(1);
    advance(20);
    expect(out.chunks).toHaveLength(1);
    advance(9);
    expect(out.chunks).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
    // Nothing changed: a scheduled paint writes nothing and leaves no timer.
    advance(100);
    painter.schedule();
    advance(0);
    expect(out.chunks).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
    painter.schedule();
    painter.dispose();
    expect(vi.getTimerCount()).toBe(0);
    painter.schedule(); // disposed: never arms again
    expect(vi.getTimerCount()).toBe(0);
  });

  /**
   * A painter over a screen showing `first`: its clock moved by hand, timeouts faked, immediates
   * real; `write` writes with real timers (xterm needs them to parse) and `step` moves the clock.
   */
  async function slotPainter() {
    const timeouts: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['setTimeout', 'clearTimeout'] };
    const pane = screen(16, 5);
    await pane.write('first');
    let clock = 1000;
    vi.useFakeTimers(timeouts);
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT, { fps: 30, now: () => clock });
    const write = async (text: string) => {
      vi.useRealTimers();
      await pane.write(text);
      vi.useFakeTimers(timeouts);
    };
    const step = (ms: number) => {
      clock += ms;
    };
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    return { pane, out, painter, write, step, tick };
  }

  it('paints an open frame slot on an immediate, not on a timeout (a 0 ms timeout costs ≥ 1 ms of echo)', async () => {
    const { out, painter, write, step, tick } = await slotPainter();
    painter.schedule();
    painter.schedule();
    await tick();
    expect(out.chunks).toHaveLength(1); // one frame for the burst, with no timer run
    expect(painter.pending).toBe(false);
    await write('\r\nsecond');
    step(5);
    painter.schedule(); // within the frame: a timeout for the rest of it
    await tick();
    expect(out.chunks).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    step(29);
    vi.advanceTimersByTime(29);
    expect(out.chunks).toHaveLength(2);
    painter.dispose();
  });

  it("paints a keystroke's echo at once even inside the frame cap, once per keystroke; other output keeps the cap", async () => {
    const { pane, out, painter, write, step, tick } = await slotPainter();
    painter.schedule();
    await tick();
    expect(out.chunks).toHaveLength(1);
    await write('\r\nflood');
    step(5);
    painter.schedule(); // other output within the frame: it waits for the slot
    expect(vi.getTimerCount()).toBe(1);
    // A key is typed; its echo arrives while that paint is still pending: painted on an immediate.
    pane.typed();
    await write('k');
    step(1);
    painter.schedule();
    await tick();
    expect(out.chunks).toHaveLength(2);
    expect(out.chunks[1]).toContain('floodk');
    expect(vi.getTimerCount()).toBe(0);
    // More output with no new keystroke: the cap again.
    await write('!');
    step(1);
    painter.schedule();
    await tick();
    expect(out.chunks).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(1);
    painter.dispose();
  });

  it('a painter made for a pane that was hidden paints nothing out of turn for an echo from before: the relayout paints it whole', async () => {
    const pane = screen(16, 5);
    pane.typed();
    await pane.write('echoed');
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT);
    // A relayout: the painter is invalidated, then its rows go into the frame after the screen's clear.
    painter.invalidate();
    expect(out.take()).toBe('');
    expect(painter.damage()).toContain('echoed');
    painter.dispose();
  });

  it('invalidate() and resize() repaint everything', async () => {
    const pane = screen(16, 5);
    await pane.write('abc');
    const out = new Sink();
    const painter = new PanePainter(out, pane, RECT);
    painter.paint();
    expect(out.take().match(CUP)).toHaveLength(5);
    painter.invalidate();
    expect(painter.pending).toBe(true);
    painter.paint();
    expect(painter.pending).toBe(false);
    expect(out.take().match(CUP)).toHaveLength(5);
    painter.resize({ top: 0, left: 0, width: 10, height: 3 });
    painter.paint();
    expect(out.take().match(CUP)).toEqual([`${E}1;1H`, `${E}2;1H`, `${E}3;1H`]);
    painter.dispose();
  });

  it('cursorSequence places the real cursor on the focused pane cursor, or hides it', async () => {
    const real = await terminal();
    const pane = screen(16, 5);
    await pane.write('ab\r\ncde');
    const painter = new PanePainter(new Sink(), pane, RECT);
    expect(painter.cursorSequence(true)).toBe(`${E}4;9H${E}?25h`);
    expect(painter.cursorSequence(false)).toBe(`${E}?25l`);
    await real.write(painter.cursorSequence(true));
    expect(real.cursor()).toEqual({ row: 3, col: 8, visible: true });
    await pane.write(`${E}?25l`);
    expect(painter.cursorSequence(true)).toBe(`${E}?25l`);
    await pane.write(`${E}?25h${E}5;16H`);
    // A narrower rectangle pans to the cursor past its right edge, as tmux does: the cursor in its last column.
    painter.resize({ ...RECT, width: 10, height: 3 });
    expect(painter.cursorSequence(true)).toBe(`${E}5;15H${E}?25h`);
    // The cursor in the screen's last row: the rectangle shows the bottom 3 rows, the cursor in its last.
    await pane.write(`${E}5;4H`);
    expect(painter.cursorSequence(true)).toBe(`${E}5;9H${E}?25h`);
    // Text and cursor in the top rows again: so is the rectangle.
    await pane.write(`${E}2;4H`);
    expect(painter.cursorSequence(true)).toBe(`${E}4;9H${E}?25h`);
    painter.dispose();
  });
});
