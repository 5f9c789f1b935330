/**
 * Enter is never lost, nor pressed twice, on a loaded machine: a Claude Code planner (newest) and a
 * Claude Code or a Codex builder relay three rounds while two processes keep both cores busy. Each
 * model receives each message exactly once, byte for byte: the goal and the round-headed handoffs,
 * nothing missing, nothing twice. (The profiles press Enter as soon as the paste shows: Claude Code
 * and Codex with no settle delay.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { quote } from 'shell-quote';
import { afterEach, expect, it } from 'vitest';
import { formatHeader } from '../../src/protocol/index.js';
import { parseJournal, relevo } from '../helpers/cli.js';
import { startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { reapLeftovers } from './drive.js';
import { codexNoDaemon, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

let undo: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of undo.reverse()) await step();
  undo = [];
});

/** A process that spins one core until it is killed. */
function spinner(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  undo.push(() => child.kill('SIGKILL'));
  return child;
}

const STEPS = [STEP_1, STEP_2, 'Step 3: document `page` and `limit` in README.md\n  - one example\nVerify: npm run lint'];
const REPORTS = [REPORT_1, 'Round 2 report\nDid: page and limit\nTests: 14 passed', 'Round 3 report\nDid: README.md\nDoubts: none'];

it.each(['claude', 'codex'] as const)(
  'both cores busy: every handoff of three rounds is submitted exactly once, byte-exact (builder: %s)',
  { timeout: 240_000 },
  async (cli) => {
    const planner = await startFakeAnthropic({
      replies: [...STEPS.map((s, i) => handoff(`Step ${i + 1}.`, s)), done(SUMMARY)],
    });
    const replies = REPORTS.map((r) => handoff('Done.', r));
    const builder = cli === 'claude' ? await startFakeAnthropic({ replies }) : await startFakeOpenAI({ replies });
    undo.push(
      () => planner.close(),
      () => builder.close(),
    );
    const home = createClaudeHome({ serverUrl: planner.url });
    undo.push(
      () => home.cleanup(),
      async () => expect(await reapLeftovers(home.home)).toEqual([]),
    );
    let env = home.env;
    let builderCommand = quote(['env', `ANTHROPIC_BASE_URL=${builder.url}`, home.bin]);
    if (cli === 'codex') {
      const codex = createCodexHome({ serverUrl: builder.url, cwd: home.cwd });
      undo.push(
        () => codex.cleanup(),
        async () => expect(await reapLeftovers(codex.home)).toEqual([]),
      );
      env = { ...env, CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test' };
      builderCommand = quote([codex.bin, ...codexNoDaemon(codex.bin)]);
    }
    for (let i = 0; i < Math.max(2, cpus().length); i++) spinner();
    const result = await relevo(
      [
        '--headless',
        '--goal',
        GOAL,
        '--lang',
        'en',
        '--deliver',
        'inline',
        '--max-rounds',
        '5',
        '--planner',
        quote(['env', `ANTHROPIC_BASE_URL=${planner.url}`, home.bin]),
        '--builder',
        builderCommand,
      ],
      home.cwd,
      env,
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(planner.userTexts()).toEqual([`Goal: ${GOAL}`, ...REPORTS.map((r, i) => `${formatHeader(i + 1, 'builder')}\n${r}`)]);
    expect(builder.userTexts()).toEqual(STEPS.map((s, i) => `${formatHeader(i + 1, 'planner')}\n${s}`));
    const lines = parseJournal(result.stdout);
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    expect(of(lines, 'delivered')).toHaveLength(7);
  },
);
