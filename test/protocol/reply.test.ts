import { describe, expect, it } from 'vitest';
import { joinRows, type ReplyLayout, reconstructReply, type ScreenRow } from '../../src/protocol/index.js';

const claudeLike: ReplyLayout = {
  gutter: ['● '],
  indent: 2,
  echo: /^❯ /u,
  prompt: /^❯\u00a0(.*)$/u,
  chrome: [/^─{3,}$/u, /^[·✢*✶✻✽] Thinking/u],
  drop: [/^✻ \S+ for \d+s$/u, /^ {2}Worked for /u],
  interrupted: [/^ {2}⎿ {1,2}Interrupted/u],
};

const rows = (...lines: string[]): ScreenRow[] =>
  lines.map((l) => (l.startsWith('~') ? { text: l.slice(1), wrapped: true } : { text: l, wrapped: false }));

describe('reply reconstruction', () => {
  it('re-joins soft wraps, keeping the space at the wrap point', () => {
    expect(joinRows(rows('  a long line that ', '~wraps here   ', 'next'))).toEqual(['  a long line that wraps here', 'next']);
  });

  it('skips the echo of what relevo typed, even when it holds a handoff, and cuts the input box', () => {
    const screen = rows(
      '● old reply',
      '  <handoff>old</handoff>',
      '',
      '❯ # relevo: planner',
      '  end your reply with a <handoff> block … </handoff>',
      '',
      '  Goal: X',
      '',
      '● Sure.',
      '',
      '  <handoff>',
      '  Step 1: a very long line that the terminal wrapped because it was wider than the',
      '~ pane, and more',
      '    - nested item',
      '  </handoff>',
      '',
      '✻ Worked for 2s',
      '',
      '─'.repeat(40),
      '❯\u00a0',
      '─'.repeat(40),
      '  ? for shortcuts',
    );
    expect(reconstructReply(screen, claudeLike).text).toBe(
      'Sure.\n\n<handoff>\nStep 1: a very long line that the terminal wrapped because it was wider than the pane, and more\n  - nested item\n</handoff>',
    );
  });

  it('keeps every reply block of the turn (tool calls too) and drops status lines', () => {
    const screen = rows(
      '❯ do it',
      '',
      '● Bash(npm test)',
      '  ⎿  12 passed',
      '',
      '● Done.',
      '✻ Cogitated for 3s',
      '─────',
      '❯\u00a0',
      '─────',
    );
    expect(reconstructReply(screen, claudeLike).text).toBe('Bash(npm test)\n⎿  12 passed\n\nDone.');
  });

  it('drops status lines before removing the indent, and flags an interrupted turn', () => {
    const screen = rows(
      '❯ go',
      '● <handoff>',
      '  partial',
      '  Worked for 2s • 01:12',
      '  ⎿  Interrupted · What should Claude do instead?',
      '─────',
      '❯\u00a0',
    );
    expect(reconstructReply(screen, claudeLike)).toEqual({
      text: '<handoff>\npartial\n⎿  Interrupted · What should Claude do instead?',
      interrupted: true,
    });
    expect(reconstructReply(rows('❯ go', '● fine', '❯\u00a0'), claudeLike).interrupted).toBe(false);
  });

  it('drops a spinner row that scrolled into the history among the reply rows (a pane shorter than the live region)', () => {
    const screen = rows(
      '❯ [relevo ronda 3 · de builder]',
      '· Thinking… (0s)',
      '● <done>',
      '  Goal met in 3 rounds.',
      '✢ Thinking… (0s)',
      '  </done>',
      '',
      '─────',
      '❯\u00a0',
      '─────',
    );
    expect(reconstructReply(screen, claudeLike).text).toBe('<done>\nGoal met in 3 rounds.\n</done>');
    // The same words as reply text (indented, or after the gutter) are the agent's and stay.
    const said = rows('❯ go', '● * Thinking… is what I did', '  ✢ Thinking… (0s)', '─────', '❯\u00a0');
    expect(reconstructReply(said, claudeLike).text).toBe('* Thinking… is what I did\n✢ Thinking… (0s)');
  });

  it('without an echo pattern, starts after the last line of the text that was sent', () => {
    const plain: ReplyLayout = { gutter: [], indent: 0, prompt: /^\$ ?$/u, chrome: [], drop: [] };
    const screen = rows('$ [relevo ronda 1 · de planner]', '> do this', 'answer line', '<handoff>x</handoff>', '$ ');
    expect(reconstructReply(screen, plain, '[relevo ronda 1 · de planner]\ndo this').text).toBe('answer line\n<handoff>x</handoff>');
  });

  it('returns everything above the prompt when the turn start is unknown', () => {
    const plain: ReplyLayout = { gutter: [], indent: 0, prompt: /^\$ ?$/u, chrome: [], drop: [] };
    expect(reconstructReply(rows('a', 'b  ', '$'), plain).text).toBe('a\nb');
  });
});
