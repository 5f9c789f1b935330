/** The dashboard's styles as written to the terminal: Ink's colours are forced on here, as a colour terminal gets them. */
import { describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { DashboardScreen } = await import('../../src/tui/dashboard/dashboard-screen.js');
const { initialDashboard } = await import('../../src/tui/dashboard/dashboard-state.js');
const { FOUR, NOW } = await import('../helpers/relay-rows.js');

/** What the dashboard writes for four relays at 80×24. */
function frame(plain: boolean): string {
  let written = '';
  const screen = new DashboardScreen(
    {
      cols: 80,
      rows: 24,
      write: (data: string) => {
        written += data;
      },
    },
    { rows: FOUR, state: initialDashboard, now: NOW },
    { plain },
  );
  screen.show();
  screen.dispose();
  return written;
}

/** An SGR sequence that sets a colour (foreground, background, 256 or RGB; 39 and 49 are the defaults). */
const COLOR = /\x1b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

describe('the dashboard’s styles', () => {
  it('draws the selected row inverse to the right edge, the title bold, a state that needs you in colour', () => {
    const lines = frame(false).split(/\x1b\[\d+;1H/);
    const selected = lines.find((line) => line.includes('▸ relevo/pagination'))!;
    expect(selected).toMatch(/\x1b\[7m/);
    expect(selected.replace(/\x1b\[[0-9;]*[mK]/g, '')).toHaveLength(80);
    expect(lines.find((line) => line.includes('relevo · 4 relays'))).toMatch(/\x1b\[1m/);
    expect(lines.find((line) => line.includes('relevo/dark-mode'))).toMatch(COLOR);
  });

  it('with NO_COLOR keeps the weights (inverse, bold, dim) and drops every colour', () => {
    const plain = frame(true);
    expect(plain).not.toMatch(COLOR);
    for (const weight of ['\x1b[7m', '\x1b[1m', '\x1b[2m']) expect(plain).toContain(weight);
  });
});
