/**
 * The relay with the real OpenCode CLI (npm `opencode-ai`), offline against a fake Chat Completions
 * server: OpenCode as builder under a Claude Code planner, and as planner over a Codex builder (the
 * newest Claude Code and Codex only), through two rounds to `<done>`, with the exact text each model
 * received; and a permission prompt of OpenCode read as `blocked`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import {
  codexCommand,
  expectBlockedPause,
  expectExactRelay as expectRelay,
  type RelayFixture,
  type Run,
  relayFixtureFor,
  type Server,
  turnSources,
} from './fixture.js';
import { createOpencodeHome, OPENCODE_BIN, type OpencodeHome, type OpencodeHomeOptions } from './home-opencode.js';
import { CANARY, cliVersion, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 =
  'Round 2 report\nDid: src/users.ts handles page and limit\n  - `limit` capped at 100\n\n    four spaces: unchanged API\nTests: 14 passed';

const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('**Done.**', REPORT_2)];

/** OpenCode's home, and its command line as a user gives it to relevo: `env` with its variables, then the binary. */
function opencode(fx: RelayFixture, options: OpencodeHomeOptions): { home: OpencodeHome; command: string } {
  const home = fx.home(createOpencodeHome(options));
  const own = Object.entries(home.env).filter(([k]) => !['PATH', 'TERM', 'LANG'].includes(k));
  return { home, command: quote(['env', ...own.map(([k, v]) => `${k}=${v}`), home.bin]) };
}

const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };

/** The run reaches `<done>`; each model got the goal or the round-headed handoffs, exactly, once each (`expectExactRelay`), every scripted reply used. */
function expectExactRelay(run: Run, planner: Server, builder: Server) {
  expectRelay(run, { planner, builder }, PLAYED, { untestedMayShow: CANARY });
  expect(planner.pending + builder.pending).toBe(0);
}

// One run at a time (side by side, six CLIs starting at once on two busy cores slow every one of
// them past the tests' limit for a relevo run). OpenCode takes 10-20 s to start on a loaded machine.
const RUN_MS = 200_000;

describe('relay with the real OpenCode', () => {
  it(
    'Claude planner → OpenCode builder: exact handoffs both ways, two rounds, <done>; the reply from relevo’s plugin; the user’s own plugin still runs',
    async ({ onTestFinished }) => {
      const fx = relayFixtureFor(onTestFinished);
      const planner = await fx.anthropic(...plannerScript);
      const builder = await fx.chat(...builderScript);
      const cwd = fx.dir();
      const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
      const seen = join(fx.dir('relevo-opencode-user-plugin-'), 'idle.log');
      // The user's own plugin, in their own config directory: it keeps running next to relevo's.
      const userPlugin = `import { appendFileSync } from 'node:fs';
export const UserPlugin = async () => ({ event: async ({ event }) => { if (event.type === 'session.idle') appendFileSync(${JSON.stringify(seen)}, 'idle\\n'); } });
`;
      const oc = opencode(fx, { serverUrl: builder.url, cwd, plugins: { 'user.js': userPlugin } });
      const run = await fx.headless(cwd, claude.env, { planner: quote([claude.bin]), builder: oc.command }, ['--lang', 'en']);
      const { lines } = run;
      expectExactRelay(run, planner, builder);
      expect(lines[0]).toMatchObject({ type: 'run_started', builder: { profile: 'opencode', cli_version: cliVersion(OPENCODE_BIN) } });
      expect(builder.systemTexts()[0]).toContain('# relevo: builder'); // through the plugin's system transform
      expect(builder.systemTexts()[0]).toContain('You are opencode'); // OpenCode's own prompt kept
      expect(of(lines, 'turn_ended').map((t) => [t.role, t.source])).toEqual([
        ['planner', 'hook'],
        ['builder', 'hook'],
        ['planner', 'hook'],
        ['builder', 'hook'],
        ['planner', 'hook'],
      ]);
      expect(existsSync(seen) ? readFileSync(seen, 'utf8') : '').toBe('idle\nidle\n');
    },
    RUN_MS,
  );

  it(
    'OpenCode planner → Codex builder: the same exact handoffs, <done>',
    async ({ onTestFinished }) => {
      const fx = relayFixtureFor(onTestFinished);
      const planner = await fx.chat(...plannerScript);
      const builder = await fx.openai(...builderScript);
      const cwd = fx.dir();
      const codex = fx.home(createCodexHome({ serverUrl: builder.url, cwd }));
      const oc = opencode(fx, { serverUrl: planner.url, cwd });
      const run = await fx.headless(cwd, codex.env, { planner: oc.command, builder: codexCommand(codex) }, ['--lang', 'en']);
      const { lines } = run;
      expectExactRelay(run, planner, builder);
      expect(lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'opencode' }, builder: { profile: 'codex' } });
      expect(planner.systemTexts()[0]).toContain('# relevo: planner');
      expect(turnSources(lines, 'planner')).toEqual(['hook', 'hook', 'hook']);
    },
    RUN_MS,
  );

  it(
    'a permission prompt of OpenCode reads as blocked: journaled, then the run pauses past --blocked-timeout',
    async ({ onTestFinished }) => {
      const fx = relayFixtureFor(onTestFinished);
      const planner = await fx.anthropic(handoff('Plan.', STEP_1), done(SUMMARY));
      const builder = await fx.chat({
        text: 'Cleaning the build.',
        toolUse: { name: 'bash', input: { command: 'rm -rf build', description: 'Remove the build folder' } },
      });
      const cwd = fx.dir();
      const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
      // The user's config asks before shell commands (OpenCode runs them unasked by default).
      const oc = opencode(fx, { serverUrl: builder.url, cwd, config: { permission: { bash: 'ask' } } });
      const run = await fx.headless(cwd, claude.env, { planner: quote([claude.bin]), builder: oc.command }, ['--blocked-timeout', '3']);
      expectBlockedPause(run, 'builder');
      expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`]);
    },
    RUN_MS,
  );
});
