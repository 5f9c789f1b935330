/** Gemini CLI's session transcripts: the final reply of a turn, and which project's chats hold it. */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscriptReply } from '../../src/app/replies/transcript.js';
import { geminiChatsDir, geminiFinalText, geminiMessages } from '../../src/app/replies/transcript-gemini.js';
import { tempDir } from '../helpers/cli.js';

// Records as Gemini CLI 0.61.0 writes them (trimmed).
const meta = (cwd: string) => ({
  sessionId: '2f8fbd76-3804-4dfd-bdff-af4fbf55bffd',
  projectHash: createHash('sha256').update(cwd).digest('hex'),
  startTime: '2026-12-01T19:45:10.013Z',
  lastUpdated: '2026-12-01T19:45:10.013Z',
  kind: 'main',
});
const context = {
  id: 'c0',
  timestamp: '2026-12-01T19:45:10.014Z',
  type: 'user',
  content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }],
};
const user = (id: string, text: string) => ({ id, timestamp: '2026-12-01T19:45:10.446Z', type: 'user', content: [{ text }] });
const gemini = (id: string, content: string, more: Record<string, unknown> = {}) => ({
  id,
  timestamp: '2026-12-01T19:45:14.532Z',
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 100, output: 20, total: 120 },
  model: 'gemini-3.1-pro-preview',
  ...more,
});
const touched = { $set: { lastUpdated: '2026-12-01T19:45:14.533Z' } };

describe('Gemini CLI transcripts', () => {
  it('the last reply with text after the last typed message; its own context and earlier turns left out', () => {
    const lines = [
      meta('/p'),
      { $set: { messages: [context], lastUpdated: '2026-12-01T19:45:10.014Z' } },
      user('u1', 'Goal: x'),
      touched,
      gemini('g1', 'old <handoff>x</handoff>'),
      user('u2', '[relevo ronda 1 · de builder]\nreport'),
      gemini('g2', '', { toolCalls: [{ id: 't', name: 'run_shell_command', status: 'executing' }] }),
      gemini('g2', 'I ran the tests.', { toolCalls: [{ id: 't', name: 'run_shell_command', status: 'success' }] }),
      gemini('g3', 'Next.\n\n<handoff>\nStep 2\n  - indented\n</handoff>'),
      touched,
    ];
    expect(geminiFinalText(lines)).toBe('Next.\n\n<handoff>\nStep 2\n  - indented\n</handoff>');
    expect(geminiFinalText(lines.slice(0, 6))).toBeNull(); // the current turn has no reply yet
    expect(geminiFinalText(lines.slice(0, 7))).toBeNull(); // only a tool call so far
  });

  it('a record with the same id replaces the message; $set messages replaces them all; $rewindTo drops from that one on', () => {
    const lines = [
      meta('/p'),
      user('u1', 'first'),
      gemini('g1', 'draft'),
      gemini('g1', 'final'),
      user('u2', 'second'),
      gemini('g2', 'second reply'),
      { $rewindTo: 'u2' },
    ];
    expect(geminiMessages(lines).map((m) => [m.id, m.content])).toEqual([
      ['u1', [{ text: 'first' }]],
      ['g1', 'final'],
    ]);
    expect(geminiFinalText(lines)).toBe('final');
    expect(geminiFinalText([...lines, { $set: { messages: [user('u9', 'resumed')] } }])).toBeNull();
  });

  it('reads the project its projects.json names, and leaves out another directory’s session when it has to search them all', async ({
    onTestFinished,
  }) => {
    const home = tempDir('relevo-gemini-transcripts-');
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const cwd = '/work/project';
    const since = Date.now() - 1000;
    const write = (id: string, name: string, lines: unknown[]) => {
      mkdirSync(join(home, '.gemini', 'tmp', id, 'chats'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'tmp', id, 'chats', name), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    };
    write('other', 'session-2026-12-01T19-45-aaaaaaaa.jsonl', [meta('/elsewhere'), user('u', 'x'), gemini('g', 'not this one')]);
    const env = { HOME: home };
    expect(geminiChatsDir(env, cwd)).toBe(join(home, '.gemini', 'tmp'));
    expect(await readTranscriptReply('gemini-chats', { env, cwd, since })).toBeNull();
    write('project', 'session-2026-12-01T19-46-bbbbbbbb.jsonl', [meta(cwd), user('u', 'x'), gemini('g', 'this one')]);
    expect(await readTranscriptReply('gemini-chats', { env, cwd, since })).toBe('this one');
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'project' } }));
    expect(geminiChatsDir(env, cwd)).toBe(join(home, '.gemini', 'tmp', 'project', 'chats'));
    expect(await readTranscriptReply('gemini-chats', { env, cwd, since })).toBe('this one');
    // GEMINI_CLI_HOME moves all of it.
    expect(geminiChatsDir({ HOME: '/nowhere', GEMINI_CLI_HOME: home }, cwd)).toBe(join(home, '.gemini', 'tmp', 'project', 'chats'));
  });
});
