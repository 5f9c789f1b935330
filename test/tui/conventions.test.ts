/** Conventions of terminal tools, as people meet them in tmux: NO_COLOR. */
import { describe, expect, it } from 'vitest';
import { band, freshTmuxServers, start, tmux, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** The screen with its escape sequences (capture-pane -e). */
const styled = async () => (await tmux('capture-pane', '-p', '-e', '-t', 'relevo')).stdout;
/** An SGR sequence that sets a colour (foreground, background, 256 or RGB; 39 and 49 are the defaults). */
const COLOR = /\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

describe('conventions', () => {
  it("NO_COLOR: relevo's frames, band and messages have no colour, but keep bold; the agents' screens are theirs", async () => {
    await start(180, 50, ['--demo'], ['NO_COLOR=1']);
    await untilScreen('round 1', (s) => /1\/10/.test(band(s)));
    const lines = (await styled()).split('\n');
    const chrome = lines.filter((l) => /relevo · |^goal: |╭─ (planner|builder)/.test(l.replace(/\x1b\[[0-9;]*m/g, '')));
    expect(chrome.length).toBeGreaterThanOrEqual(3);
    for (const line of chrome) expect(line.match(COLOR)?.[0] ?? null, JSON.stringify(line)).toBeNull();
    expect(chrome.join('\n')).toContain('\x1b[1m');

    await tmux('kill-session', '-t', 'relevo');
    await start(180, 50, ['--demo']);
    await untilScreen('round 1', (s) => /1\/10/.test(band(s)));
    expect((await styled()).split('\n').find((l) => l.includes('╭─ planner'))).toMatch(COLOR);
  });
});
