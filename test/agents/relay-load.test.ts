/**
 * Enter is never lost, nor pressed twice, on a loaded machine: a Claude Code planner (newest) and a
 * Claude Code or a Codex builder relay three rounds while two processes keep both cores busy. Each
 * model receives each message exactly once, byte for byte: the goal and the round-headed handoffs,
 * nothing missing, nothing twice. (The profiles press Enter as soon as the paste shows: Claude Code
 * and Codex with no settle delay.)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { expect, it } from 'vitest';
import { claudeOn, codexCommand, codexEnv, expectExactTexts, relayFixture } from './fixture.js';
import { createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const fx = relayFixture();

/** A process that spins one core until it is killed. */
function spinner(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  fx.undo.add(() => child.kill('SIGKILL'));
  return child;
}

const STEPS = [STEP_1, STEP_2, 'Step 3: document `page` and `limit` in README.md\n  - one example\nVerify: npm run lint'];
const REPORTS = [REPORT_1, 'Round 2 report\nDid: page and limit\nTests: 14 passed', 'Round 3 report\nDid: README.md\nDoubts: none'];

it.each(['claude', 'codex'] as const)(
  'both cores busy: every handoff of three rounds is submitted exactly once, byte-exact (builder: %s)',
  { timeout: 240_000 },
  async (cli) => {
    const planner = await fx.anthropic(...STEPS.map((s, i) => handoff(`Step ${i + 1}.`, s)), done(SUMMARY));
    const replies = REPORTS.map((r) => handoff('Done.', r));
    const builder = cli === 'claude' ? await fx.anthropic(...replies) : await fx.openai(...replies);
    const home = fx.home(createClaudeHome({ serverUrl: planner.url }));
    let env = home.env;
    let builderCommand = claudeOn(builder, home.bin);
    if (cli === 'codex') {
      const codex = fx.home(createCodexHome({ serverUrl: builder.url, cwd: home.cwd }));
      env = { ...env, ...codexEnv(codex) };
      builderCommand = codexCommand(codex);
    }
    for (let i = 0; i < Math.max(2, cpus().length); i++) spinner();
    const agents = { planner: claudeOn(planner, home.bin), builder: builderCommand };
    const { result, lines } = await fx.headless(home.cwd, env, agents, ['--lang', 'en', '--deliver', 'inline', '--max-rounds', '5']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expectExactTexts({ planner, builder }, { goalLine: `Goal: ${GOAL}`, steps: STEPS, reports: REPORTS });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    expect(of(lines, 'delivered')).toHaveLength(7);
  },
);
