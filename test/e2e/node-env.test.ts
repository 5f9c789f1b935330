/**
 * relevo's UI loads React in its production build whatever NODE_ENV says, and puts NODE_ENV back
 * before any agent starts: the agents (and the npm and tests they run) see the person's own value.
 * In the TUI, and in a headless run at a terminal that relevo.toml asked for (the TUI's modules
 * start loading before the settings are read).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { simCommand, tempDir } from '../helpers/cli.js';
import { freshTmuxServers, start, untilScreen } from '../helpers/tui-tmux.js';
import { until } from '../helpers/until.js';

freshTmuxServers();

/** A simulator that first writes the NODE_ENV it was given to `<role>.env` in its working directory. */
const agent = (role: 'planner' | 'builder') =>
  `${quote(['sh', '-c', `printf '%s' "\${NODE_ENV-unset}" > ${role}.env && exec "$@"`, 'sh'])} ${simCommand(role)}`;

const seen = async (cwd: string, role: 'planner' | 'builder'): Promise<string> => {
  const file = join(cwd, `${role}.env`);
  let text = '';
  await until(`${role}.env`, () => {
    try {
      text = readFileSync(file, 'utf8');
      return text !== '';
    } catch {
      return false;
    }
  });
  return text;
};

describe('NODE_ENV reaches the agents as the person set it', () => {
  it('in the TUI', async () => {
    const cwd = tempDir();
    await start(160, 40, ['--planner', agent('planner'), '--builder', agent('builder')], ['NODE_ENV=development'], cwd);
    await untilScreen('the band', (s) => s.includes('relevo · '));
    expect(await seen(cwd, 'planner')).toBe('development');
    expect(await seen(cwd, 'builder')).toBe('development');
  });

  it('in a headless run at a terminal, asked for by relevo.toml', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'relevo.toml'), 'headless = true\nmax_rounds = 1\n');
    await start(160, 40, ['--planner', agent('planner'), '--builder', agent('builder'), '--goal', 'One step'], ['NODE_ENV=test'], cwd);
    expect(await seen(cwd, 'planner')).toBe('test');
    expect(await seen(cwd, 'builder')).toBe('test');
    await untilScreen('the run to pause', (s) => s.includes('exited with'), 60_000);
  });
});
