/**
 * The relay with the real Qwen Code CLI, offline against the fake Anthropic server (its
 * `anthropic` auth type), beside the newest Claude Code and Codex: what each model received, byte
 * for byte, where each reply came from, and a Qwen Code permission prompt seen as blocked.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscriptReply } from '../../src/app/replies/transcript.js';
import { qwenChatsDir } from '../../src/app/replies/transcript-qwen.js';
import type { JournalLine } from '../../src/protocol/index.js';
import { parseJournal, relevo, simCommand } from '../helpers/cli.js';
import { type FakeAnthropic, type ScriptedReply, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { reapLeftovers, recorded, recorderScript } from './drive.js';
import { createQwenHome, type QwenHome } from './home-qwen.js';
import { CODEX_BIN, codexNoDaemon, createClaudeHome, createCodexHome, makeTempDir } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, SUMMARY } from './script.js';

// Markdown, a line longer than the pane, four-space indents, more than 10 lines (Qwen Code shows
// such a paste as "[Pasted Content N chars]" and expands it on submit).
const STEP_2 = [
  '## Step 2: implement `page` and `limit`',
  '',
  `**Context:** ${'the handler in `src/users.ts` returns every row at once, which is slow for large tables; '.repeat(3).trim()}`,
  '- `limit` defaults to **20**, capped at 100',
  '    - four spaces in: keep the public API unchanged',
  '1. make the failing tests pass',
  '```ts',
  "const page = Number(req.query.page ?? '1');",
  "const limit = Math.min(Number(req.query.limit ?? '20'), 100);",
  '```',
  '> keep the old response shape',
  'Verify: npm test',
].join('\n');
const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\n    - `limit` capped at 100\nTests: 14 passed\nDoubts: none';

const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)];

let undo: (() => unknown)[] = [];
/** After the run: nothing the agents started may outlive it (a daemon, a hook, a tool). */
const leftovers = (home: string) => async () => expect(await reapLeftovers(home)).toEqual([]);
afterEach(async () => {
  for (const step of undo.reverse()) await step();
  undo = [];
});

async function anthropic(...replies: ScriptedReply[]): Promise<FakeAnthropic> {
  const server = await startFakeAnthropic({ replies });
  undo.push(() => server.close());
  return server;
}

async function openai(...replies: ScriptedReply[]): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI({ replies });
  undo.push(() => server.close());
  return server;
}

/** The project both agents work in, removed after the test. */
function projectDir(): string {
  const cwd = makeTempDir('relevo-relay-cwd-');
  undo.push(() => rmSync(cwd, { recursive: true, force: true }));
  return cwd;
}

/** A Qwen Code home in `cwd` on `server`, with a Stop hook of the user's own that records what it gets. */
function qwenHome(cwd: string, server: FakeAnthropic): { home: QwenHome; command: string; userHook: () => unknown[] } {
  const hooks = makeTempDir('relevo-qwen-user-hook-');
  undo.push(() => rmSync(hooks, { recursive: true, force: true }));
  const home = createQwenHome({
    serverUrl: server.url,
    cwd,
    settings: { hooks: { Stop: [{ hooks: [{ type: 'command', command: recorderScript(hooks, 'user-stop', 'stdin') }] }] } },
  });
  undo.push(() => home.cleanup(), leftovers(home.home));
  return { home, command: quote([...home.envArgs, home.bin]), userHook: () => recorded(hooks, 'user-stop') };
}

/** The model requests a CLI made, by kind: every one of them must be a turn the test scripted. */
const requestKinds = (server: FakeAnthropic | FakeOpenAI) => server.requests.filter((r) => r.path.endsWith('/messages')).map((r) => r.kind);

/**
 * What every relay must show: `<done>` with its summary; each model's user texts exactly the goal
 * and the round-headed handoffs (header first, body byte for byte, nothing twice); each delivery
 * journaled once.
 */
function expectExactRelay(
  run: { result: { exitCode?: number; stderr: string }; lines: JournalLine[] },
  servers: { planner: FakeAnthropic | FakeOpenAI; builder: FakeAnthropic | FakeOpenAI },
) {
  expect(run.result.stderr).toBe('');
  expect(run.result.exitCode).toBe(0);
  expect(servers.planner.userTexts()).toEqual([
    `Goal: ${GOAL}`,
    `[relevo ronda 1 · de builder]\n${REPORT_1}`,
    `[relevo ronda 2 · de builder]\n${REPORT_2}`,
  ]);
  expect(servers.builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`, `[relevo ronda 2 · de planner]\n${STEP_2}`]);
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

// A relay starts two real CLIs (Qwen Code alone takes 5–15 s to start on a busy machine): a generous limit, not a timing goal.
describe('relay with the real Qwen Code', { timeout: 120_000 }, () => {
  it('Claude Code planner → Qwen Code builder: exact handoffs, two rounds, <done>; replies from the hook; the user’s Stop hook still runs', async () => {
    const servers = { planner: await anthropic(...plannerScript), builder: await anthropic(...builderScript) };
    const cwd = projectDir();
    const claude = createClaudeHome({ serverUrl: servers.planner.url, cwd });
    undo.push(() => claude.cleanup(), leftovers(claude.home));
    const qwen = qwenHome(cwd, servers.builder);
    const result = await relevo(
      ['--headless', '--goal', GOAL, '--lang', 'en', '--planner', quote([claude.bin]), '--builder', qwen.command],
      cwd,
      claude.env,
    );
    const run = { result, lines: parseJournal(result.stdout) };
    expectExactRelay(run, servers);
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'claude' }, builder: { profile: 'qwen' } });
    expect(servers.builder.systemTexts()[0]).toContain('# relevo: builder'); // through --append-system-prompt
    expect(requestKinds(servers.builder)).toEqual(['main', 'main']);
    expect(
      of(run.lines, 'turn_ended')
        .filter((t) => t.role === 'builder')
        .map((t) => t.source),
    ).toEqual(['hook', 'hook']);
    const userHook = qwen.userHook() as { last_assistant_message?: string; transcript_path?: string }[];
    expect(userHook.map((p) => p.last_assistant_message).sort()).toEqual(builderScript.map((r) => r.text).sort());
    // The second reply source, on the transcript the real CLI wrote: where the hook said, and where relevo looks without it.
    const env = { HOME: qwen.home.home, QWEN_HOME: qwen.home.qwenDir };
    expect(userHook[0]?.transcript_path?.startsWith(join(qwenChatsDir(env, cwd), ''))).toBe(true);
    expect(await readTranscriptReply('qwen-projects', { env, cwd, since: 0 })).toBe(builderScript[1]!.text);
    expect(await readTranscriptReply('qwen-projects', { env, cwd, since: 0, path: userHook[0]!.transcript_path! })).toBe(
      builderScript[1]!.text,
    );
  });

  it('Qwen Code planner → Codex builder: exact handoffs, two rounds, <done>; the planner’s replies from the hook', async () => {
    const servers = { planner: await anthropic(...plannerScript), builder: await openai(...builderScript) };
    const cwd = projectDir();
    const qwen = qwenHome(cwd, servers.planner);
    const codex = createCodexHome({ serverUrl: servers.builder.url, cwd, bin: CODEX_BIN });
    undo.push(() => codex.cleanup(), leftovers(codex.home));
    const env = { ...qwen.home.env, CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test' };
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--lang',
        'en',
        '--planner',
        qwen.command,
        '--builder',
        quote([codex.bin, ...codexNoDaemon(codex.bin)]),
      ],
      cwd,
      env,
    );
    const run = { result, lines: parseJournal(result.stdout) };
    expectExactRelay(run, servers);
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'qwen' }, builder: { profile: 'codex' } });
    expect(servers.planner.systemTexts()[0]).toContain('# relevo: planner');
    expect(requestKinds(servers.planner)).toEqual(['main', 'main', 'main']);
    expect(
      of(run.lines, 'turn_ended')
        .filter((t) => t.role === 'planner')
        .map((t) => t.source),
    ).toEqual(['hook', 'hook', 'hook']);
  });

  it('a Qwen Code permission prompt is journaled as blocked, and the run pauses past --blocked-timeout', async () => {
    const builder = await anthropic({
      text: 'I will run the tests.',
      toolUse: { name: 'run_shell_command', input: { command: 'npm test', description: 'run the tests' } },
    });
    const cwd = projectDir();
    const qwen = qwenHome(cwd, builder);
    const result = await relevo(
      ['--headless', '--goal', GOAL, '--blocked-timeout', '3', '--planner', simCommand('planner'), '--builder', qwen.command],
      cwd,
      qwen.home.env,
    );
    const lines = parseJournal(result.stdout);
    expect(result.exitCode).toBe(3);
    // The title turns to ✳︎ in the frame the prompt is drawn in, or just before: either rule may see it first.
    expect(of(lines, 'blocked')).toMatchObject([
      { role: 'builder', detail: expect.stringMatching(/^(?:permission-prompt|confirm-title)$/) },
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'paused', reason: 'agent_blocked', role: 'builder' });
    expect(of(lines, 'turn_ended').filter((t) => t.role === 'builder')).toHaveLength(0);
    expect(builder.toolResults().flat()).toEqual([]); // the command never ran
  });
});
