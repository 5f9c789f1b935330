/**
 * The relay on the real agent CLIs (Claude Code 2.1.197, Codex 0.171.0), offline against the fake
 * model servers: what each agent received, byte for byte, and how each run ends.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { onlyRunJournal, parseJournal, relevo } from '../helpers/cli.js';
import { type FakeAnthropic, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { reapLeftovers, recorded, recorderScript } from './drive.js';
import { CLAUDE_BIN, CODEX_BIN, createClaudeHome, createCodexHome, makeTempDir } from './homes.js';

const GOAL = 'Add pagination to /users with tests';
const STEP_1 = 'Step 1: write failing tests for GET /users?page=2\n  - cover the empty page\nVerify: npm test';
const STEP_2 = 'Step 2: implement the page and limit parameters\nVerify: npm test';
const REPORT_1 = 'Round 1 report\nDid: added test/users.test.ts\nTests: 2 failed (expected)\nDoubts: none';
const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\nTests: 14 passed\nDoubts: none';
const SUMMARY = 'Pagination shipped in 2 rounds.';

const handoff = (intro: string, body: string) => ({ text: `${intro}\n\n<handoff>\n${body}\n</handoff>` });
const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);

let undo: (() => unknown)[] = [];
/** After the run: nothing the agents started may outlive it (a daemon, a hook, a tool). */
const leftovers = (home: string) => async () => expect(await reapLeftovers(home)).toEqual([]);
afterEach(async () => {
  for (const step of undo.reverse()) await step();
  undo = [];
});

async function anthropic(...replies: { text: string }[]): Promise<FakeAnthropic> {
  const server = await startFakeAnthropic({ replies });
  undo.push(() => server.close());
  return server;
}

async function openai(...replies: { text: string }[]): Promise<FakeOpenAI> {
  const server = await startFakeOpenAI({ replies });
  undo.push(() => server.close());
  return server;
}

/** The planner's script for two rounds, then <done>. */
const plannerScript = () => [
  handoff('I will split this in two steps.', STEP_1),
  handoff('Good. Next step.', STEP_2),
  { text: `Both steps are done.\n\n<done>\n${SUMMARY}\n</done>` },
];

function expectTwoRounds(result: { exitCode?: number; stderr: string; stdout: string }, planner: FakeAnthropic) {
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  expect(planner.userTexts()).toEqual([
    `Goal: ${GOAL}`,
    `[relevo ronda 1 · de builder]\n${REPORT_1}`,
    `[relevo ronda 2 · de builder]\n${REPORT_2}`,
  ]);
  const lines = parseJournal(result.stdout);
  expect(lines.at(-1)).toMatchObject({ type: 'done', summary: SUMMARY, rounds: 2 });
  expect(of(lines, 'delivered').map((d) => [d.from, d.to, d.round])).toEqual([
    ['relevo', 'planner', 0],
    ['planner', 'builder', 1],
    ['builder', 'planner', 1],
    ['planner', 'builder', 2],
    ['builder', 'planner', 2],
  ]);
  return lines;
}

/** A shipped profile with some of its sections cut, as a file for `--X-profile`. */
function profileWithout(name: string, sections: readonly ('hook' | 'transcript')[]): string {
  let text = readFileSync(new URL(`../../profiles/${name}.toml`, import.meta.url), 'utf8');
  for (const section of sections) text = text.replace(new RegExp(`\\n\\[${section}\\]\\n(?:[a-z_]+ = .*\\n)+`), '\n');
  const file = join(makeTempDir('relevo-profiles-'), `${name}-without-${sections.join('-')}.toml`);
  writeFileSync(file, text);
  return file;
}

/** Runs `relevo-tui --headless` with a real Claude Code planner and a real Codex builder sharing one project. */
async function claudeToCodex(planner: FakeAnthropic, builder: FakeOpenAI, args: readonly string[], profiles: { planner?: string; builder?: string } = {}) {
  const cwd = makeTempDir('relevo-relay-cwd-');
  const claude = createClaudeHome({ serverUrl: planner.url, cwd });
  const codex = createCodexHome({ serverUrl: builder.url, cwd });
  undo.push(() => claude.cleanup(), () => codex.cleanup(), leftovers(claude.home), leftovers(codex.home));
  return relevo(
    [
      '--headless',
      '--goal',
      GOAL,
      ...args,
      '--planner',
      quote([CLAUDE_BIN]),
      ...(profiles.planner ? ['--planner-profile', profiles.planner] : []),
      '--builder',
      quote([CODEX_BIN, '--no-daemon']),
      ...(profiles.builder ? ['--builder-profile', profiles.builder] : []),
    ],
    cwd,
    { ...claude.env, CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test' },
  );
}

describe('relay on the real CLIs', () => {
  it('Claude → Claude: exact handoffs both ways under round headers, two rounds, <done>', async () => {
    const planner = await anthropic(...plannerScript());
    const builder = await anthropic(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2));
    const home = createClaudeHome({ serverUrl: planner.url });
    undo.push(() => home.cleanup(), leftovers(home.home));
    // The user's own Stop hook, in their own settings: it must keep firing next to relevo's.
    const userHooks = join(home.home, 'user-hooks');
    const userHook = recorderScript(userHooks, 'user-stop', 'stdin');
    mkdirSync(join(home.home, '.claude'), { recursive: true });
    writeFileSync(join(home.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: userHook }] }] } }));
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--lang',
        'en',
        '--planner',
        quote(['env', `ANTHROPIC_BASE_URL=${planner.url}`, CLAUDE_BIN]),
        '--builder',
        quote(['env', `ANTHROPIC_BASE_URL=${builder.url}`, CLAUDE_BIN]),
      ],
      home.cwd,
      home.env,
    );
    const lines = expectTwoRounds(result, planner);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`, `[relevo ronda 2 · de planner]\n${STEP_2}`]);
    expect(planner.systemTexts()[0]).toContain('# relevo: planner');
    expect(builder.systemTexts()[0]).toContain('# relevo: builder');
    expect(of(lines, 'turn_ended').map((t) => t.source)).toEqual(Array(5).fill('hook'));
    expect(lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'claude' }, builder: { profile: 'claude' } });
    expect(onlyRunJournal(join(home.cwd, '.relevo')).lines).toEqual(lines);
    expect(recorded(userHooks, 'user-stop').length).toBe(5); // every turn of both agents
  });

  it('Claude planner → Codex builder: the same exact handoffs, <done>', async () => {
    const planner = await anthropic(...plannerScript());
    const builder = await openai(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2));
    const result = await claudeToCodex(planner, builder, ['--lang', 'en']);
    const lines = expectTwoRounds(result, planner);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`, `[relevo ronda 2 · de planner]\n${STEP_2}`]);
    expect(builder.systemTexts()[0]).toContain('# relevo: builder'); // through -c developer_instructions
    expect(lines[0]).toMatchObject({ type: 'run_started', builder: { profile: 'codex' } });
    expect(of(lines, 'turn_ended').filter((t) => t.role === 'builder').map((t) => t.source)).toEqual(['hook', 'hook']);
  });

  /** 45 lines: markdown the CLIs would re-render (backticks, bold, lists, a blank line) and lines far wider than the pane. */
  const LONG_STEP = [
    '## Step 1: paginate `GET /users`',
    '',
    `**Context:** ${'the handler in `src/users.ts` returns every row at once, which is slow for large tables; '.repeat(3).trim()}`,
    '- add `page` and `limit` query parameters',
    '  - `limit` defaults to **20**, capped at 100',
    '  - `page` starts at 1',
    '1. write the failing tests first',
    '2. then make them pass',
    '```ts',
    "const page = Number(req.query.page ?? '1');",
    '```',
    ...Array.from({ length: 34 }, (_, i) => `- check ${i + 1}: ${'a response with `page` and `limit` and **total** stays within the documented shape; '.repeat(i % 3 === 0 ? 3 : 1).trim()}`),
  ].join('\n');
  const LONG_REPORT = ['Round 1 report', `Did: ${'implemented page and limit with the offset computed from both and a bounded limit; '.repeat(4).trim()}`, '', '- `src/users.ts`', '- `test/users.test.ts`', 'Tests: **14 passed**'].join('\n');

  it.each([80, 200])('a 45-line handoff with markdown and lines wider than a %i-column pane arrives byte-exact (hook source)', async (cols) => {
    expect(LONG_STEP.split('\n').length).toBeGreaterThanOrEqual(45);
    const planner = await anthropic(handoff('Here is the first step.', LONG_STEP), { text: `Done.\n\n<done>\n${SUMMARY}\n</done>` });
    const builder = await anthropic(handoff('Done.', LONG_REPORT));
    const home = createClaudeHome({ serverUrl: planner.url });
    undo.push(() => home.cleanup(), leftovers(home.home));
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--cols',
        String(cols),
        '--deliver',
        'inline',
        '--planner',
        quote(['env', `ANTHROPIC_BASE_URL=${planner.url}`, CLAUDE_BIN]),
        '--builder',
        quote(['env', `ANTHROPIC_BASE_URL=${builder.url}`, CLAUDE_BIN]),
      ],
      home.cwd,
      home.env,
    );
    expect(result.exitCode).toBe(0);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${LONG_STEP}`]);
    expect(planner.userTexts()[1]).toBe(`[relevo ronda 1 · de builder]\n${LONG_REPORT}`);
    expect(of(parseJournal(result.stdout), 'turn_ended').every((t) => t.source === 'hook' && !t.lossy)).toBe(true);
  });

  it('without hooks, the reply comes from the transcripts (Claude projects, Codex rollout), still exact', async () => {
    const planner = await anthropic(...plannerScript());
    const builder = await openai(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2));
    const result = await claudeToCodex(planner, builder, ['--lang', 'en'], {
      planner: profileWithout('claude', ['hook']),
      builder: profileWithout('codex', ['hook']),
    });
    const lines = expectTwoRounds(result, planner);
    expect(lines[0]).not.toHaveProperty('hook_socket');
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`, `[relevo ronda 2 · de planner]\n${STEP_2}`]);
    expect(of(lines, 'turn_ended').map((t) => t.source)).toEqual(Array(5).fill('transcript'));
  });

  it('from the screen alone (no hook, no transcript): a 60-line reply that scrolls past the pane arrives whole', async () => {
    // Lines narrower than the pane (the CLIs hard-wrap wider ones), no blank line inside the block.
    const longStep = ['Step 1: the long checklist', ...Array.from({ length: 60 }, (_, i) => `- item ${i + 1}: check page ${i + 1}`)].join('\n');
    const planner = await anthropic(handoff('Here is the checklist.', longStep), { text: `Done.\n\n<done>\n${SUMMARY}\n</done>` });
    const builder = await openai(handoff('Done.', REPORT_1));
    // Typed in full (not as a file, which a 61-line handoff would otherwise be): the screen is what is tested here.
    const result = await claudeToCodex(planner, builder, ['--rows', '30', '--deliver', 'inline'], {
      planner: profileWithout('claude', ['hook', 'transcript']),
      builder: profileWithout('codex', ['hook', 'transcript']),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${longStep}`]);
    expect(planner.userTexts()[1]).toBe(`[relevo ronda 1 · de builder]\n${REPORT_1}`);
    const turns = of(parseJournal(result.stdout), 'turn_ended');
    expect(turns.map((t) => [t.source, t.lossy])).toEqual(Array(3).fill(['screen', true]));
  });
});
