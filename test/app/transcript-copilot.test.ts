/** GitHub Copilot CLI's session events: the final reply of a turn, which session is the project's, and where they are. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../src/app/config/profiles.js';
import { readTranscriptReply } from '../../src/app/replies/transcript.js';
import { copilotFinalText, copilotSessionCwd, copilotSessionsDir } from '../../src/app/replies/transcript-copilot.js';
import { tempDir } from '../helpers/cli.js';

// Events as Copilot CLI 1.0.102 writes them (trimmed).
const start = (cwd: string) => ({ type: 'session.start', data: { sessionId: 's1', copilotVersion: '1.0.102', context: { cwd } } });
const user = (content: string) => ({
  type: 'user.message',
  data: { content, transformedContent: `<current_datetime>x</current_datetime>\n\n${content}` },
});
const turn = (type: 'assistant.turn_start' | 'assistant.turn_end', turnId: string) => ({ type, data: { turnId } });
const said = (content: string, toolRequests: unknown[] = []) => ({
  type: 'assistant.message',
  data: { messageId: 'm', content, toolRequests },
});
const tool = { toolCallId: 'c1', name: 'bash', arguments: { command: 'npm test' } };

describe('copilotFinalText', () => {
  it('the last message of the last turn, once it ended, after a tool call and its result', () => {
    const lines = [
      start('/p'),
      user('go'),
      turn('assistant.turn_start', '0'),
      said('Running the tests.', [tool]),
      { type: 'tool.execution_complete', data: {} },
      turn('assistant.turn_end', '0'),
      turn('assistant.turn_start', '1'),
      said('All green.\n\n<handoff>\ndone\n</handoff>'),
      turn('assistant.turn_end', '1'),
    ];
    expect(copilotFinalText(lines)).toBe('All green.\n\n<handoff>\ndone\n</handoff>');
    // Between the tool call's turn and the next one, the reply is not written yet.
    expect(copilotFinalText(lines.slice(0, 7))).toBeNull();
    expect(copilotFinalText(lines.slice(0, 8))).toBeNull();
  });

  it('nothing for a new message not answered yet, nor for a turn that ended on a tool call (a refused permission)', () => {
    const first = [user('one'), turn('assistant.turn_start', '0'), said('First.'), turn('assistant.turn_end', '0')];
    expect(copilotFinalText(first)).toBe('First.');
    expect(copilotFinalText([...first, user('two')])).toBeNull();
    expect(
      copilotFinalText([user('x'), turn('assistant.turn_start', '0'), said('Trying.', [tool]), turn('assistant.turn_end', '0')]),
    ).toBeNull();
  });

  it('the session’s directory from session.start', () => {
    expect(copilotSessionCwd([start('/work/p'), user('x')])).toBe('/work/p');
    expect(copilotSessionCwd([user('x')])).toBeNull();
  });
});

describe('readTranscriptReply: copilot-session-state', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('reads the session started in the project (COPILOT_HOME, also from an `env` prefix), not another project’s', async () => {
    const home = tempDir('relevo-copilot-t-');
    made.push(home);
    const copilotHome = join(home, 'state');
    const write = (id: string, lines: unknown[]) => {
      mkdirSync(join(copilotHome, 'session-state', id), { recursive: true });
      writeFileSync(join(copilotHome, 'session-state', id, 'events.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    };
    const since = Date.now() - 1000;
    write('a', [start('/elsewhere'), user('x'), said('Not this one.'), turn('assistant.turn_end', '0')]);
    write('b', [start(home), user('x'), said('This one.'), turn('assistant.turn_end', '0')]);
    const env = agentEnv({ HOME: home }, ['env', `COPILOT_HOME=${copilotHome}`, 'copilot']);
    expect(copilotSessionsDir(env)).toBe(join(copilotHome, 'session-state'));
    expect(await readTranscriptReply('copilot-session-state', { env, cwd: home, since })).toBe('This one.');
    expect(copilotSessionsDir({ HOME: home })).toBe(join(home, '.copilot', 'session-state'));
    expect(await readTranscriptReply('copilot-session-state', { env: { HOME: home }, cwd: home, since })).toBeNull();
  });
});

describe('agentEnv', () => {
  it('what an `env` prefix sets, over relevo’s own environment; `-i` starts from nothing', () => {
    expect(agentEnv({ HOME: '/h', A: '1' }, ['env', 'A=2', 'B=x=y', 'copilot', 'C=3'])).toEqual({ HOME: '/h', A: '2', B: 'x=y' });
    expect(agentEnv({ HOME: '/h' }, ['env', '-i', 'A=2', 'copilot'])).toEqual({ A: '2' });
    expect(agentEnv({ HOME: '/h' }, ['copilot', 'A=2'])).toEqual({ HOME: '/h' });
    // An agent's own `-i` is its flag, not env's.
    expect(agentEnv({ HOME: '/h' }, ['env', 'A=2', 'copilot', '-i', 'hi'])).toEqual({ HOME: '/h', A: '2' });
  });
});
