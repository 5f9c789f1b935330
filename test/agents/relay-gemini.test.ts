/**
 * The relay with the real Gemini CLI (the newest tested, package.json devDependencies), offline against the fake
 * Gemini API, in both roles: under a Claude Code planner and over a Codex builder (the newest
 * releases of those), through two rounds to <done>; what each model received, byte for byte; and a
 * Gemini CLI permission prompt read as blocked.
 */
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { type JournalLine, rolePrompt } from '../../src/protocol/index.js';
import { recorded, recorderScript } from './drive.js';
import { codexCommand, codexEnv, expectBlockedPause, expectExactRelay, relayFixtureFor } from './fixture.js';
import { createGeminiHome, GEMINI_BIN, geminiEnv } from './home-gemini.js';
import { CANARY, cliVersion, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = [
  'Round 2 report',
  `Did: ${'src/users.ts handles page and limit, with the offset computed from both and the limit bounded; '.repeat(2).trim()}`,
  '    - `limit` capped at **100**',
  '```ts',
  'return rows.slice(offset, offset + limit);',
  '```',
  'Tests: 14 passed',
].join('\n');

const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)];

/** How each turn of `role` was read: its source, and whether the text may have lost something. */
const geminiTurns = (lines: JournalLine[], role: 'planner' | 'builder') =>
  of(lines, 'turn_ended')
    .filter((t) => t.role === role)
    .map((t) => [t.source, t.lossy === true]);

/** relevo run inside a CI job: Gemini CLI, which goes headless when CI is "true", must still be an interactive agent. */
const IN_CI = { CI: 'true', GITHUB_ACTIONS: 'true' };

/** Gemini CLI has no flag that adds to its system prompt: relevo opens its first message with the role prompt. */
const withRolePrompt = (role: 'planner' | 'builder', text: string) => `${rolePrompt(role, 'en')}\n\n${text}`;

/**
 * What every relay must show (`expectExactRelay`), the header the first line after the role prompt
 * Gemini CLI's first message opens with.
 */
const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };
const geminiFirst = (gemini: 'planner' | 'builder') => ({
  first: (role: 'planner' | 'builder', text: string) => (role === gemini ? withRolePrompt(role, text) : text),
  untestedMayShow: CANARY,
});

describe(`relay with the real Gemini CLI ${cliVersion(GEMINI_BIN)}`, { timeout: 200_000 }, () => {
  // Two runs at once (they wait on the CLIs far more than they compute); a third on a loaded machine
  // would slow Gemini CLI's own start (its --version alone takes seconds) past relevo's limits.
  it.concurrent('Claude Code planner → Gemini CLI builder: exact handoffs both ways, two rounds, <done>; Gemini’s replies from its transcript', async ({
    onTestFinished,
  }) => {
    const fx = relayFixtureFor(onTestFinished);
    const planner = await fx.anthropic(...plannerScript);
    const builder = await fx.gemini(...builderScript);
    const cwd = fx.dir();
    const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
    // The person's own AfterAgent hook, in their own settings: relevo leaves them as they are.
    const hooks = join(claude.home, 'user-hooks');
    const userHook = { hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: recorderScript(hooks, 'after-agent', 'stdin') }] }] } };
    const gemini = createGeminiHome({ serverUrl: builder.url, cwd, home: claude.home, settings: userHook });
    const env = { ...claude.env, ...geminiEnv(builder.url), ...IN_CI };
    const run = await fx.headless(cwd, env, { planner: quote([claude.bin]), builder: quote([gemini.bin]) }, ['--lang', 'en']);
    const { lines } = run;
    expectExactRelay(run, { planner, builder }, PLAYED, geminiFirst('builder'));
    expect(lines[0]).toMatchObject({
      type: 'run_started',
      planner: { profile: 'claude' },
      builder: { profile: 'gemini', cli_version: cliVersion(GEMINI_BIN) },
    });
    // Gemini CLI's replies come from its session transcript, exact (Claude Code's from its hook or transcript).
    expect(geminiTurns(lines, 'builder')).toEqual([
      ['transcript', false],
      ['transcript', false],
    ]);
    // The classifier's side requests are answered apart: every scripted reply went to one turn.
    expect(builder.pending).toBe(0);
    expect(builder.sideRequests().length).toBeGreaterThan(0);
    // The person's hook fired for both turns, and was told exactly what relevo typed.
    const prompts = recorded(hooks, 'after-agent').map((p) => (p as { hook_event_name: string; prompt: string }).prompt);
    expect(prompts.sort()).toEqual(builder.userTexts().sort());
  });

  it.concurrent('a shell command Gemini CLI asks to approve is read as blocked, and the run pauses with agent_blocked', async ({
    onTestFinished,
  }) => {
    const fx = relayFixtureFor(onTestFinished);
    const planner = await fx.anthropic(handoff('Plan.', STEP_1));
    const builder = await fx.gemini({
      toolUse: { name: 'run_shell_command', input: { command: 'rm -rf build', description: 'Remove the build folder' } },
    });
    const cwd = fx.dir();
    const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
    createGeminiHome({ serverUrl: builder.url, cwd, home: claude.home });
    const env = { ...claude.env, ...geminiEnv(builder.url), ...IN_CI };
    const agents = { planner: quote([claude.bin]), builder: quote([GEMINI_BIN]) };
    const run = await fx.headless(cwd, env, agents, ['--lang', 'en', '--blocked-timeout', '2']);
    expectBlockedPause(run, 'builder');
    expect(builder.userTexts()).toEqual([withRolePrompt('builder', `[relevo ronda 1 · de planner]\n${STEP_1}`)]);
    // Nothing ran: the command waits for the person.
    expect(builder.functionResponses().flat()).toEqual([]);
  });
  it('Gemini CLI planner → Codex builder: the same exact handoffs, <done>', async ({ onTestFinished }) => {
    const fx = relayFixtureFor(onTestFinished);
    const planner = await fx.gemini(...plannerScript);
    const builder = await fx.openai(...builderScript);
    const cwd = fx.dir();
    const gemini = fx.home(createGeminiHome({ serverUrl: planner.url, cwd }));
    const codex = fx.home(createCodexHome({ serverUrl: builder.url, cwd }));
    const env = { ...gemini.env, ...codexEnv(codex), ...IN_CI };
    const run = await fx.headless(cwd, env, { planner: quote([gemini.bin]), builder: codexCommand(codex) }, ['--lang', 'en']);
    const { lines } = run;
    expectExactRelay(run, { planner, builder }, PLAYED, geminiFirst('planner'));
    expect(lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'gemini' }, builder: { profile: 'codex' } });
    expect(geminiTurns(lines, 'planner')).toEqual([
      ['transcript', false],
      ['transcript', false],
      ['transcript', false],
    ]);
    expect(builder.systemTexts()[0]).toContain('# relevo: builder');
  });
});
