/**
 * Qwen Code's pieces outside a real run: its Stop hook payload, its transcript, and the settings
 * layer relevo launches it with (shapes as the real 0.24.4 wrote them, see test/agents/relay-qwen.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchFor } from '../../src/app/config/launch.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { HookChannel } from '../../src/app/replies/hook-channel.js';
import { qwenChatsDir, qwenFinalText } from '../../src/app/replies/transcript-qwen.js';
import { readHookPayload } from '../../src/protocol/index.js';

describe('Qwen Code', () => {
  it('its Stop hook reports the final reply and the transcript', () => {
    const payload = {
      session_id: '930ad993',
      transcript_path: '/h/.qwen/projects/-tmp-p/chats/930ad993.jsonl',
      cwd: '/tmp/p',
      hook_event_name: 'Stop',
      permission_mode: 'default',
      stop_hook_active: false,
      last_assistant_message: 'First reply.\n\n<handoff>\nx\n</handoff>',
      context_usage: 0.0005,
    };
    expect(readHookPayload('qwen-stop', payload)).toEqual({
      text: 'First reply.\n\n<handoff>\nx\n</handoff>',
      transcriptPath: '/h/.qwen/projects/-tmp-p/chats/930ad993.jsonl',
      input: null,
      thread: '930ad993',
    });
    expect(readHookPayload('qwen-stop', { ...payload, hook_event_name: 'StopFailure' })).toBeNull();
  });

  it('the transcript: the last assistant text after the last prompt, thoughts and tool calls left out', () => {
    const user = (text: string) => ({ type: 'user', message: { role: 'user', parts: [{ text }] } });
    const model = (...parts: object[]) => ({ type: 'assistant', message: { role: 'model', parts } });
    const lines = [
      user('hello'),
      { type: 'system', subtype: 'ui_telemetry' },
      model({ text: 'Old turn.' }),
      user('[relevo ronda 1 · de planner]\nStep 1'),
      model(
        { text: 'thinking…', thought: true },
        { text: 'I will run a command.' },
        { functionCall: { name: 'run_shell_command', args: {} } },
      ),
      { type: 'user', message: { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: {} } }] } },
      model({ text: 'Done.\n\n<handoff>\n' }, { text: 'report\n</handoff>' }),
    ];
    expect(qwenFinalText(lines)).toBe('Done.\n\n<handoff>\nreport\n</handoff>');
    expect(qwenFinalText([...lines, user('next')])).toBeNull();
    expect(qwenChatsDir({ HOME: '/h' }, '/tmp/a.b')).toBe('/h/.qwen/projects/-tmp-a-b/chats');
    expect(qwenChatsDir({ HOME: '/h', QWEN_RUNTIME_DIR: '~/rt' }, '/tmp/a')).toBe('/h/rt/projects/-tmp-a/chats');
  });

  it('is launched with its role prompt appended and a system-defaults layer holding relevo’s Stop hook', async () => {
    const channel = await HookChannel.open();
    try {
      const profile = loadProfile('qwen', 'test');
      const launch = launchFor('builder', { argv: ['/usr/bin/qwen'], profile }, 'en', channel);
      expect(launch.argv.slice(0, 2)).toEqual(['/usr/bin/qwen', '--append-system-prompt']);
      expect(launch.argv[2]).toContain('# relevo: builder');
      expect(launch.argv).toHaveLength(3); // nothing that replaces the user's own settings
      const layer = launch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH!;
      expect(layer.startsWith(join(channel.dir, ''))).toBe(true);
      const settings = JSON.parse(readFileSync(layer, 'utf8'));
      expect(settings.ui).toEqual({ enableFollowupSuggestions: false });
      expect(settings.hooks.Stop[0].hooks[0]).toMatchObject({ type: 'command', command: expect.stringContaining('hook qwen-stop') });
      expect(launch.env).toMatchObject({ ...channel.env('builder'), RELEVO_ROLE: 'builder' });
    } finally {
      await channel.close();
    }
  });
});
