import { describe, expect, it } from 'vitest';
import { type CopyState, copyQuestion, findMatch, type Lines, osc52, selectionText, spansOn } from '../../src/tui/state/copy-text.js';

/** Lines as a buffer holds them; a line starting with `↪` continues the one above (a soft wrap). */
function lines(...rows: string[]): Lines {
  const text = rows.map((r) => r.replace(/^↪/, ''));
  return { length: rows.length, line: (i) => text[i] ?? '', wrapped: (i) => rows[i]?.startsWith('↪') ?? false };
}

const copy = (patch: Partial<CopyState> = {}): CopyState => ({
  cursor: { line: 0, col: 0 },
  anchor: null,
  prompt: null,
  search: null,
  match: null,
  message: null,
  leaveAtBottom: false,
  ...patch,
});

describe('searching a pane', () => {
  const buffer = lines('one Report here', 'nothing', 'a report and a Report', '表 report');

  it('finds the next match after the cursor, going round past the end, and the one before it backwards', () => {
    expect(findMatch(buffer, 'Report', { line: 0, col: 0 }, 'forward')).toEqual({ line: 0, col: 4 });
    expect(findMatch(buffer, 'Report', { line: 0, col: 4 }, 'forward')).toEqual({ line: 2, col: 15 });
    expect(findMatch(buffer, 'Report', { line: 2, col: 15 }, 'forward')).toEqual({ line: 0, col: 4 });
    expect(findMatch(buffer, 'Report', { line: 0, col: 4 }, 'backward')).toEqual({ line: 2, col: 15 });
    expect(findMatch(buffer, 'Report', { line: 2, col: 15 }, 'backward')).toEqual({ line: 0, col: 4 });
  });

  it('matches any case when the query has no capital letter, and counts columns in cells (a wide character takes two)', () => {
    expect(findMatch(buffer, 'report', { line: 1, col: 0 }, 'forward')).toEqual({ line: 2, col: 2 });
    expect(findMatch(buffer, 'report', { line: 2, col: 15 }, 'forward')).toEqual({ line: 3, col: 3 });
  });

  it('finds the match the cursor is on again only after going all the way round, and nothing that is not there', () => {
    const one = lines('just one word here');
    expect(findMatch(one, 'word', { line: 0, col: 9 }, 'forward')).toEqual({ line: 0, col: 9 });
    expect(findMatch(one, 'word', { line: 0, col: 9 }, 'backward')).toEqual({ line: 0, col: 9 });
    expect(findMatch(buffer, 'absent', { line: 0, col: 0 }, 'forward')).toBeNull();
    expect(findMatch(buffer, '', { line: 0, col: 0 }, 'forward')).toBeNull();
  });
});

describe('the selection', () => {
  it('is the text between its ends, both included, whichever end came first', () => {
    const buffer = lines('first line   ', 'second line', 'third');
    expect(selectionText(buffer, { line: 0, col: 6 }, { line: 0, col: 9 })).toBe('line');
    expect(selectionText(buffer, { line: 1, col: 5 }, { line: 0, col: 6 })).toBe('line\nsecond');
    expect(selectionText(buffer, { line: 0, col: 0 }, { line: 2, col: 40 })).toBe('first line\nsecond line\nthird');
  });

  it('joins a soft-wrapped line without a break, and cuts on cells', () => {
    const buffer = lines('a long li', '↪ne wraps', '表表 x');
    expect(selectionText(buffer, { line: 0, col: 2 }, { line: 1, col: 2 })).toBe('long line');
    expect(selectionText(buffer, { line: 2, col: 2 }, { line: 2, col: 3 })).toBe('表');
  });

  it('is painted in reverse video over its cells on each line, with the match', () => {
    const state = copy({ anchor: { line: 1, col: 4 }, cursor: { line: 3, col: 2 }, match: { at: { line: 3, col: 6 }, width: 3 } });
    expect(spansOn(state, 0, 80)).toEqual([]);
    expect(spansOn(state, 1, 80)).toEqual([{ from: 4, to: 80 }]);
    expect(spansOn(state, 2, 80)).toEqual([{ from: 0, to: 80 }]);
    expect(spansOn(state, 3, 80)).toEqual([
      { from: 0, to: 3 },
      { from: 6, to: 9 },
    ]);
  });
});

describe('the clipboard and the message rows', () => {
  it('OSC 52 carries the text as base64 (UTF-8)', () => {
    expect(osc52('héllo')).toBe(`\x1b]52;c;${Buffer.from('héllo').toString('base64')}\x07`);
    expect(osc52('sim-agent')).toBe('\x1b]52;c;c2ltLWFnZW50\x07');
  });

  it('say the search prompt, what a search found not, and the keys', () => {
    const prompt = copy({ prompt: { dir: 'backward', line: { text: 'abc', cursor: 1, browsing: null, draft: '' } } });
    expect(copyQuestion('planner', 0, prompt)).toMatch(/^\(search up\) a▏bc {3}Enter finds · Esc cancels$/);
    expect(copyQuestion('builder', 12, copy({ message: '"zzz" not found' }))).toMatch(
      /^copy mode \(builder\): "zzz" not found · 12 lines up · .* v selects · \/ \? search, n N · g G · Esc or q leaves$/,
    );
    expect(copyQuestion('builder', 0, copy({ anchor: { line: 0, col: 0 } }))).toContain('selecting: y copies');
  });
});
