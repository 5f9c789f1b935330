import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { launchFor } from '../../src/app/config/launch.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { HookChannel } from '../../src/app/replies/hook-channel.js';

let channel: HookChannel;
beforeEach(async () => {
  channel = await HookChannel.open();
});
afterEach(() => channel.close());

/** The `Stop` hooks of the settings file a launch names (`--settings FILE`, or Qwen Code's system-defaults layer). */
function stopHooks(launch: ReturnType<typeof launchFor>): unknown[] {
  const at = launch.argv.indexOf('--settings');
  const file = at >= 0 ? launch.argv[at + 1]! : launch.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH!;
  return JSON.parse(readFileSync(file, 'utf8')).hooks.Stop[0].hooks;
}

it("Claude Code's Stop hook runs in the background (the profile's hook.async): its idle screen does not wait for it", () => {
  const profile = loadProfile('claude', 'test');
  expect(profile.data.hook).toMatchObject({ kind: 'claude-stop', async: true });
  const launch = launchFor('planner', { argv: ['/usr/bin/claude'], profile }, 'en', channel);
  expect(stopHooks(launch)).toEqual([{ type: 'command', command: expect.stringContaining('hook claude-stop'), async: true }]);
});

it('a profile that does not say so gets a Stop hook the agent waits for (no async key at all)', () => {
  const profile = loadProfile('qwen', 'test');
  expect(profile.data.hook?.async).toBe(false);
  const launch = launchFor('builder', { argv: ['/usr/bin/qwen'], profile }, 'en', channel);
  expect(stopHooks(launch)).toEqual([{ type: 'command', command: expect.stringContaining('hook qwen-stop') }]);
});
