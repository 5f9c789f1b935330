import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { launchFor, spoolCommand, spoolNotify } from '../../src/app/config/launch.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { HookChannel, type HookDelivery } from '../../src/app/replies/hook-channel.js';

let channel: HookChannel;
beforeEach(async () => {
  channel = await HookChannel.open();
});
afterEach(() => channel.close());

type StopHook = { type: string; command: string; async?: boolean };

/** The `Stop` hooks of the settings file a launch names (`--settings FILE`, or Qwen Code's system-defaults layer). */
function stopHooks(launch: ReturnType<typeof launchFor>): StopHook[] {
  const at = launch.argv.indexOf('--settings');
  const file = at >= 0 ? launch.argv[at + 1]! : launch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH!;
  return JSON.parse(readFileSync(file, 'utf8')).hooks.Stop[0].hooks;
}

const messages = (): HookDelivery[] => {
  const got: HookDelivery[] = [];
  channel.onMessage((m) => got.push(m));
  return got;
};

it("Claude Code's Stop hook runs in the background (the profile's hook.async) and spools its report without a Node start", () => {
  const profile = loadProfile('claude', 'test');
  expect(profile.data.hook).toMatchObject({ kind: 'claude-stop', async: true });
  const launch = launchFor('planner', { argv: ['/usr/bin/claude'], profile }, 'en', channel);
  expect(stopHooks(launch)).toEqual([{ type: 'command', command: spoolCommand(channel.spoolFor('planner'), 'claude-stop'), async: true }]);
  expect(spoolCommand(channel.spoolFor('planner'), 'claude-stop')).not.toContain('node');
});

it('the spooling hook, run by the shell with its JSON on stdin, reaches the channel as its role’s message, stamped', async () => {
  const got = messages();
  const payload = { hook_event_name: 'Stop', last_assistant_message: 'Plan.\n\n<handoff>\nStep 1 «ü»\n</handoff>' };
  const before = Date.now();
  const run = await execa('/bin/sh', ['-c', spoolCommand(channel.spoolFor('builder'), 'claude-stop')], { input: JSON.stringify(payload) });
  expect(run.exitCode).toBe(0);
  await expect.poll(() => got.length).toBe(1);
  expect(got).toEqual([{ role: 'builder', kind: 'claude-stop', payload, at: expect.any(Number) }]);
  expect(got[0]!.at).toBeGreaterThanOrEqual(before - 20);
});

it("Codex's notify program is the shell spooling its last argument (no Node start); the channel takes it as the role's message", async () => {
  const profile = loadProfile('codex', 'test');
  const launch = launchFor('builder', { argv: ['/usr/bin/codex'], profile }, 'en', channel);
  const at = launch.argv.findIndex((a) => a.startsWith('notify='));
  const notify = JSON.parse(launch.argv[at]!.slice('notify='.length)) as string[];
  expect([launch.argv[at - 1], notify]).toEqual(['-c', spoolNotify(channel.spoolFor('builder'), 'codex-notify')]);
  expect(notify.join(' ')).not.toContain('node');
  const got = messages();
  const payload = { type: 'agent-turn-complete', 'last-assistant-message': 'Done.\n\n<handoff>\n"$1" `x` «ü»\n</handoff>' };
  const run = await execa(notify[0]!, [...notify.slice(1), JSON.stringify(payload)]);
  expect(run.exitCode).toBe(0);
  await expect.poll(() => got.length).toBe(1);
  expect(got).toEqual([{ role: 'builder', kind: 'codex-notify', payload, at: expect.any(Number) }]);
});

it('a spooled report that is not JSON is refused and said why; with relevo gone the hook still exits 0', async () => {
  const rejected: string[] = [];
  channel.onRejected((r) => rejected.push(r));
  const got = messages();
  await execa('/bin/sh', ['-c', spoolCommand(channel.spoolFor('planner'), 'claude-stop')], { input: 'not json' });
  await expect.poll(() => rejected).toEqual(['not JSON']);
  expect(got).toEqual([]);
  const gone = await execa('/bin/sh', ['-c', spoolCommand('/nonexistent/planner.spool', 'claude-stop')], { input: '{}', reject: false });
  expect([gone.exitCode, gone.stderr]).toEqual([0, '']);
});

it('a profile that does not say so gets the Node forwarder as a Stop hook the agent waits for (no async key at all)', () => {
  const profile = loadProfile('qwen', 'test');
  expect(profile.data.hook?.async).toBe(false);
  const launch = launchFor('builder', { argv: ['/usr/bin/qwen'], profile }, 'en', channel);
  expect(stopHooks(launch)).toEqual([{ type: 'command', command: expect.stringContaining('hook qwen-stop') }]);
});
