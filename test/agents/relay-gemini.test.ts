/**
 * The relay with the real Gemini CLI (0.61, package.json devDependencies), offline against the fake
 * Gemini API, in both roles: under a Claude Code planner and over a Codex builder (the newest
 * releases of those), through two rounds to <done>; what each model received, byte for byte; and a
 * Gemini CLI permission prompt read as blocked.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { type JournalLine, rolePrompt } from '../../src/protocol/index.js';
import { parseJournal, relevo } from '../helpers/cli.js';
import { type FakeAnthropic, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeGemini, startFakeGemini } from '../helpers/fake-models/gemini.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { reapLeftovers, recorded, recorderScript } from './drive.js';
import { createGeminiHome, GEMINI_BIN, geminiEnv } from './home-gemini.js';
import { cliVersion, codexNoDaemon, createClaudeHome, createCodexHome, makeTempDir } from './homes.js';
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

type Finished = (fn: () => Promise<void>) => void;

/** What a test undoes when it ends, last first (the tests run at once, each with its own list). */
function cleanups(onTestFinished: Finished) {
  const steps: (() => unknown)[] = [];
  onTestFinished(async () => {
    for (const step of steps.reverse()) await step();
  });
  return {
    push: (...more: (() => unknown)[]) => steps.push(...more),
    /** A fresh directory, removed at the end. */
    dir: (prefix: string) => {
      const dir = makeTempDir(prefix);
      steps.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
    /** After the run: nothing the agents started may outlive it (a daemon, a hook, a tool). */
    leftovers: (home: string) => async () => expect(await reapLeftovers(home)).toEqual([]),
    serve: async <T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> => {
      const s = await server;
      steps.push(() => s.close());
      return s;
    },
  };
}

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
 * What every relay must show: `<done>` with its summary; each model received exactly the goal and the
 * round-headed handoffs (body byte for byte, the header the first line after the role prompt Gemini
 * CLI's first message opens with), one model request per message and each delivery journaled once.
 */
function expectExactRelay(
  run: { result: { exitCode?: number; stderr: string }; lines: JournalLine[] },
  toPlanner: readonly string[],
  toBuilder: readonly string[],
  gemini: 'planner' | 'builder',
) {
  expect(run.result.stderr).toBe('');
  expect(run.result.exitCode).toBe(0);
  const first = (text: string, role: 'planner' | 'builder') => (role === gemini ? withRolePrompt(role, text) : text);
  expect(toPlanner).toEqual([
    first(`Goal: ${GOAL}`, 'planner'),
    `[relevo ronda 1 · de builder]\n${REPORT_1}`,
    `[relevo ronda 2 · de builder]\n${REPORT_2}`,
  ]);
  expect(toBuilder).toEqual([first(`[relevo ronda 1 · de planner]\n${STEP_1}`, 'builder'), `[relevo ronda 2 · de planner]\n${STEP_2}`]);
  expect(run.lines.at(-1)).toMatchObject({ type: 'done', summary: SUMMARY, rounds: 2 });
  expect(of(run.lines, 'delivered').map((d) => [d.from, d.to, d.round])).toEqual([
    ['relevo', 'planner', 0],
    ['planner', 'builder', 1],
    ['builder', 'planner', 1],
    ['planner', 'builder', 2],
    ['builder', 'planner', 2],
  ]);
  expect(of(run.lines, 'agent_untested')).toEqual([]);
}

describe(`relay with the real Gemini CLI ${cliVersion(GEMINI_BIN)}`, () => {
  // Two runs at once (they wait on the CLIs far more than they compute); a third on a loaded machine
  // would slow Gemini CLI's own start (its --version alone takes seconds) past relevo's limits.
  it.concurrent('Claude Code planner → Gemini CLI builder: exact handoffs both ways, two rounds, <done>; Gemini’s replies from its transcript', async ({
    onTestFinished,
  }) => {
    const undo = cleanups(onTestFinished);
    const planner = await undo.serve<FakeAnthropic>(startFakeAnthropic({ replies: plannerScript }));
    const builder = await undo.serve<FakeGemini>(startFakeGemini({ replies: builderScript }));
    const cwd = undo.dir('relevo-relay-cwd-');
    const claude = createClaudeHome({ serverUrl: planner.url, cwd });
    // The person's own AfterAgent hook, in their own settings: relevo leaves them as they are.
    const hooks = join(claude.home, 'user-hooks');
    const userHook = { hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: recorderScript(hooks, 'after-agent', 'stdin') }] }] } };
    const gemini = createGeminiHome({ serverUrl: builder.url, cwd, home: claude.home, settings: userHook });
    undo.push(() => claude.cleanup(), undo.leftovers(claude.home));
    const result = await relevo(
      ['--headless', '--goal', GOAL, '--lang', 'en', '--planner', quote([claude.bin]), '--builder', quote([gemini.bin])],
      cwd,
      { ...claude.env, ...geminiEnv(builder.url), ...IN_CI },
    );
    const lines = parseJournal(result.stdout);
    expectExactRelay({ result, lines }, planner.userTexts(), builder.userTexts(), 'builder');
    expect(lines[0]).toMatchObject({
      type: 'run_started',
      planner: { profile: 'claude' },
      builder: { profile: 'gemini', cli_version: '0.61.0' },
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
    const undo = cleanups(onTestFinished);
    const planner = await undo.serve<FakeAnthropic>(startFakeAnthropic({ replies: [handoff('Plan.', STEP_1)] }));
    const builder = await undo.serve<FakeGemini>(
      startFakeGemini({
        replies: [{ toolUse: { name: 'run_shell_command', input: { command: 'rm -rf build', description: 'Remove the build folder' } } }],
      }),
    );
    const cwd = undo.dir('relevo-relay-cwd-');
    const claude = createClaudeHome({ serverUrl: planner.url, cwd });
    createGeminiHome({ serverUrl: builder.url, cwd, home: claude.home });
    undo.push(() => claude.cleanup(), undo.leftovers(claude.home));
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--lang',
        'en',
        '--blocked-timeout',
        '2',
        '--planner',
        quote([claude.bin]),
        '--builder',
        quote([GEMINI_BIN]),
      ],
      cwd,
      { ...claude.env, ...geminiEnv(builder.url), ...IN_CI },
    );
    const lines = parseJournal(result.stdout);
    expect(result.exitCode).toBe(3);
    expect(builder.userTexts()).toEqual([withRolePrompt('builder', `[relevo ronda 1 · de planner]\n${STEP_1}`)]);
    expect(of(lines, 'blocked')).toMatchObject([{ role: 'builder', detail: 'permission-prompt' }]);
    expect(lines.at(-1)).toMatchObject({ type: 'paused', reason: 'agent_blocked', role: 'builder' });
    expect(of(lines, 'turn_ended').filter((t) => t.role === 'builder')).toHaveLength(0);
    // Nothing ran: the command waits for the person.
    expect(builder.functionResponses().flat()).toEqual([]);
  });
  it('Gemini CLI planner → Codex builder: the same exact handoffs, <done>', async ({ onTestFinished }) => {
    const undo = cleanups(onTestFinished);
    const planner = await undo.serve<FakeGemini>(startFakeGemini({ replies: plannerScript }));
    const builder = await undo.serve<FakeOpenAI>(startFakeOpenAI({ replies: builderScript }));
    const cwd = undo.dir('relevo-relay-cwd-');
    const gemini = createGeminiHome({ serverUrl: planner.url, cwd });
    const codex = createCodexHome({ serverUrl: builder.url, cwd });
    undo.push(
      () => gemini.cleanup(),
      () => codex.cleanup(),
      undo.leftovers(gemini.home),
      undo.leftovers(codex.home),
    );
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--lang',
        'en',
        '--planner',
        quote([gemini.bin]),
        '--builder',
        quote([codex.bin, ...codexNoDaemon(codex.bin)]),
      ],
      cwd,
      { ...gemini.env, CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test', ...IN_CI },
    );
    const lines = parseJournal(result.stdout);
    expectExactRelay({ result, lines }, planner.userTexts(), builder.userTexts(), 'planner');
    expect(lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'gemini' }, builder: { profile: 'codex' } });
    expect(geminiTurns(lines, 'planner')).toEqual([
      ['transcript', false],
      ['transcript', false],
      ['transcript', false],
    ]);
    expect(builder.systemTexts()[0]).toContain('# relevo: builder');
  });
});
