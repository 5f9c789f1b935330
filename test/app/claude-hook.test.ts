// relevo's Claude Code hook: a `Stop` hook in an extra settings layer, run as an `async` hook when
// the profile says `[hook] background` (Claude Code then draws its idle screen without waiting for it).
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { launchFor } from '../../src/app/config/launch.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { HookChannel } from '../../src/app/replies/hook-channel.js';
import { editedProfile } from '../helpers/profiles.js';

let undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of undo.reverse()) await step();
  undo = [];
});

async function stopHooks(profilePath: string) {
  const channel = await HookChannel.open();
  undo.push(() => channel.close());
  const launch = launchFor('planner', { argv: ['/usr/bin/claude'], profile: loadProfile(profilePath, 'test') }, 'en', channel);
  const settings = launch.argv[launch.argv.indexOf('--settings') + 1]!;
  const parsed = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: { Stop: { hooks: Record<string, unknown>[] }[] } };
  return parsed.hooks.Stop.flatMap((s) => s.hooks);
}

it('the shipped profile runs relevo-tui hook as an async Stop hook; without `background` it is waited for', async () => {
  const shipped = await stopHooks('claude');
  expect(shipped).toEqual([{ type: 'command', command: expect.stringMatching(/relevo-tui\.js hook claude-stop$/), async: true }]);
  const waited = await stopHooks(editedProfile('claude', (t) => t.replace(/^background = true$/m, 'background = false')));
  expect(waited).toEqual([{ type: 'command', command: expect.stringMatching(/relevo-tui\.js hook claude-stop$/) }]);
});
