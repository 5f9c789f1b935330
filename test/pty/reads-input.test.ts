/**
 * readsInput: whether the profile's prompt pattern captures the input line's text. The generic
 * profile's pattern has `(` only inside a character class: it captures nothing, so delivery must not
 * wait for the paste to show in an input box it cannot read.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { AgentPane } from '../../src/pty/agent.js';
import { LocalPane } from '../../src/pty/pane.js';
import { tempDir } from '../helpers/cli.js';

const panes: LocalPane[] = [];
afterAll(async () => {
  for (const pane of panes) await pane.kill(200);
});

/** An AgentPane over a real pseudo-terminal running an idle program, read through `profile`. */
function agentWith(profile: string): AgentPane {
  const pane = new LocalPane({
    argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'],
    cwd: tempDir(),
    env: process.env as Record<string, string>,
    cols: 80,
    rows: 10,
  });
  panes.push(pane);
  return new AgentPane('builder', pane, loadProfile(profile, 'test'));
}

describe('readsInput', () => {
  it("is false for the generic profile, whose prompt pattern has '(' only inside a character class", () => {
    expect(agentWith('generic').readsInput).toBe(false);
  });

  it('is true for the profiles whose prompt captures the input line (sim, claude, codex)', () => {
    for (const name of ['sim', 'claude', 'codex']) expect(agentWith(name).readsInput, name).toBe(true);
  });
});
