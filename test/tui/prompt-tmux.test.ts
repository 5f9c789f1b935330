/**
 * The goal prompt as people meet it in tmux: the prefix and its commands work while it is open, and a
 * line it cannot take stays on it.
 */
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { band, freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

const sim = (role: string, thinkMs: number) => quote([process.execPath, BIN, 'sim-agent', '--role', role, '--think-ms', String(thinkMs)]);
/** The goal prompt's row. */
const promptRow = (screen: string) => screen.split('\n').find((l) => l.startsWith('goal ›')) ?? '';

describe('the goal prompt in tmux', () => {
  it('at a start without --goal, shows the help key on its row, and the prefix commands work: C-] q asks to quit, y quits', async () => {
    await start(80, 24, ['--planner', sim('planner', 200), '--builder', sim('builder', 200)]);
    await untilScreen('the prompt with the help key', (s) => /^goal › +C-\] \? help$/.test(promptRow(s)) && band(s).endsWith('starting'));
    await keys('-l', 'Paginate');
    await keys('C-]');
    await untilScreen('the keys after the prefix', (s) => s.includes('q quit') && s.includes('[ copy mode'));
    await keys('q');
    const asked = await untilScreen('quit asks', (s) => s.includes('Quit relevo-tui?'));
    expect(promptRow(asked)).toMatch(/^goal › Paginate +C-\] \? help$/);
    await keys('y');
    await untilScreen('relevo gone', (s) => s.includes('no goal was given') && s.includes('exited with 0'));
  });

  it('keeps a goal typed mid-run on the line with the reason, and ↑ finds it again after Esc', async () => {
    await start(80, 24, ['--planner', sim('planner', 5000), '--builder', sim('builder', 5000), '--goal', 'Add pagination']);
    await untilScreen('the relay running', (s) => / · running$/.test(band(s)));
    await keys('C-]', 'g');
    await untilScreen('the prompt', (s) => promptRow(s) !== '');
    await keys('-l', 'Also write the docs');
    await keys('Enter');
    const refused = await untilScreen('the reason', (s) =>
      s.replace(/\s+/g, ' ').includes('⚠ this run already has its goal (Add pagination)'),
    );
    expect(promptRow(refused)).toMatch(/^goal › Also write the docs +C-\] \? help$/);
    await keys('Escape');
    await untilScreen('the prompt closed', (s) => promptRow(s) === '' && s.includes('goal: Add pagination'));
    await keys('C-]', 'g');
    await untilScreen('the prompt again', (s) => promptRow(s) !== '');
    await keys('Up');
    await untilScreen('the goal back', (s) => /^goal › Also write the docs +C-\] \? help$/.test(promptRow(s)));
  });
});
