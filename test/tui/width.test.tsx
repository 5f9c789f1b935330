import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { splitKeys } from '../../src/pty/keys.js';
import { editLine, emptyLine, type LineState } from '../../src/tui/input/line-editor.js';
import { columns, cut, fit, fitPadded, wrap, wrapKept } from '../../src/tui/paint/width.js';
import { bandParts } from '../../src/tui/view/band.js';
import GoalPrompt from '../../src/tui/view/components/GoalPrompt.js';
import { paneFrame } from '../../src/tui/view/frame.js';
import { bandInfo } from '../helpers/tui-state.js';

const plain = (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

describe('display width', () => {
  it('counts columns, not code units: CJK and emoji take two, a combining accent none', () => {
    expect(columns('日本')).toBe(4);
    expect(columns('😀')).toBe(2);
    expect(columns('e\u0301')).toBe(1);
  });

  it('cuts between graphemes, leaving out a wide character that would straddle the edge', () => {
    expect(cut('日本語', 3)).toBe('日');
    expect(cut('a😀b', 2)).toBe('a');
    expect(cut('👨‍👩‍👧 family', 2)).toBe('👨‍👩‍👧');
    expect(fit('日本語', 4)).toBe('日…');
    expect(fit('日本', 4)).toBe('日本');
    expect(fitPadded('日本', 6)).toBe('日本  ');
  });
});

describe('CJK and emoji in the chrome', () => {
  it('a toast wraps at its columns, whatever the text: no line wider than the area, nothing lost', () => {
    const texts = [
      'ラウンド 2 をビルダーに送りました。長い説明がここに続きます',
      '🚀🚀🚀 round 2 delivered 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉',
      'round 1 delivered',
      `a-path/${'x'.repeat(50)}/that-is-longer-than-the-line`,
    ];
    for (const text of texts) {
      const lines = wrap(text, 20);
      for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(20);
      expect(lines.join('').replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    }
    expect(wrap('round 1 delivered to the builder', 18)).toEqual(['round 1 delivered', 'to the builder']);
    expect(wrap('日本語', 1)).toEqual(['日', '本', '語']);
    expect(wrap('', 10)).toEqual(['']);
  });

  it("a handoff's line wraps at its columns keeping its spacing: indentation, runs of spaces, a long word cut", () => {
    expect(wrapKept('  - keep  the indent here', 12)).toEqual(['  - keep', 'the indent', 'here']);
    expect(wrapKept('see https://example.com/a/long/path', 12)).toEqual(['see https://', 'example.com/', 'a/long/path']);
    expect(wrapKept('日本語のテキスト', 5)).toEqual(['日本', '語の', 'テキ', 'スト']);
    expect(wrapKept('   ', 10)).toEqual(['   ']);
    for (const line of ['  a   b  c', `x${'y'.repeat(30)} z`, '漢字 漢字漢字漢字']) {
      for (const row of wrapKept(line, 7)) expect(columns(row)).toBeLessThanOrEqual(7);
    }
  });

  it('the band drops parts by their columns, and a note too wide for it is cut to its width', () => {
    const info = bandInfo({ agents: { planner: 'クロード', builder: 'コーデックス' } });
    // The whole band is 101 code units but 111 columns: at 105 columns the names are left out.
    expect(bandParts(info, 111)).toContain('planner: クロード ○ idle ▸ builder: コーデックス ● working');
    expect(bandParts(info, 105)).toContain('planner ○ idle ▸ builder ● working');
    for (const width of [120, 90, 80, 50, 20]) expect(stringWidth(bandParts(info, width).join(' · '))).toBeLessThanOrEqual(width);
    const note = 'ビルダー: あなたの下書きがラウンド 2 を止めています — 送信するか消してください';
    for (const width of [160, 60, 30, 9])
      expect(stringWidth(bandParts({ ...info, notes: [note] }, width).join(' · '))).toBeLessThanOrEqual(width);
  });

  it('the goal prompt scrolls by columns, keeping the cursor in view', () => {
    const prompt = (text: string, cursor: number) =>
      render(<GoalPrompt line={{ text, cursor, browsing: null, draft: '' }} width={20} />).lastFrame()!;
    const abc = 'abcdefghijklmnopqrstuvwxyz';
    expect(prompt(abc, 26).trimEnd()).toBe('goal › pqrstuvwxyz');
    expect(prompt(abc, 5)).toBe('goal › abcdefghijkl');
    const cjk = '日本語のテキストです';
    expect(prompt(cjk, cjk.length).trimEnd()).toBe('goal › キストです');
    expect(prompt(cjk, 1)).toBe('goal › 日本語のテキ');
    expect(stringWidth(prompt('😀😀😀😀😀😀😀😀', 16))).toBeLessThanOrEqual(20);
  });

  it('the goal prompt moves over and deletes an emoji or an accented letter whole', () => {
    const type = (keys: string) =>
      splitKeys(keys).reduce<LineState>((line, key) => {
        const r = editLine(line, key, []);
        return 'state' in r ? r.state : line;
      }, emptyLine);
    expect(type('a😀b\x1b[D\x1b[D\x7f')).toMatchObject({ text: '😀b', cursor: 0 });
    expect(type('a😀b\x1b[D\x1b[D\x1b[3~')).toMatchObject({ text: 'ab', cursor: 1 });
    expect(type('ae\u0301\x7f')).toMatchObject({ text: 'a', cursor: 1 });
    expect(type('👨‍👩‍👧\x1b[D\x1b[Cx')).toMatchObject({ text: '👨‍👩‍👧x' });
  });

  it("a pane's title line is exactly its frame's width", () => {
    const top = (title: string, width: number) => plain(paneFrame({ top: 0, left: 0, width, height: 3 }, title, false)).split('│')[0]!;
    for (const title of ['planner · クロード · 作業中 · focus', 'builder · 🤖🤖🤖🤖🤖🤖🤖 · working', 'planner · claude · working']) {
      for (const width of [12, 20, 33, 60]) expect(stringWidth(top(title, width))).toBe(width);
    }
  });
});
