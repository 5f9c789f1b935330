import { describe, expect, it } from 'vitest';
import { Screen } from '../../src/pty/screen.js';
import { encodeMouse, hitPane, isMotion, isPress, MOUSE_OFF, MOUSE_ON, MouseReader, wheelStep } from '../../src/tui/input/mouse.js';
import { layout } from '../../src/tui/paint/layout.js';
import { RealTerminal } from '../../src/tui/view/terminal.js';
import { quietStdin, stub } from '../helpers/stub.js';

const wheelUp = (x: number, y: number) => `\x1b[<64;${x};${y}M`;

describe('mouse reports in the keyboard bytes', () => {
  it('takes SGR reports out and passes every other key on, in order', () => {
    const reader = new MouseReader();
    const read = reader.feed(`ab${wheelUp(10, 5)}\x1b[A\x1b[<0;3;4M\x1b[<0;3;4mc`);
    expect(read.keys).toBe('ab\x1b[Ac');
    expect(read.events).toEqual([
      { code: 64, x: 10, y: 5, release: false },
      { code: 0, x: 3, y: 4, release: false },
      { code: 0, x: 3, y: 4, release: true },
    ]);
    expect(read.events.map(wheelStep)).toEqual([-1, 0, 0]);
    expect(read.events.map(isPress)).toEqual([false, true, false]);
  });

  it('reads a drag: the press, motion with the left button down (code 32, button-event tracking asked for), the release', () => {
    expect(MOUSE_ON).toContain('\x1b[?1002h');
    const { keys, events } = new MouseReader().feed('\x1b[<0;5;3M\x1b[<32;6;3M\x1b[<32;8;4M\x1b[<0;8;4m');
    expect(keys).toBe('');
    expect(events.map((e) => [isPress(e), isMotion(e), e.release, e.x, e.y])).toEqual([
      [true, false, false, 5, 3],
      [false, true, false, 6, 3],
      [false, true, false, 8, 4],
      [false, false, true, 8, 4],
    ]);
    expect(events.map(wheelStep)).toEqual([0, 0, 0, 0]);
  });

  it('leaves a paste whole, reports and all, however many reads it spans', () => {
    const reader = new MouseReader();
    const first = reader.feed(`\x1b[200~pasted ${wheelUp(1, 1)}`);
    expect(first).toEqual({ keys: `\x1b[200~pasted ${wheelUp(1, 1)}`, events: [] });
    // The end marker cut in two: held until it is whole, and the paste stays open until then.
    expect(reader.feed(`more ${wheelUp(2, 2)}\x1b[20`)).toEqual({ keys: `more ${wheelUp(2, 2)}`, events: [] });
    expect(reader.feed(`1~${wheelUp(3, 3)}x`)).toEqual({ keys: '\x1b[201~x', events: [{ code: 64, x: 3, y: 3, release: false }] });
  });

  it('keeps a report cut by the end of a read until the next read completes it', () => {
    const reader = new MouseReader();
    expect(reader.feed('k\x1b[<64;1')).toEqual({ keys: 'k', events: [] });
    expect(reader.feed('0;5M')).toEqual({ keys: '', events: [{ code: 64, x: 10, y: 5, release: false }] });
    // Escape alone is a key at once, not held as the start of something.
    expect(reader.feed('\x1b')).toEqual({ keys: '\x1b', events: [] });
  });
});

describe('which pane the pointer is over', () => {
  const view = layout(180, 50, 4, 'planner', false);

  it('names the pane and the cell of its agent screen (1-based), its frame, or nothing over the chrome', () => {
    // Side by side: the builder's frame starts at column 90, its screen at 91 and row 1 (0-based).
    expect(hitPane(view, 100, 5)).toEqual({ role: 'builder', inside: true, x: 10, y: 5 });
    expect(hitPane(view, 1, 1)).toEqual({ role: 'planner', inside: true, x: 1, y: 1 });
    expect(hitPane(view, 90, 0)).toMatchObject({ role: 'builder', inside: false });
    expect(hitPane(view, 10, 47)).toBeNull();
  });
});

describe('a mouse event for an agent that asked for the mouse', () => {
  const press = { code: 0, x: 0, y: 0, release: false };
  const release = { ...press, release: true };
  const wheel = { ...press, code: 64 };
  const drag = { ...press, code: 32 };
  const ctrlPress = { ...press, code: 16 };

  it('in the encoding it asked for, at its own coordinates', () => {
    const sgr = { tracking: 'vt200', encoding: 'sgr' } as const;
    expect(encodeMouse(wheel, sgr, 10, 5)).toBe('\x1b[<64;10;5M');
    expect(encodeMouse(release, sgr, 10, 5)).toBe('\x1b[<0;10;5m');
    const legacy = { tracking: 'vt200', encoding: 'default' } as const;
    expect(encodeMouse(press, legacy, 10, 5)).toBe('\x1b[M *%');
    expect(encodeMouse(release, legacy, 10, 5)).toBe('\x1b[M#*%');
    expect(encodeMouse(press, legacy, 95, 5)).toBeNull();
    expect(encodeMouse(press, { tracking: 'vt200', encoding: 'urxvt' }, 10, 5)).toBe('\x1b[32;10;5M');
  });

  it('only the events its mode reports', () => {
    expect(encodeMouse(press, { tracking: 'none', encoding: 'sgr' }, 1, 1)).toBeNull();
    expect(encodeMouse(drag, { tracking: 'vt200', encoding: 'sgr' }, 1, 1)).toBeNull();
    expect(encodeMouse(drag, { tracking: 'drag', encoding: 'sgr' }, 1, 1)).toBe('\x1b[<32;1;1M');
    expect(encodeMouse(release, { tracking: 'x10', encoding: 'sgr' }, 1, 1)).toBeNull();
    expect(encodeMouse(ctrlPress, { tracking: 'x10', encoding: 'sgr' }, 1, 1)).toBe('\x1b[<0;1;1M');
    expect(encodeMouse({ ...wheel, release: true }, { tracking: 'any', encoding: 'sgr' }, 1, 1)).toBeNull();
  });

  it("the agent's mode is read from its output: which events (DECSET 9/1000/1002/1003) and the encoding (1006, 1015)", async () => {
    const screen = new Screen({ cols: 20, rows: 5 });
    expect(screen.mouse).toEqual({ tracking: 'none', encoding: 'default' });
    await screen.write('\x1b[?1000h');
    expect(screen.mouse).toEqual({ tracking: 'vt200', encoding: 'default' });
    await screen.write('\x1b[?1002h\x1b[?1006h');
    expect(screen.mouse).toEqual({ tracking: 'drag', encoding: 'sgr' });
    await screen.write('\x1b[?1006l\x1b[?1015h');
    expect(screen.mouse.encoding).toBe('urxvt');
    await screen.write('\x1b[?1002l\x1b[?1015l');
    expect(screen.mouse).toEqual({ tracking: 'none', encoding: 'default' });
    await screen.write('\x1b[?1003h\x1b[?1006h\x1bc');
    expect(screen.mouse).toEqual({ tracking: 'none', encoding: 'default' });
    screen.dispose();
  });
});

describe("relevo's terminal", () => {
  /** A terminal that records what relevo writes to it. */
  function terminal(mouse: boolean) {
    let out = '';
    const stdout = stub<NodeJS.WriteStream>({ write: (s: string) => (out += s) });
    return { term: new RealTerminal({ stdin: quietStdin(), stdout }, { mouse }), out: () => out };
  }

  it('asks for the mouse on entering and gives it back on leaving (once), as the editor hand-over and every exit do', () => {
    const { term, out } = terminal(true);
    term.enter();
    expect(out()).toContain(MOUSE_ON);
    term.leave();
    term.leave();
    expect(out().split(MOUSE_OFF)).toHaveLength(2);
    expect(out().indexOf(MOUSE_OFF)).toBeGreaterThan(out().indexOf(MOUSE_ON));
    term.enter();
    expect(out().split(MOUSE_ON)).toHaveLength(3);
  });

  it('with --no-mouse, never asks for it', () => {
    const { term, out } = terminal(false);
    term.enter();
    term.leave();
    expect(out()).not.toContain('\x1b[?1000h');
    expect(out()).not.toContain('\x1b[?1006');
  });
});
