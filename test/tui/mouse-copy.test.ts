/**
 * The mouse and copy mode as people meet them: relevo-tui in a real tmux server. tmux tells which
 * mouse modes relevo asked of its terminal (`#{mouse_button_flag}`, `#{mouse_sgr_flag}`); mouse
 * reports are typed into relevo's pane as the terminal would send them (`send-keys -l`); OSC 52 is
 * caught by tmux (`set-clipboard on`) as a paste buffer.
 */
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { band, capture, freshTmuxServers, keys, start, styled, tmux, untilScreen, untilStyled } from '../helpers/tui-tmux.js';

freshTmuxServers();

const MOUSE_AGENT = fileURLToPath(new URL('../helpers/mouse-agent.mjs', import.meta.url));

/** The mouse modes relevo's pane has asked tmux for: `button sgr`, each 1 or 0. */
const modes = async () => (await tmux('display-message', '-p', '-t', 'relevo', '#{mouse_button_flag} #{mouse_sgr_flag}')).stdout;
/** An SGR mouse report at the terminal's cell `x`, `y` (1-based): a press (`M`) or a release (`m`). */
const report = (code: number, x: number, y: number, release = false) => `\x1b[<${code};${x};${y}${release ? 'm' : 'M'}`;
const click = (x: number, y: number) => keys('-l', report(0, x, y) + report(0, x, y, true));
const wheelUp = (x: number, y: number) => keys('-l', report(64, x, y));
const titles = (screen: string) => screen.split('\n')[0] ?? '';

describe('the mouse in tmux', () => {
  it('relevo takes the mouse: a click focuses the pane under it, the wheel scrolls a pane (in copy mode when focused); quitting gives the mouse back', async () => {
    // 180×50: the planner's frame is columns 1–90, the builder's 91–180 (1-based), rows 1–46.
    await start(180, 50);
    await untilScreen('both panes', (s) => s.includes('planner · sim') && s.includes('builder · sim'));
    expect(await modes()).toBe('1 1');
    await click(120, 10);
    await untilScreen('the builder focused', (s) => /╭─ builder · sim · \w+ · focus ─/.test(titles(s)));
    expect(titles(await capture())).not.toMatch(/planner · sim · \w+ · focus/);
    await untilScreen('done', (s) => / · done$/.test(band(s)), 60_000);
    expect(await capture()).not.toContain('✻ relevo sim-agent · planner');
    // The wheel over the planner's pane, not focused: its view scrolls towards its banner, the focus stays on the builder.
    await keys('-l', report(64, 20, 20).repeat(40));
    const peeked = await untilScreen('the planner scrolled back', (s) => /╭─ planner · sim · \w+ · \d+ lines up ─/.test(titles(s)));
    await untilScreen('its banner', (s) => s.includes('✻ relevo sim-agent · planner'));
    expect(titles(peeked)).toMatch(/╭─ builder · sim · \w+ · focus ─/);
    expect(peeked).not.toContain('copy mode');
    // Keys still go to the builder: its input box (right of the planner's frame) shows them.
    await keys('-l', 'typed here');
    await untilScreen('the keys in the builder', (s) => /││❯\styped here/.test(s));
    // Scrolled back down to the bottom, the planner is live again.
    await keys('-l', report(65, 20, 20).repeat(40));
    await untilScreen('the planner live', (s) => !s.includes('lines up') && !s.includes('✻ relevo sim-agent · planner'));
    // Focused, the wheel over the planner scrolls it in copy mode.
    await click(20, 20);
    await keys('-l', report(64, 20, 20).repeat(40));
    const scrolled = await untilScreen(
      'copy mode on the planner',
      (s) => s.includes('copy mode (planner)') && s.includes('✻ relevo sim-agent · planner'),
    );
    expect(titles(scrolled)).toMatch(/╭─ planner · sim · \w+ · focus ─/);
    expect(scrolled).toMatch(/copy mode \(planner\): \d+ lines up/);
    await keys('q');
    await untilScreen('the live screen', (s) => !s.includes('copy mode') && !s.includes('✻ relevo sim-agent · planner'));
    await keys('C-]', 'q');
    await untilScreen('quit asks', (s) => s.includes('Quit relevo-tui?'));
    await keys('y');
    await untilScreen('the shell back', (s) => s.includes('exited with 0'));
    expect(await modes()).toBe('0 0');
  });

  it('--no-mouse leaves the mouse to the terminal', async () => {
    await start(180, 50, ['--demo', '--no-mouse']);
    await untilScreen('both panes', (s) => s.includes('planner · sim') && s.includes('builder · sim'));
    expect(await modes()).toBe('0 0');
  });

  it('an agent that asked for the mouse gets the events over its screen, in its own coordinates and encoding; the raw reports reach no agent', async () => {
    const agent = (...args: string[]) => quote([process.execPath, MOUSE_AGENT, ...args]);
    await start(180, 50, [
      '--planner',
      agent('legacy'),
      '--planner-profile',
      'generic',
      '--builder',
      agent(),
      '--builder-profile',
      'generic',
    ]);
    await untilScreen('both agents', (s) => s.includes('mouse agent ready (x10)') && s.includes('mouse agent ready (sgr)'));
    // The builder's screen starts at column 92, row 2 of the terminal (1-based): cell (120, 10) is its (29, 9).
    await wheelUp(120, 10);
    await untilScreen('the wheel at the builder', (s) => s.includes('got sgr 64;29;9 M'));
    // The planner's screen starts at column 2, row 2: (20, 10) is its (19, 9), sent the legacy way.
    await wheelUp(20, 10);
    await untilScreen('the wheel at the planner', (s) => s.includes('got x10 64;19;9'));
    await click(120, 10);
    const clicked = await untilScreen('the click at the builder', (s) => s.includes('got sgr 0;29;9 M') && s.includes('got sgr 0;29;9 m'));
    expect(titles(clicked)).toMatch(/╭─ builder · generic · \w+ · focus ─/);
    expect(clicked).not.toContain('got keys');
    expect(clicked).not.toContain('copy mode');
  });
});

describe('copy mode in tmux', () => {
  it('a drag over a pane selects in copy mode, and letting go copies it through OSC 52 and leaves', async () => {
    await start(180, 50);
    await tmux('set-option', '-g', 'set-clipboard', 'on');
    const done = await untilScreen('done', (s) => / · done$/.test(band(s)), 60_000);
    // The planner's "Goal met: …" line: its first cell, 1-based, and its last.
    const text = 'Goal met: Add pagination to /users with tests in 3 rounds.';
    const row = done.split('\n').findIndex((l) => l.includes(text)) + 1;
    const col = done.split('\n')[row - 1]!.indexOf(text) + 1;
    expect(col).toBeGreaterThan(1);
    expect(col).toBeLessThan(90);
    await keys('-l', report(0, col, row) + report(32, col + 4, row));
    await untilScreen('copy mode from the drag', (s) => s.includes('copy mode (planner)') && s.includes('selecting: y copies'));
    await keys('-l', report(32, col + text.length - 1, row));
    // The selection is shown in reverse video, the whole line.
    await untilStyled('the line selected', (s) => s.includes(`\x1b[7m${text}\x1b[0m`));
    await keys('-l', report(0, col + text.length - 1, row, true));
    await untilScreen('copied', (s) => s.includes(`copied ${text.length} characters`) && !s.includes('copy mode'));
    expect((await tmux('show-buffer')).stdout).toBe(text);
    expect(await styled()).not.toContain('\x1b[7m');
  });

  it('searches the planner pane, says what is not found, and copies a selection through OSC 52', async () => {
    await start(180, 50);
    await tmux('set-option', '-g', 'set-clipboard', 'on');
    const done = await untilScreen('done', (s) => / · done$/.test(band(s)), 60_000);
    expect(done).not.toContain('✻ relevo sim-agent · planner');
    await keys('C-]', '[');
    await untilScreen('copy mode', (s) => s.includes('copy mode (planner)'));
    await keys('/');
    await untilScreen('the search prompt', (s) => s.includes('(search down) ▏'));
    await keys('-l', 'zzqq');
    await keys('Enter');
    await untilScreen('not found', (s) => s.includes('"zzqq" not found'));
    await keys('?');
    await keys('-l', 'relevo sim-agent');
    await keys('Enter');
    const found = await untilScreen('the banner found', (s) => s.includes('✻ relevo sim-agent · planner'));
    // The terminal's cursor is copy mode's, on the match's first cell.
    const row = found.split('\n').findIndex((l) => l.includes('✻ relevo sim-agent · planner'));
    const col = found.split('\n')[row]!.indexOf('relevo sim-agent');
    expect((await tmux('display-message', '-p', '-t', 'relevo', '#{cursor_x} #{cursor_y}')).stdout).toBe(`${col} ${row}`);
    // The match is shown in reverse video.
    expect(await styled()).toMatch(/\x1b\[7mrelevo sim-agent/);
    // A selection from the match's first cell over the 16 cells of "relevo sim-agent".
    await keys('v');
    await keys('-l', 'l'.repeat(15));
    await untilScreen('the selection', (s) => s.includes('selecting: y copies'));
    await keys('y');
    await untilScreen('copied', (s) => s.includes('copied 16 characters') && !s.includes('copy mode'));
    expect((await tmux('show-buffer')).stdout).toBe('relevo sim-agent');
  });
});
