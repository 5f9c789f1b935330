import { describe, expect, it } from 'vitest';
import { normalizeReply, type ReplyLayout, replyFromLog } from '../../src/protocol/index.js';
import { EscapeStripper } from '../../src/pty/escapes.js';
import { OutputHistory, withHistory } from '../../src/pty/output-history.js';

const enc = (s: string) => new TextEncoder().encode(s);
const LAYOUT: ReplyLayout = { gutter: ['⏺ '], indent: 2, prompt: /^\$ ?$/u, chrome: [], drop: [] };

/** Feeds `bytes` split at `every` bytes (so UTF-8 characters and escape sequences are cut). */
function fed(text: string, every: number, history = new OutputHistory()): OutputHistory {
  const bytes = enc(text);
  for (let at = 0; at < bytes.length; at += every) history.write(bytes.slice(at, at + every));
  return history;
}

describe('output history: what the program printed, as text', () => {
  it('reads the same text however the bytes are split (UTF-8, CSI, OSC, CR LF across writes)', () => {
    const text = 'añ ✅ 日本\r\n\x1b[1;31mred\x1b[0m \x1b]0;title\x07ok\r\r\nnext\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\n';
    const whole = fed(text, 1 << 20).textSince(0);
    expect(whole).toBe('añ ✅ 日本\nred ok\nnextlink\n');
    for (let every = 1; every <= 7; every++) expect(fed(text, every).textSince(0), `every ${every}`).toBe(whole);
    expect(normalizeReply(text)).toBe(whole);
  });

  it('reads a CSI that adds nothing (SGR, erase, column) the same in one run as cut up, CRs at a cut included', () => {
    const text = 'a\x1b[1;38;5;75mb\x1b[0m\x1b[2K\x1b[Gc\r\x1b[0m\nd\r\r\ne\r\x1b[31mf\x1b[3Cg\x1b[?25lh\x1b[?1049hi\t\x07j\x1b[5Ak\r';
    const expected = 'abc\n\nd\ne\nf gh\ni\tj\nk';
    expect(fed(text, 1 << 20).textSince(0)).toBe(expected);
    for (let every = 1; every <= 9; every++) expect(fed(text, every).textSince(0), `every ${every}`).toBe(expected);
    // The CR the text ended with is a line break once anything else comes.
    expect(fed(text, 5).textSince(0) + fed(`${text}z`, 5).textSince(expected.length)).toBe(`${expected}\nz`);
  });

  it('never lets an unterminated control string or a C1 control swallow the next lines', () => {
    const h = fed('<handoff>\r\nstep one\u0090 hidden\r\nstep two \x1b]0;no end\r\nstep three\r\n</handoff>\r\n', 3);
    expect(h.textSince(0)).toBe('<handoff>\nstep one\nstep two \nstep three\n</handoff>\n');
  });

  it('ends a line where the cursor moves to another row, the screen is cleared or switched', () => {
    const h = fed('one\x1b[2J\x1b[Htwo\x1b[?1049hthree\x1b[5;10rfour\x1b[3Afive\x1b[12;1Hsix\x1b[3Cseven', 2);
    expect(h.textSince(0)).toBe('one\ntwo\nthree\nfour\nfive\nsix seven');
  });

  it('keeps the last complete blocks after any amount of later output, in bounded memory', () => {
    const h = new OutputHistory({ window: 1000, block: 4000 });
    h.write('<handoff>\r\nold\r\n</handoff>\r\n');
    h.write(`<handoff>\r\n${'long line\r\n'.repeat(200)}</handoff>\r\n`); // longer than the window, kept whole
    const noise = `${'x'.repeat(99)}\r\n`;
    for (let i = 0; i < 5000; i++) h.write(noise); // 500 KB
    expect(h.size).toBeLessThan(12_000);
    const { handoff, done } = h.blocksSince(0);
    expect(done).toEqual([]);
    expect(handoff.at(-1)).toBe(`<handoff>\n${'long line\n'.repeat(200)}</handoff>`);
    expect(handoff[0]).toBe('<handoff>\nold\n</handoff>');
    h.write('<done>\r\nall good\r\n</done>');
    expect(h.blocksSince(0).done).toEqual(['<done>\nall good\n</done>']);
  });

  it('keeps a block whose opening tag was split between writes, however much output follows', () => {
    for (const cut of [1, 4, 8]) {
      const h = new OutputHistory({ window: 100, block: 1000 });
      const block = '<handoff>\r\nsplit\r\n</handoff>\r\n';
      h.write(`noise ${block.slice(0, cut)}`);
      h.write(block.slice(cut));
      for (let i = 0; i < 50; i++) h.write(`${'z'.repeat(40)}\r\n`);
      expect(h.blocksSince(0).handoff, `cut at ${cut}`).toEqual(['<handoff>\nsplit\n</handoff>']);
      expect(h.size).toBeLessThan(200);
    }
  });

  it('drops a flood with no tag unread up to a line feed, and reads on from there as if it had read it all', () => {
    const line = (i: number) => `L\x1b[2m${i}\x1b[0m \x1b[3${i % 7}mword word\x1b[0m\r\x1b[2Kagain ${i}\x1b[1Cx\t\x07y\r\n`;
    // Read at once: a `<` before h, then a write that leaves an ESC open (its final is the flood's first letter).
    const before = ['<hr> ', 'abcdefghijkl\x1b'];
    const out = `Z${Array.from({ length: 400 }, (_, i) => line(i)).join('')}`;
    const all = new EscapeStripper().feed(before.join('') + out).text;
    // The text of at least the last `window` characters of output is kept (from a line start, where the stripper starts clean).
    const must = new EscapeStripper().feed(out.slice(out.lastIndexOf('\n', out.length - 1000) + 1)).text;
    for (const every of [1, 7, 64, 333]) {
      const h = new OutputHistory({ window: 1000, block: 4000 });
      for (const write of before) h.write(write);
      fed(out, every, h);
      const kept = h.textSince(0);
      expect(all.endsWith(kept), `every ${every}`).toBe(true);
      expect(all[all.length - kept.length - 1], `every ${every}: cut after a line feed`).toBe('\n');
      expect(kept.endsWith(must), `every ${every}`).toBe(true);
      expect(h.size, `every ${every}`).toBeLessThan(3000);
    }
  });

  it('finds the blocks after an unread flood from an offset taken before it, and none from one taken after', () => {
    const h = new OutputHistory({ window: 100, block: 1000 });
    h.write('<handoff>\r\nearlier\r\n</handoff>\r\n');
    const before = h.offset;
    for (let i = 0; i < 100; i++) h.write(`\x1b[32m${'f'.repeat(30)}\x1b[0m\r\n`);
    h.write('<handoff>\r\nlater\r\n</handoff>\r\n');
    const after = h.offset;
    for (let i = 0; i < 100; i++) h.write(`${'g'.repeat(30)}\r\n`);
    expect(h.blocksSince(before).handoff).toEqual(['<handoff>\nlater\n</handoff>']);
    expect(h.blocksSince(0).handoff).toEqual(['<handoff>\nearlier\n</handoff>', '<handoff>\nlater\n</handoff>']);
    expect(h.blocksSince(after)).toEqual({ handoff: [], done: [] });
    expect(h.textSince(after)).toBe(`${'g'.repeat(30)}\n`.repeat(100).slice(-h.textSince(after).length));
  });

  it('keeps a block whole that stays open across many writes longer than the window', () => {
    const h = new OutputHistory({ window: 100, block: 10_000 });
    h.write('<handoff>\r\n');
    for (let i = 0; i < 200; i++) h.write(`step ${i}\r\n`);
    h.write('</handoff>\r\n');
    for (let i = 0; i < 200; i++) h.write(`${'z'.repeat(20)}\r\n`);
    const body = Array.from({ length: 200 }, (_, i) => `step ${i}\n`).join('');
    expect(h.blocksSince(0).handoff).toEqual([`<handoff>\n${body}</handoff>`]);
  });

  it('holds only the blocks that opened since an offset (the turn)', () => {
    const h = fed('<handoff>\nprevious turn\n</handoff>\n', 4);
    const from = h.offset;
    expect(h.blocksSince(from)).toEqual({ handoff: [], done: [] });
    h.write('<handoff>\nthis turn\n</handoff>');
    expect(h.blocksSince(from).handoff).toEqual(['<handoff>\nthis turn\n</handoff>']);
  });
});

describe('replyFromLog', () => {
  it('takes the last block that is not the echo of what relevo typed, gutter and indent undone', () => {
    const sent = 'Role: end with\n<handoff>\nyour next step\n</handoff>';
    const blocks = { handoff: ['<handoff>\nmine\n</handoff>', '<handoff>\n  your next   step\n</handoff>'], done: [] };
    expect(replyFromLog(blocks, LAYOUT, sent)).toBe('<handoff>\nmine\n</handoff>');
    expect(replyFromLog({ handoff: ['<handoff>\n  your next step\n</handoff>'], done: [] }, LAYOUT, sent)).toBeNull();
    expect(replyFromLog({ handoff: ['<handoff>\n⏺ a\n    b\n</handoff>'], done: ['<done>ok</done>'] }, LAYOUT)).toBe(
      '<handoff>\na\n  b\n</handoff>\n<done>ok</done>',
    );
  });

  it('leaves out the chrome rows the agent redrew between the lines of a block (its spinner)', () => {
    const layout: ReplyLayout = { ...LAYOUT, chrome: [/^[·✢*✶✻✽] Thinking/u, /^─{3,}$/u] };
    const blocks = { handoff: ['<handoff>\n  step one\n✢ Thinking… (0s)\n─────\n  step two\n</handoff>'], done: [] };
    expect(replyFromLog(blocks, layout)).toBe('<handoff>\nstep one\nstep two\n</handoff>');
  });
});

describe('output history: what the Screen is fed', () => {
  it('ends a control string at its line end, so the terminal shows the lines after it', () => {
    const h = new OutputHistory();
    expect(h.write('a\x1b]0;no end\r\nb\u0090dcs')).toBe('a\x1b]0;no end\x1b\\\r\nb\u0090dcs');
    expect(h.write(enc('\nc\x1b]0;t\x07d'))).toBe('\x1b\\\nc\x1b]0;t\x07d');
  });

  it('ends a control string begun after plain writes, or by an ESC that ended the write before', () => {
    const h = new OutputHistory();
    expect(h.write('plain\r\n')).toBe('plain\r\n');
    expect(h.write('text \x1b')).toBe('text \x1b');
    expect(h.write(']0;no end')).toBe(']0;no end');
    expect(h.write('\r\nnext\r\n')).toBe('\x1b\\\r\nnext\r\n');
    expect(h.write('more \u009d0;c1')).toBe('more \u009d0;c1');
    expect(h.write(' still\nlast')).toBe(' still\x1b\\\nlast');
    expect(h.textSince(0)).toBe('plain\ntext \nnext\nmore \nlast');
  });
});

describe('withHistory: the screen source, falling back on the output history', () => {
  const layout: ReplyLayout = { ...LAYOUT, interrupted: [/^Interrupted by user/u] };

  it('keeps the screen reply when it shows a block, reads the log when it shows none', () => {
    const h = fed('<handoff>\r\nfrom the log\r\n</handoff>\r\n\x1b[2J', 3);
    expect(withHistory({ text: '<handoff>\nshown\n</handoff>', interrupted: false }, h, 0, layout)).toEqual({
      text: '<handoff>\nshown\n</handoff>',
      interrupted: false,
    });
    expect(withHistory({ text: 'cleared', interrupted: false }, h, 0, layout)).toEqual({
      text: '<handoff>\nfrom the log\n</handoff>',
      interrupted: false,
    });
    expect(withHistory({ text: 'cleared', interrupted: false }, h, h.offset, layout)).toEqual({ text: 'cleared', interrupted: false });
  });

  it('says interrupted when the log shows the marker, even where the screen no longer does', () => {
    const h = fed('<handoff>\r\npartial\r\n</handoff>\r\nInterrupted by user\r\n\x1b[2J', 4);
    expect(withHistory({ text: '', interrupted: false }, h, 0, layout).interrupted).toBe(true);
  });
});
