/**
 * The oldest tested release of Gemini CLI, OpenCode and Qwen Code (the `*-oldest` aliases in
 * devDependencies) in a relay: each as builder under the newest Claude Code, offline against its fake
 * model server, through two rounds to <done>, each model receiving exactly its messages, each reply
 * read from the source it has on the newest release, and the release inside its profile's tested
 * range (no agent_untested); and its permission prompt read as blocked. The full relays on the newest are relay-gemini/opencode/qwen.test.ts.
 */
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { rolePrompt } from '../../src/protocol/index.js';
import type { ScriptedReply } from '../helpers/fake-models/common.js';
import { expectBlockedPause, expectExactRelay, relayFixture, type Server, turnSources } from './fixture.js';
import { createGeminiHome, GEMINI_BIN, geminiEnv } from './home-gemini.js';
import { createOpencodeHome, OPENCODE_BIN } from './home-opencode.js';
import { createQwenHome, QWEN_BIN } from './home-qwen.js';
import { cliVersion, createClaudeHome, geminiBin, opencodeBin, qwenBin, RELEASES } from './homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\n    - `limit` capped at 100\nTests: 14 passed\nDoubts: none';
const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };
const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)];

const fx = relayFixture();

/** A builder's setup: its server, and its command and environment beside a Claude Code home in `cwd`. */
type Builder = {
  readonly profile: string;
  readonly bin: string;
  readonly newest: string;
  /** Where its replies come from on the newest release: the same on the oldest. */
  readonly source: 'hook' | 'transcript';
  readonly server: (...replies: ScriptedReply[]) => Promise<Server>;
  /** A reply asking to run a shell command, which the CLI asks the person to approve. */
  readonly shellCall: ScriptedReply;
  /** The rule that reads the prompt (Qwen Code's title may turn to ✳︎ in the frame the prompt is drawn in, or just before). */
  readonly blocked?: unknown;
  readonly command: (cwd: string, home: string, server: Server) => { command: string; env: Record<string, string> };
  /** How its first message opens (Gemini CLI: with the role prompt). */
  readonly first?: (role: 'planner' | 'builder', text: string) => string;
};

/** The `env VAR=… <bin>` command a person would give relevo for an agent with its own environment. */
const withEnv = (env: Record<string, string>, bin: string) =>
  quote(['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), bin]).toString();

const BUILDERS: readonly Builder[] = [
  {
    profile: 'gemini',
    bin: geminiBin('oldest'),
    newest: GEMINI_BIN,
    source: 'transcript',
    server: (...replies) => fx.gemini(...replies),
    shellCall: { toolUse: { name: 'run_shell_command', input: { command: 'rm -rf build', description: 'Remove the build folder' } } },
    command: (cwd, home, server) => {
      const gemini = createGeminiHome({ serverUrl: server.url, cwd, home, bin: geminiBin('oldest') });
      // Inside a CI job as well: the profile unsets CI, which turns Gemini CLI headless.
      return { command: quote([gemini.bin]), env: { ...geminiEnv(server.url), CI: 'true', GITHUB_ACTIONS: 'true' } };
    },
    first: (role, text) => (role === 'builder' ? `${rolePrompt(role, 'en')}\n\n${text}` : text),
  },
  {
    profile: 'opencode',
    bin: opencodeBin('oldest'),
    newest: OPENCODE_BIN,
    source: 'hook',
    server: (...replies) => fx.chat(...replies),
    shellCall: { text: 'Cleaning.', toolUse: { name: 'bash', input: { command: 'rm -rf build', description: 'Remove the build folder' } } },
    command: (cwd, _home, server) => {
      // Asking before shell commands (OpenCode runs them unasked by default).
      const config = { permission: { bash: 'ask' } };
      const oc = fx.home(createOpencodeHome({ serverUrl: server.url, cwd, bin: opencodeBin('oldest'), config }));
      const own = Object.fromEntries(Object.entries(oc.env).filter(([k]) => !['PATH', 'TERM', 'LANG'].includes(k)));
      return { command: withEnv(own, oc.bin), env: {} };
    },
  },
  {
    profile: 'qwen',
    bin: qwenBin('oldest'),
    newest: QWEN_BIN,
    source: 'hook',
    server: (...replies) => fx.anthropic(...replies),
    blocked: expect.stringMatching(/^(?:permission-prompt|confirm-title)$/),
    shellCall: { text: 'Testing.', toolUse: { name: 'run_shell_command', input: { command: 'npm test', description: 'run the tests' } } },
    command: (cwd, _home, server) => {
      const qwen = fx.home(createQwenHome({ serverUrl: server.url, cwd, bin: qwenBin('oldest') }));
      return { command: quote([...qwen.envArgs, qwen.bin]), env: {} };
    },
  },
];

describe.runIf(RELEASES.includes('oldest'))('the tested range of Gemini CLI, OpenCode and Qwen Code', () => {
  it.each(BUILDERS.map((b) => [b.profile, b] as const))(
    '%s: the profile’s tested list is the oldest and the newest release the tests run',
    (profile, b) => {
      expect(loadProfile(profile, 'test').data.versions?.tested).toEqual([cliVersion(b.bin), cliVersion(b.newest)]);
    },
  );
});

// One relay at a time: two real CLIs each, on a shared machine. A generous limit, not a timing goal.
describe.runIf(RELEASES.includes('oldest'))('relay with the oldest tested Gemini CLI, OpenCode and Qwen Code', { timeout: 180_000 }, () => {
  it.each(BUILDERS.map((b) => [`${b.profile} ${cliVersion(b.bin)}`, b] as const))(
    'Claude Code planner → %s builder: exact handoffs both ways, two rounds, <done>, inside the tested range',
    async (_name, builder) => {
      const planner = await fx.anthropic(...plannerScript);
      const server = await builder.server(...builderScript);
      const cwd = fx.dir();
      const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
      const agent = builder.command(cwd, claude.home, server);
      const run = await fx.headless(cwd, { ...claude.env, ...agent.env }, { planner: quote([claude.bin]), builder: agent.command }, [
        '--lang',
        'en',
      ]);
      expectExactRelay(run, { planner, builder: server }, PLAYED, builder.first ? { first: builder.first } : {});
      expect(run.lines[0]).toMatchObject({
        type: 'run_started',
        planner: { profile: 'claude' },
        builder: { profile: builder.profile, cli_version: cliVersion(builder.bin) },
      });
      expect(turnSources(run.lines, 'builder')).toEqual([builder.source, builder.source]);
      // The role prompt: in the first message (checked above) or added to the CLI's system prompt.
      if (builder.first === undefined) expect(server.systemTexts()[0]).toContain('# relevo: builder');
      expect(server.pending).toBe(0);
    },
  );

  it.each(BUILDERS.map((b) => [`${b.profile} ${cliVersion(b.bin)}`, b] as const))(
    'a shell command %s asks to approve is read as blocked, and the run pauses past --blocked-timeout',
    async (_name, builder) => {
      const planner = await fx.anthropic(handoff('Plan.', STEP_1));
      const server = await builder.server(builder.shellCall);
      const cwd = fx.dir();
      const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
      const agent = builder.command(cwd, claude.home, server);
      const agents = { planner: quote([claude.bin]), builder: agent.command };
      const run = await fx.headless(cwd, { ...claude.env, ...agent.env }, agents, ['--blocked-timeout', '3']);
      expectBlockedPause(run, 'builder', builder.blocked ?? 'permission-prompt');
      expect(planner.userTexts()).toHaveLength(1);
    },
  );
});
