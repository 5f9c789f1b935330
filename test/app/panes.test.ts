import { afterEach, describe, expect, it } from 'vitest';
import { localPanes, ownTerminalEnv, type PaneRequest } from '../../src/app/run/panes.js';
import type { Role } from '../../src/protocol/index.js';
import type { Pane } from '../../src/pty/pane.js';
import { until } from '../helpers/until.js';

const OUTER = {
  TMUX: '/tmp/tmux-0/default,123,0',
  TMUX_PANE: '%3',
  ZELLIJ: '0',
  ZELLIJ_SESSION_NAME: 'work',
  HERDR_ENV: '1',
  HERDR_PANE_ID: 'p2',
  STY: '42.pts-1',
  TERM_PROGRAM: 'tmux',
  TERM_PROGRAM_VERSION: '3.3a',
};

let opened: Pane[] = [];
afterEach(async () => {
  for (const pane of opened) await pane.kill(200);
  opened = [];
});

describe('an agent in a terminal of relevo’s own', () => {
  it('does not inherit the variables of the terminal relevo runs in; keeps the rest and what relevo adds', async () => {
    const request = (role: Role): PaneRequest => ({
      argv: ['/bin/sh', '-c', 'env | sort; echo END-OF-ENV'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', KEEP_ME: 'yes', ...OUTER, RELEVO_ROLE: role },
      extraEnv: { RELEVO_ROLE: role },
      cwd: '/',
      cols: 120,
      rows: 40,
      osc: [],
    });
    const panes = await localPanes.open({ planner: request('planner'), builder: request('builder') });
    opened = [panes.planner, panes.builder];
    for (const role of ['planner', 'builder'] as const) {
      const history = panes[role].history!;
      await until(`${role} printed its environment`, () => history.textSince(0).includes('END-OF-ENV'));
      const names = history
        .textSince(0)
        .split('\n')
        .map((l) => l.split('=')[0]!.trim())
        .filter((n) => /^[A-Z_]+$/.test(n));
      expect(names).toContain('KEEP_ME');
      expect(names).toContain('RELEVO_ROLE');
      for (const name of Object.keys(OUTER)) expect(names, name).not.toContain(name);
    }
  });

  it('keeps a variable of that kind when relevo itself sets it for the agent (the profile’s or the user’s launch env)', () => {
    expect(ownTerminalEnv({ TERM_PROGRAM: 'mine', TMUX: 'x', A: 'b' }, { TERM_PROGRAM: 'mine' })).toEqual({ TERM_PROGRAM: 'mine', A: 'b' });
    expect(ownTerminalEnv({ ZELLIJ_PANE_ID: '1', HERDR_BIN_PATH: '/bin/herdr', TMUXINATOR: 'x' })).toEqual({
      HERDR_BIN_PATH: '/bin/herdr',
      TMUXINATOR: 'x',
    });
  });
});
