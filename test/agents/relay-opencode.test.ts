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
import type { JournalLine } from '../../src/protocol/index.js';
import { parseJournal, relevo } from '../helpers/cli.js';
import { type FakeAnthropic, type ScriptedReply, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeChatCompletions, startFakeChatCompletions } from '../helpers/fake-models/chat-completions.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { reapLeftovers } from './drive.js';
import { createOpencodeHome, type OpencodeHome, type OpencodeHomeOptions } from './home-opencode.js';
import { CANARY, codexNoDaemon, createClaudeHome, createCodexHome, makeTempDir } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 =
  'Round 2 report\nDid: src/users.ts handles page and limit\n  - `limit` capped at 100\n\n    four spaces: unchanged API\nTests: 14 passed';

const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('**Done.**', REPORT_2)];

/** What a test undoes when it ends, last first. */
type Undo = (...steps: (() => unknown)[]) => void;
function undoer(onTestFinished: (fn: () => Promise<void>) => void): Undo {
  const steps: (() => unknown)[] = [];
  onTestFinished(async () => {
    for (const step of steps.reverse()) await step();
  });
  return (...more) => {
    steps.push(...more);
  };
}
const leftovers = (home: string) => async () => expect(await reapLeftovers(home)).toEqual([]);

async function chat(undo: Undo, ...replies: ScriptedReply[]): Promise<FakeChatCompletions> {
  const server = await startFakeChatCompletions({ replies });
  undo(() => server.close());
  return server;
}

/** OpenCode's home, and its command line as a user gives it to relevo: `env` with its variables, then the binary. */
function opencode(undo: Undo, options: OpencodeHomeOptions): { home: OpencodeHome; command: string } {
  const home = createOpencodeHome(options);
  undo(() => home.cleanup(), leftovers(home.home));
  const own = Object.entries(home.env).filter(([k]) => !['PATH', 'TERM', 'LANG'].includes(k));
  return { home, command: quote(['env', ...own.map(([k, v]) => `${k}=${v}`), home.bin]) };
}

type Server = FakeAnthropic | FakeOpenAI | FakeChatCompletions;

/** The run reaches `<done>`; each model got the goal or the round-headed handoffs, exactly, once each. */
function expectExactRelay(result: { exitCode?: number; stderr: string }, lines: JournalLine[], planner: Server, builder: Server) {
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  expect(planner.userTexts()).toEqual([
    `Goal: ${GOAL}`,
    `[relevo ronda 1 · de builder]\n${REPORT_1}`,
    `[relevo ronda 2 · de builder]\n${REPORT_2}`,
  ]);
  expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`, `[relevo ronda 2 · de planner]\n${STEP_2}`]);
  expect(lines.at(-1)).toMatchObject({ type: 'done', summary: SUMMARY, rounds: 2 });
  expect(of(lines, 'delivered').map((d) => [d.from, d.to, d.round])).toEqual([
    ['relevo', 'planner', 0],
    ['planner', 'builder', 1],
    ['builder', 'planner', 1],
    ['planner', 'builder', 2],
    ['builder', 'planner', 2],
  ]);
  expect(planner.pending + builder.pending).toBe(0);
  if (!CANARY) expect(of(lines, 'agent_untested')).toEqual([]);
}

// One run at a time (side by side, six CLIs starting at once on two busy cores slow every one of
// them past relevo's 90 s timeout). OpenCode takes 10-20 s to start on a loaded machine.
const RUN_MS = 120_000;

describe('relay with the real OpenCode', () => {
  it(
    'Claude planner → OpenCode builder: exact handoffs both ways, two rounds, <done>; the reply from relevo’s plugin; the user’s own plugin still runs',
    async ({ onTestFinished }) => {
      const undo = undoer(onTestFinished);
      const planner = await startFakeAnthropic({ replies: plannerScript });
      undo(() => planner.close());
      const builder = await chat(undo, ...builderScript);
      const cwd = makeTempDir('relevo-relay-cwd-');
      const claude = createClaudeHome({ serverUrl: planner.url, cwd });
      undo(() => claude.cleanup(), leftovers(claude.home));
      const seen = join(makeTempDir('relevo-opencode-user-plugin-'), 'idle.log');
      // The user's own plugin, in their own config directory: it keeps running next to relevo's.
      const userPlugin = `import { appendFileSync } from 'node:fs';
export const UserPlugin = async () => ({ event: async ({ event }) => { if (event.type === 'session.idle') appendFileSync(${JSON.stringify(seen)}, 'idle\\n'); } });
`;
      const oc = opencode(undo, { serverUrl: builder.url, cwd, plugins: { 'user.js': userPlugin } });
      const result = await relevo(
        ['--headless', '--goal', GOAL, '--lang', 'en', '--planner', quote([claude.bin]), '--builder', oc.command],
        cwd,
        claude.env,
      );
      const lines = parseJournal(result.stdout);
      expectExactRelay(result, lines, planner, builder);
      expect(lines[0]).toMatchObject({ type: 'run_started', builder: { profile: 'opencode', cli_version: '1.18.33' } });
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
      const undo = undoer(onTestFinished);
      const planner = await chat(undo, ...plannerScript);
      const builder = await startFakeOpenAI({ replies: builderScript });
      undo(() => builder.close());
      const cwd = makeTempDir('relevo-relay-cwd-');
      const codex = createCodexHome({ serverUrl: builder.url, cwd });
      undo(() => codex.cleanup(), leftovers(codex.home));
      const oc = opencode(undo, { serverUrl: planner.url, cwd });
      const result = await relevo(
        [
          '--headless',
          '--goal',
          GOAL,
          '--lang',
          'en',
          '--planner',
          oc.command,
          '--builder',
          quote([codex.bin, ...codexNoDaemon(codex.bin)]),
        ],
        cwd,
        codex.env,
      );
      const lines = parseJournal(result.stdout);
      expectExactRelay(result, lines, planner, builder);
      expect(lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'opencode' }, builder: { profile: 'codex' } });
      expect(planner.systemTexts()[0]).toContain('# relevo: planner');
      expect(
        of(lines, 'turn_ended')
          .filter((t) => t.role === 'planner')
          .map((t) => t.source),
      ).toEqual(['hook', 'hook', 'hook']);
    },
    RUN_MS,
  );

  it(
    'a permission prompt of OpenCode reads as blocked: journaled, then the run pauses past --blocked-timeout',
    async ({ onTestFinished }) => {
      const undo = undoer(onTestFinished);
      const planner = await startFakeAnthropic({ replies: [handoff('Plan.', STEP_1), done(SUMMARY)] });
      undo(() => planner.close());
      const builder = await chat(undo, {
        text: 'Cleaning the build.',
        toolUse: { name: 'bash', input: { command: 'rm -rf build', description: 'Remove the build folder' } },
      });
      const cwd = makeTempDir('relevo-relay-cwd-');
      const claude = createClaudeHome({ serverUrl: planner.url, cwd });
      undo(() => claude.cleanup(), leftovers(claude.home));
      // The user's config asks before shell commands (OpenCode runs them unasked by default).
      const oc = opencode(undo, { serverUrl: builder.url, cwd, config: { permission: { bash: 'ask' } } });
      const result = await relevo(
        ['--headless', '--goal', GOAL, '--blocked-timeout', '3', '--planner', quote([claude.bin]), '--builder', oc.command],
        cwd,
        claude.env,
      );
      const lines = parseJournal(result.stdout);
      expect(result.exitCode).toBe(3);
      expect(of(lines, 'blocked')).toMatchObject([{ role: 'builder', detail: 'permission-prompt' }]);
      expect(lines.at(-1)).toMatchObject({ type: 'paused', reason: 'agent_blocked', role: 'builder' });
      expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`]);
      expect(of(lines, 'turn_ended').filter((t) => t.role === 'builder')).toEqual([]);
    },
    RUN_MS,
  );
});
