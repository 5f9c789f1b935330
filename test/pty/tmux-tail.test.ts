import { describe, expect, it } from 'vitest';
import { tmuxQuote } from '../../src/pty/backends/tmux.js';
import { scrolledLines } from '../../src/pty/backends/tmux-tail.js';

describe('scrolledLines: the lines of the last rows of a history tail captured with wrapped lines joined', () => {
  it('one line per row: the last `grown`', () => {
    expect(scrolledLines(['a', 'b', 'c'], 3, 2, 10)).toEqual(['b', 'c']);
    expect(scrolledLines(['a', 'b', 'c'], 3, 3, 10)).toEqual(['a', 'b', 'c']);
  });

  it('a joined line takes ⌈width / cols⌉ rows (its colours not counted); one straddling the boundary is not told', () => {
    const long = `\x1b[31m${'y'.repeat(25)}\x1b[0m`;
    expect(scrolledLines(['x', long, 'z'], 5, 4, 10)).toEqual([long, 'z']);
    expect(scrolledLines(['x', long, 'z'], 5, 2, 10)).toBeNull();
    expect(scrolledLines(['x', `\x1b[1m${'w'.repeat(10)}\x1b[0m`], 2, 1, 10)).toEqual([`\x1b[1m${'w'.repeat(10)}\x1b[0m`]);
  });

  it('rows that do not add up, wide characters, nothing grown: not told', () => {
    expect(scrolledLines(['a', 'b'], 3, 1, 10)).toBeNull();
    expect(scrolledLines(['a', '漢字'], 2, 1, 10)).toBeNull();
    expect(scrolledLines(['a', 'b'], 2, 0, 10)).toBeNull();
    expect(scrolledLines(['a', 'b'], 2, 3, 10)).toBeNull();
  });
});

describe("tmuxQuote: a word for tmux's command parser", () => {
  it('plain words bare; others double-quoted with \\ " $ ~ escaped and control characters as octal', () => {
    expect(tmuxQuote('%3')).toBe('%3');
    expect(tmuxQuote('-t')).toBe('-t');
    expect(tmuxQuote('a \'pasted\' $line ~/x \\ "q"\n\tend')).toBe('"a \'pasted\' \\$line \\~/x \\\\ \\"q\\"\\012\\011end"');
    expect(tmuxQuote('#{pane_id}\x1b')).toBe('"#{pane_id}\\033"');
  });
});
