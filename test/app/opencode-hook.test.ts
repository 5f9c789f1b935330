// relevo's OpenCode hook: the launch (plugin file, config layer, role prompt variable), the plugin
// itself run against a stand-in of OpenCode's SDK client, and what relevo reads from its report.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { launchFor } from '../../src/app/config/launch.js';
import { opencodeConfigContent } from '../../src/app/config/opencode-plugin.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { HookChannel, type HookDelivery } from '../../src/app/replies/hook-channel.js';
import { relayConfig } from '../../src/app/run/run-options.js';
import { readHookPayload, reportFits } from '../../src/protocol/index.js';
import { undoAfterEach } from '../helpers/undo.js';

const undo = undoAfterEach();

async function launched(role: 'planner' | 'builder' = 'builder') {
  const channel = await HookChannel.open();
  undo.add(() => channel.close());
  const profile = loadProfile('opencode', 'test');
  const launch = launchFor(role, { argv: ['/usr/bin/opencode'], profile }, 'en', channel);
  return { channel, profile, launch, config: JSON.parse(launch.env.OPENCODE_CONFIG_CONTENT!) as Record<string, unknown> };
}

describe('OpenCode launch', () => {
  it('adds the plugin and the paste setting in one config layer, the role prompt in RELEVO_ROLE_PROMPT, no arguments', async () => {
    const { channel, launch, config, profile } = await launched();
    expect(launch.argv).toEqual(['/usr/bin/opencode']);
    expect(config).toEqual({
      experimental: { disable_paste_summary: true },
      plugin: [expect.stringMatching(/^file:\/\/.*builder\.opencode-plugin\.mjs$/)],
    });
    const plugin = fileURLToPath((config.plugin as string[])[0]!);
    expect(plugin.startsWith(`${channel.dir}/`)).toBe(true);
    expect(readFileSync(plugin, 'utf8')).toContain(`"hook","opencode-plugin"]`);
    expect(launch.env.RELEVO_ROLE_PROMPT).toContain('# relevo: builder');
    expect(launch.env.RELEVO_HOOK_TOKEN).toBe(channel.tokenFor('builder'));
    // The role prompt rides on the launch: it is not typed before the first message.
    const agents = { planner: { argv: [], profile }, builder: { argv: [], profile } };
    expect(relayConfig({ maxRounds: 3, lang: 'en', agents, runPath: '.relevo/runs/x' } as never).inlineRolePrompt).toEqual({
      planner: false,
      builder: false,
    });
  });

  it("keeps the user's own OPENCODE_CONFIG_CONTENT under relevo's layer, plugin lists concatenated", () => {
    const user = JSON.stringify({ plugin: ['my-plugin'], experimental: { other: 1 }, model: 'x/y' });
    expect(JSON.parse(opencodeConfigContent('file:///p.mjs', [user, '{"experimental":{"disable_paste_summary":true}}']))).toEqual({
      plugin: ['my-plugin', 'file:///p.mjs'],
      experimental: { other: 1, disable_paste_summary: true },
      model: 'x/y',
    });
    expect(JSON.parse(opencodeConfigContent('file:///p.mjs', ['not json', undefined, '[1]']))).toEqual({ plugin: ['file:///p.mjs'] });
  });
});

describe('the OpenCode plugin', () => {
  it('reports the last user and assistant texts when the session goes idle; adds the role prompt to the system prompt', async () => {
    const { channel, launch, config } = await launched('planner');
    const got: HookDelivery[] = [];
    channel.onMessage((m) => got.push(m));
    const saved = { ...process.env };
    undo.add(() => {
      process.env = saved;
    });
    Object.assign(process.env, launch.env);
    const module = (await import(pathToFileURL(fileURLToPath((config.plugin as string[])[0]!)).href)) as {
      RelevoTurnEnd: (ctx: unknown) => Promise<Record<string, (...a: unknown[]) => Promise<void>>>;
    };
    const text = (t: string, extra: Record<string, unknown> = {}) => ({ type: 'text', text: t, ...extra });
    const messages = [
      { info: { role: 'user' }, parts: [text('[relevo ronda 1 · de builder]\nreport')] },
      { info: { role: 'assistant' }, parts: [{ type: 'step-start' }, text('Plan:\n\n<handoff>\n    x\n</handoff>')] },
      { info: { role: 'user' }, parts: [text('second'), text('(synthetic)', { synthetic: true })] },
      { info: { role: 'assistant' }, parts: [text('**A**'), text(' b')] },
    ];
    const hooks = await module.RelevoTurnEnd({ client: { session: { messages: async () => ({ data: messages }) } } });
    const system = { system: ['OpenCode prompt'] };
    await hooks['experimental.chat.system.transform']!({}, system);
    expect(system.system).toEqual(['OpenCode prompt', launch.env.RELEVO_ROLE_PROMPT]);
    await hooks.event!({ event: { type: 'session.status', properties: { sessionID: 's1', status: { type: 'busy' } } } });
    await hooks.event!({ event: { type: 'session.status', properties: { sessionID: 's1', status: { type: 'idle' } } } });
    for (let i = 0; i < 1200 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(got).toEqual([
      {
        role: 'planner',
        kind: 'opencode-plugin',
        payload: { type: 'turn-end', session_id: 's1', last_assistant_message: '**A** b', input: ['second'] },
        at: expect.any(Number),
      },
    ]);
    const report = readHookPayload('opencode-plugin', got[0]!.payload)!;
    expect(report).toEqual({ text: '**A** b', transcriptPath: null, input: ['second'], thread: 's1' });
    expect(reportFits(report, 'second', null)).toBe(true);
    expect(reportFits(report, 'something else relevo typed', null)).toBe(false);
  });
});

describe('OpenCode hook payloads', () => {
  it('read only turn-end reports; an aborted turn carries no text', () => {
    expect(readHookPayload('opencode-plugin', { type: 'turn-end', session_id: 's', last_assistant_message: null })).toEqual({
      text: null,
      transcriptPath: null,
      input: null,
      thread: 's',
    });
    expect(readHookPayload('opencode-plugin', { type: 'other' })).toBeNull();
    expect(readHookPayload('opencode-plugin', 'junk')).toBeNull();
  });
});
