import { describe, expect, it } from 'vitest';
import { noColor, withoutColor } from '../../src/tui/paint/no-color.js';

describe('NO_COLOR', () => {
  it("drops the colours of relevo's chrome and keeps its weights", () => {
    expect(withoutColor('\x1b[1;36m╭─ planner ─╮\x1b[0m')).toBe('\x1b[1m╭─ planner ─╮\x1b[0m');
    expect(withoutColor('\x1b[33m▲ warn\x1b[39m \x1b[2mdim\x1b[22m')).toBe('▲ warn \x1b[2mdim\x1b[22m');
    expect(withoutColor('\x1b[38;5;208mx\x1b[48;2;1;2;3;1my\x1b[m')).toBe('x\x1b[1my\x1b[m');
    expect(withoutColor('\x1b[7;91;104minverse\x1b[27m')).toBe('\x1b[7minverse\x1b[27m');
    // Not SGR: cursor moves and erases stay.
    expect(withoutColor('\x1b[3;5H\x1b[20X')).toBe('\x1b[3;5H\x1b[20X');
  });

  it('is on when NO_COLOR is set to anything but the empty string', () => {
    expect(noColor({ NO_COLOR: '1' })).toBe(true);
    expect(noColor({ NO_COLOR: '' })).toBe(false);
    expect(noColor({})).toBe(false);
  });
});
