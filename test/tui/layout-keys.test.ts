import { describe, expect, it } from 'vitest';
import { parsePrefix, prefixName } from '../../src/app/config/prefix.js';
import { KeyRouter } from '../../src/tui/input/keyboard.js';
import { layout } from '../../src/tui/paint/layout.js';

describe('layout', () => {
  it('puts the panes side by side from 160 columns, each PTY sized to its box inside the border', () => {
    const l = layout(200, 50, 2, 'planner', false);
    expect(l.arrangement).toBe('side-by-side');
    expect(l.panes.planner).toEqual({
      frame: { top: 0, left: 0, width: 100, height: 48 },
      inner: { top: 1, left: 1, width: 98, height: 46 },
    });
    expect(l.panes.builder?.frame).toEqual({ top: 0, left: 100, width: 100, height: 48 });
    expect(l.chrome).toEqual({ top: 48, left: 0, width: 200, height: 2 });
  });

  it('stacks them on narrower terminals taller than 40 rows', () => {
    const l = layout(100, 50, 2, 'builder', false);
    expect(l.arrangement).toBe('stacked');
    expect(l.panes.planner?.frame).toEqual({ top: 0, left: 0, width: 100, height: 24 });
    expect(l.panes.builder?.frame).toEqual({ top: 24, left: 0, width: 100, height: 24 });
  });

  it('shows the focused pane alone when zoomed, or when the terminal is too small for two', () => {
    expect(layout(200, 50, 2, 'builder', true)).toMatchObject({
      arrangement: 'zoomed',
      panes: { builder: { frame: { width: 200, height: 48 } } },
    });
    const small = layout(100, 30, 2, 'planner', false);
    expect(small.arrangement).toBe('zoomed');
    expect(Object.keys(small.panes)).toEqual(['planner']);
  });
});

describe('keyboard', () => {
  const prefix = parsePrefix('C-]')!;

  it('names prefixes the way tmux does', () => {
    expect(prefix).toBe('\x1d');
    expect(parsePrefix('C-b')).toBe('\x02');
    expect(parsePrefix('x')).toBeNull();
    expect(prefixName('\x1d')).toBe('C-]');
  });

  it('forwards everything to the focused agent, Ctrl and escape sequences included', () => {
    const k = new KeyRouter(prefix);
    expect(k.feed('ls\x1b[A\x03\r')).toEqual([{ type: 'forward', data: 'ls\x1b[A\x03\r' }]);
  });

  it('turns prefix + key into a command, even across reads, and the prefix twice into the prefix itself', () => {
    const k = new KeyRouter(prefix);
    expect(k.feed('a\x1dpb')).toEqual([
      { type: 'forward', data: 'a' },
      { type: 'command', command: 'pause' },
      { type: 'forward', data: 'b' },
    ]);
    expect(k.feed('\x1d')).toEqual([]);
    expect(k.armed).toBe(true);
    expect(k.feed('?')).toEqual([{ type: 'command', command: 'help' }]);
    expect(k.feed('\x1d\x1d')).toEqual([{ type: 'forward', data: '\x1d' }]);
    expect(k.feed('\x1dX')).toEqual([{ type: 'unbound', key: 'X' }]);
  });

  it('never looks for the prefix inside a paste', () => {
    const k = new KeyRouter(prefix);
    expect(k.feed('\x1b[200~a\x1dq')).toEqual([]);
    expect(k.feed('b\x1b[201~\x1dq')).toEqual([
      { type: 'paste', text: 'a\x1dqb' },
      { type: 'command', command: 'quit' },
    ]);
  });

  it('keeps a paste that arrives in several reads whole: its line breaks never go through as typed Enter', () => {
    const k = new KeyRouter(prefix);
    const actions = [k.feed('x\x1b[200~first line\r'), k.feed('second line\rthird'), k.feed(' line\x1b[201~y')].flat();
    expect(actions).toEqual([
      { type: 'forward', data: 'x' },
      { type: 'paste', text: 'first line\rsecond line\rthird line' },
      { type: 'forward', data: 'y' },
    ]);
    // The paste markers themselves cut between reads.
    const cut = [k.feed('\x1b[20'), k.feed('0~a\rb\x1b[2'), k.feed('01~')].flat();
    expect(cut).toEqual([{ type: 'paste', text: 'a\rb' }]);
    // Escape alone (and an arrow key) still go through at once.
    expect(k.feed('\x1b')).toEqual([{ type: 'forward', data: '\x1b' }]);
    expect(k.feed('\x1b[A')).toEqual([{ type: 'forward', data: '\x1b[A' }]);
  });
});
