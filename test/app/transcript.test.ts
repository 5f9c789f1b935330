import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeFinalText, claudeProjectDir, codexFinalText, readTranscriptReply } from '../../src/app/replies/transcript.js';
import { tempDir } from '../helpers/cli.js';

// Shapes as Claude Code 2.1.197 and Codex 0.171.0 write them (trimmed).
const claudeUser = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });
const claudeAssistant = (id: string, content: unknown[]) => ({
  type: 'assistant',
  message: { id, type: 'message', role: 'assistant', content, stop_reason: 'end_turn' },
});
const codexEvent = (payload: Record<string, unknown>) => ({ timestamp: '2026-11-30T02:15:29.116Z', type: 'event_msg', payload });

describe('transcripts', () => {
  it('Claude Code: the final assistant text after the last prompt (tool calls and earlier turns left out)', () => {
    const lines = [
      claudeUser('first'),
      claudeAssistant('m1', [{ type: 'text', text: 'old <handoff>x</handoff>' }]),
      claudeUser('[relevo ronda 1 · de planner]\nstep'),
      claudeAssistant('m2', [
        { type: 'text', text: 'I will run the tests.' },
        { type: 'tool_use', id: 't', name: 'Bash', input: {} },
      ]),
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'ok' }] } },
      claudeAssistant('m3', [{ type: 'text', text: 'Done.\n\n<handoff>\nreport\n</handoff>' }]),
      { type: 'system', subtype: 'turn_duration' },
    ];
    expect(claudeFinalText(lines)).toBe('Done.\n\n<handoff>\nreport\n</handoff>');
    expect(claudeFinalText(lines.slice(0, 3))).toBeNull(); // the current turn has no answer yet
  });

  it("Claude Code: read in time order, as the file may put a turn's answer above its prompt (seen with 2.1.197 after the session title)", () => {
    const at = (iso: string, entry: object) => ({ ...entry, timestamp: `2026-11-30T04:44:${iso}Z` });
    const lines = [
      { type: 'ai-title', aiTitle: 'Fake title' },
      at('49.100', claudeAssistant('m2', [{ type: 'text', text: 'I will split this.\n\n<handoff>\nStep 1\n</handoff>' }])),
      at('49.144', { type: 'system', subtype: 'turn_duration' }),
      at('48.708', claudeUser('Goal: Add pagination to /users with tests')),
    ];
    expect(claudeFinalText(lines)).toBe('I will split this.\n\n<handoff>\nStep 1\n</handoff>');
    // A later prompt, wherever it sits in the file, starts a turn with no answer yet.
    expect(claudeFinalText([at('50.000', claudeUser('next')), ...lines])).toBeNull();
  });

  it('Codex: last_agent_message of the task_complete that follows the last user message', () => {
    const lines = [
      codexEvent({ type: 'user_message', message: 'first' }),
      codexEvent({ type: 'task_complete', last_agent_message: 'old' }),
      codexEvent({ type: 'user_message', message: 'second' }),
    ];
    expect(codexFinalText(lines)).toBeNull();
    expect(codexFinalText([...lines, codexEvent({ type: 'task_complete', last_agent_message: 'new <handoff>y</handoff>' })])).toBe(
      'new <handoff>y</handoff>',
    );
    expect(codexFinalText([...lines, codexEvent({ type: 'turn_aborted', reason: 'interrupted' })])).toBeNull();
  });

  it('are found where each CLI keeps them, and only when written since the turn began', async () => {
    const home = tempDir();
    const cwd = '/tmp/relevo-claude-cwd-iMi4hd';
    expect(claudeProjectDir({ HOME: home }, cwd)).toBe(join(home, '.claude', 'projects', '-tmp-relevo-claude-cwd-iMi4hd'));
    const dir = claudeProjectDir({ HOME: home }, cwd);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'session.jsonl');
    writeFileSync(
      file,
      [claudeUser('go'), claudeAssistant('m', [{ type: 'text', text: 'answer' }])].map((l) => JSON.stringify(l)).join('\n'),
    );
    const since = Date.now();
    utimesSync(file, new Date(since - 60_000), new Date(since - 60_000));
    expect(await readTranscriptReply('claude-projects', { env: { HOME: home }, cwd, since })).toBeNull();
    utimesSync(file, new Date(), new Date());
    expect(await readTranscriptReply('claude-projects', { env: { HOME: home }, cwd, since })).toBe('answer');
    // A newer side session (the CLI naming the session, say) with no answer does not hide the main one.
    writeFileSync(join(dir, 'side.jsonl'), JSON.stringify(claudeUser('name this session')));
    utimesSync(join(dir, 'side.jsonl'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect(await readTranscriptReply('claude-projects', { env: { HOME: home }, cwd, since })).toBe('answer');

    const codexHome = join(home, 'codex');
    const day = join(codexHome, 'sessions', '2026', '11', '30');
    mkdirSync(day, { recursive: true });
    writeFileSync(
      join(day, 'rollout-2026-11-30T02-15-27-abc.jsonl'),
      [codexEvent({ type: 'user_message' }), codexEvent({ type: 'task_complete', last_agent_message: 'codex answer' })]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    expect(await readTranscriptReply('codex-rollout', { env: { CODEX_HOME: codexHome }, cwd, since: since - 1000 })).toBe('codex answer');
  });

  it("Codex: a rollout recorded in another project's directory is never read as this agent's reply", async () => {
    const home = tempDir();
    const ours = tempDir('relevo-ours-');
    const day = join(home, 'sessions', '2026', '12', '01');
    mkdirSync(day, { recursive: true });
    const meta = (cwd: string) => ({
      timestamp: '2026-12-01T05:00:00.000Z',
      type: 'session_meta',
      payload: { id: 'x', timestamp: '2026-12-01T05:00:00.000Z', cwd, originator: 'codex_cli_rs' },
    });
    const rollout = (name: string, cwd: string, answer: string, mtime: number) => {
      const file = join(day, name);
      writeFileSync(
        file,
        [meta(cwd), codexEvent({ type: 'user_message' }), codexEvent({ type: 'task_complete', last_agent_message: answer })]
          .map((l) => JSON.stringify(l))
          .join('\n'),
      );
      utimesSync(file, new Date(mtime), new Date(mtime));
    };
    const since = Date.now() - 10_000;
    rollout('rollout-2026-12-01T05-00-00-ours.jsonl', ours, 'our answer', Date.now() - 1000);
    // Another project's Codex session, written later: the newest file, but not this agent's.
    rollout('rollout-2026-12-01T05-00-01-theirs.jsonl', '/srv/another-project', 'their answer', Date.now());
    expect(await readTranscriptReply('codex-rollout', { env: { CODEX_HOME: home }, cwd: ours, since })).toBe('our answer');
    // Only the other project's session: nothing (the screen is read instead).
    rollout('rollout-2026-12-01T05-00-00-ours.jsonl', '/srv/another-project', 'not ours either', Date.now() - 1000);
    expect(await readTranscriptReply('codex-rollout', { env: { CODEX_HOME: home }, cwd: ours, since })).toBeNull();
  });
});
