import { describe, expect, it } from 'vitest';
import {
  bannerLines,
  busyTitle,
  echoLines,
  frame,
  idleTitle,
  inputDisplay,
  NBSP,
  renderRegion,
  replyLines,
  rowsAboveAfterResize,
  spinnerLine,
  streamChunks,
  workedLines,
} from '../../src/sim/screen.js';
import { stringWidth, tailToWidth, truncateToWidth } from '../../src/sim/width.js';
import { VirtualScreen } from '../helpers/pty/screen.js';
import { simPermissionPrompt } from '../helpers/sim-screen.js';

describe('width', () => {
  it('counts wide and zero-width characters', () => {
    expect(stringWidth('abc')).toBe(3);
    expect(stringWidth('日本')).toBe(4);
    expect(stringWidth('e\u0301')).toBe(1);
    expect(stringWidth('❯✻⎿·─')).toBe(5);
    expect(truncateToWidth('日本語', 5)).toBe('日本');
    expect(tailToWidth('日本語', 5)).toBe('本語');
    expect(tailToWidth('abcdef', 3)).toBe('def');
  });
});

describe('transcript lines', () => {
  it('banner', () => {
    expect(bannerLines({ role: 'builder', name: 'sim', cwd: '/w', appendSystemPrompt: undefined })).toEqual([
      '✻ relevo sim-agent · builder',
      '  simulated agent for relevo-tui demos and tests',
      '  cwd: /w',
      '',
    ]);
    expect(bannerLines({ role: 'planner', name: 'p1', cwd: '/w', appendSystemPrompt: 'añadir' })).toEqual([
      '✻ relevo sim-agent · planner · p1',
      '  simulated agent for relevo-tui demos and tests',
      '  cwd: /w',
      '  system prompt: appended (6 chars)',
      '',
    ]);
  });

  it('echo uses a normal space and indents further lines', () => {
    expect(echoLines('first\nsecond\n\nthird')).toEqual(['❯ first', '  second', '', '  third', '']);
  });

  it('reply lines keep blank rows empty and are not wrapped', () => {
    const long = 'x'.repeat(300);
    expect(replyLines(`Hello\n\n<handoff>\n${long}\n</handoff>`)).toEqual(['● Hello', '', '  <handoff>', `  ${long}`, '  </handoff>']);
    expect(workedLines(1499)).toEqual(['', '✻ Worked for 1s', '']);
    expect(workedLines(200)).toEqual(['', '✻ Worked for 0s', '']);
  });

  it('strips control characters', () => {
    expect(echoLines('a\x1b[2Jb\tc')).toEqual(['❯ a[2Jb    c', '']);
  });

  it('streams in 1 to 3 chunks', () => {
    expect(streamChunks(['a'])).toEqual([['a']]);
    expect(streamChunks(['a', 'b'])).toEqual([['a'], ['b']]);
    expect(streamChunks(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toEqual([['a', 'b', 'c'], ['d', 'e', 'f'], ['g']]);
  });
});

describe('live region', () => {
  it('idle: rule, NBSP prompt, rule, footer; cursor after the input', () => {
    const region = renderRegion({ kind: 'idle', input: 'hi', pasteId: 0 }, 20);
    expect(region.lines).toEqual(['─'.repeat(20), `❯${NBSP}hi`, '─'.repeat(20), '  ? for shortcuts']);
    expect(region).toMatchObject({ cursorRow: 1, cursorCol: 4 });
  });

  it('busy: spinner row on top and an interrupt footer', () => {
    const region = renderRegion({ kind: 'busy', input: '', pasteId: 0, frame: 3, elapsedMs: 3400 }, 30);
    expect(region.lines).toEqual(['✶ Thinking… (3s)', '─'.repeat(30), `❯${NBSP}`, '─'.repeat(30), '  esc to interrupt']);
    expect(region).toMatchObject({ cursorRow: 2, cursorCol: 2 });
    expect(spinnerLine(0, 0)).toBe('· Thinking… (0s)');
    expect(spinnerLine(7, 12_999)).toBe('✢ Thinking… (12s)');
  });

  it('permission prompt', () => {
    const region = renderRegion({ kind: 'permission' }, 40);
    expect(region.lines).toEqual(simPermissionPrompt(40));
  });

  it('input display: tail of long input, placeholder for several lines', () => {
    expect(inputDisplay('abcdefghij', 0, 8)).toBe('fghij');
    expect(inputDisplay('one\ntwo\nthree', 2, 80)).toBe('[Pasted text #2 +2 lines]');
    expect(inputDisplay('a\nb', 0, 80)).toBe('[Pasted text #1 +1 lines]');
  });

  it('never draws a row wider than the terminal', () => {
    for (const width of [5, 12, 40, 80]) {
      for (const view of [
        { kind: 'idle' as const, input: 'y'.repeat(200), pasteId: 0 },
        { kind: 'busy' as const, input: '日本'.repeat(50), pasteId: 0, frame: 1, elapsedMs: 100_000 },
        { kind: 'permission' as const },
      ]) {
        const region = renderRegion(view, width);
        for (const line of region.lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
        expect(region.cursorCol).toBeLessThan(width);
      }
    }
  });

  it('titles', () => {
    expect(idleTitle('sim', 'planner')).toBe('✳ relevo sim · planner');
    expect(busyTitle('sim', 'builder', 0)).toBe('⠂ relevo sim · builder');
    expect(busyTitle('sim', 'builder', 1)).toBe('⠐ relevo sim · builder');
  });
});

describe('frame', () => {
  it('redraws in place and pushes transcript lines above the region', async () => {
    const screen = new VirtualScreen(30, 12);
    let rowsAbove = 0;
    const draw = (transcript: string[], input: string): void => {
      const next = frame(rowsAbove, transcript, renderRegion({ kind: 'idle', input, pasteId: 0 }, 30));
      rowsAbove = next.rowsAbove;
      screen.write(next.out);
    };
    expect(frame(0, ['a'], renderRegion({ kind: 'idle', input: '', pasteId: 0 }, 30)).out).toBe(
      `\r\x1b[Ja\r\n${'─'.repeat(30)}\r\n❯${NBSP}\r\n${'─'.repeat(30)}\r\n  ? for shortcuts\r\x1b[2A\x1b[2C`,
    );
    draw(['banner', ''], '');
    draw([], 'h');
    draw([], 'hello');
    draw(['❯ hello', '', `● ${'w'.repeat(40)}`], '');
    await screen.flush();
    expect(screen.lines()).toEqual([
      'banner',
      '',
      '❯ hello',
      '',
      `● ${'w'.repeat(28)}`,
      'w'.repeat(12),
      '─'.repeat(30),
      `❯${NBSP}`,
      '─'.repeat(30),
      '  ? for shortcuts',
    ]);
    expect(screen.cursor()).toEqual({ row: 7, col: 2, line: `❯${NBSP}` });
  });

  it('scrolls content into scrollback', async () => {
    const screen = new VirtualScreen(20, 6);
    let rowsAbove = 0;
    for (let i = 0; i < 10; i += 1) {
      const next = frame(rowsAbove, [`line ${i}`], renderRegion({ kind: 'idle', input: '', pasteId: 0 }, 20));
      rowsAbove = next.rowsAbove;
      screen.write(next.out);
    }
    await screen.flush();
    const lines = screen.lines();
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    expect(lines.slice(10)).toEqual(['─'.repeat(20), `❯${NBSP}`, '─'.repeat(20), '  ? for shortcuts']);
  });

  it('counts the rows a shrink re-wraps', () => {
    const region = renderRegion({ kind: 'busy', input: 'abc', pasteId: 0, frame: 0, elapsedMs: 0 }, 100);
    expect(rowsAboveAfterResize(region, 100, 120)).toBe(2);
    // Both 100-wide rules take two rows; xterm.js keeps the cursor's distance to the bottom.
    expect(rowsAboveAfterResize(region, 100, 60)).toBe(4);
    expect(rowsAboveAfterResize(region, 100, 30)).toBe(8);
  });
});
