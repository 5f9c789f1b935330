/**
 * The relay with the real Qwen Code CLI, offline against the fake Anthropic server (its
 * `anthropic` auth type), beside the newest Claude Code and Codex: what each model received, byte
 * for byte, where each reply came from, and a Qwen Code permission prompt seen as blocked.
 */
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { readTranscriptReply } from '../../src/app/replies/transcript.js';
import { qwenChatsDir } from '../../src/app/replies/transcript-qwen.js';
import { simCommand } from '../helpers/cli.js';
import type { FakeAnthropic } from '../helpers/fake-models/anthropic.js';
import type { FakeOpenAI } from '../helpers/fake-models/openai.js';
import { recorded, recorderScript } from './drive.js';
import { codexCommand, codexEnv, expectBlockedPause, expectExactRelay, relayFixture, turnSources } from './fixture.js';
import { createQwenHome, type QwenHome } from './home-qwen.js';
import { CANARY, CODEX_BIN, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_2 as SCRIPT_STEP_2, STEP_1, SUMMARY } from './script.js';

// script.ts's step 2 with a second code line and a quote: more than 10 lines (Qwen Code shows such a
// paste as "[Pasted Content N chars]" and expands it on submit).
const STEP_2 = SCRIPT_STEP_2.replace(
  '```\nVerify',
  "const limit = Math.min(Number(req.query.limit ?? '20'), 100);\n```\n> keep the old response shape\nVerify",
);
const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\n    - `limit` capped at 100\nTests: 14 passed\nDoubts: none';

const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)];

const fx = relayFixture();

/** A Qwen Code home in `cwd` on `server`, with a Stop hook of the user's own that records what it gets. */
function qwenHome(cwd: string, server: FakeAnthropic): { home: QwenHome; command: string; userHook: () => unknown[] } {
  const hooks = fx.dir('relevo-qwen-user-hook-');
  const home = fx.home(
    createQwenHome({
      serverUrl: server.url,
      cwd,
      settings: { hooks: { Stop: [{ hooks: [{ type: 'command', command: recorderScript(hooks, 'user-stop', 'stdin') }] }] } },
    }),
  );
  return { home, command: quote([...home.envArgs, home.bin]), userHook: () => recorded(hooks, 'user-stop') };
}

/** The model requests a CLI made, by kind: every one of them must be a turn the test scripted. */
const requestKinds = (server: FakeAnthropic | FakeOpenAI) => server.requests.filter((r) => r.path.endsWith('/messages')).map((r) => r.kind);

const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };

// A relay starts two real CLIs (Qwen Code alone takes 5–15 s to start on a busy machine): a generous limit, not a timing goal.
describe('relay with the real Qwen Code', { timeout: 120_000 }, () => {
  it('Claude Code planner → Qwen Code builder: exact handoffs, two rounds, <done>; replies from the hook; the user’s Stop hook still runs', async () => {
    const servers = { planner: await fx.anthropic(...plannerScript), builder: await fx.anthropic(...builderScript) };
    const cwd = fx.dir();
    const claude = fx.home(createClaudeHome({ serverUrl: servers.planner.url, cwd }));
    const qwen = qwenHome(cwd, servers.builder);
    const run = await fx.headless(cwd, claude.env, { planner: quote([claude.bin]), builder: qwen.command }, ['--lang', 'en']);
    expectExactRelay(run, servers, PLAYED, { untestedMayShow: CANARY });
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'claude' }, builder: { profile: 'qwen' } });
    expect(servers.builder.systemTexts()[0]).toContain('# relevo: builder'); // through --append-system-prompt
    expect(requestKinds(servers.builder)).toEqual(['main', 'main']);
    expect(turnSources(run.lines, 'builder')).toEqual(['hook', 'hook']);
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
    const servers = { planner: await fx.anthropic(...plannerScript), builder: await fx.openai(...builderScript) };
    const cwd = fx.dir();
    const qwen = qwenHome(cwd, servers.planner);
    const codex = fx.home(createCodexHome({ serverUrl: servers.builder.url, cwd, bin: CODEX_BIN }));
    const env = { ...qwen.home.env, ...codexEnv(codex) };
    const run = await fx.headless(cwd, env, { planner: qwen.command, builder: codexCommand(codex) }, ['--lang', 'en']);
    expectExactRelay(run, servers, PLAYED, { untestedMayShow: CANARY });
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'qwen' }, builder: { profile: 'codex' } });
    expect(servers.planner.systemTexts()[0]).toContain('# relevo: planner');
    expect(requestKinds(servers.planner)).toEqual(['main', 'main', 'main']);
    expect(turnSources(run.lines, 'planner')).toEqual(['hook', 'hook', 'hook']);
  });

  it('a Qwen Code permission prompt is journaled as blocked, and the run pauses past --blocked-timeout', async () => {
    const builder = await fx.anthropic({
      text: 'I will run the tests.',
      toolUse: { name: 'run_shell_command', input: { command: 'npm test', description: 'run the tests' } },
    });
    const cwd = fx.dir();
    const qwen = qwenHome(cwd, builder);
    const run = await fx.headless(cwd, qwen.home.env, { planner: simCommand('planner'), builder: qwen.command }, [
      '--blocked-timeout',
      '3',
    ]);
    // The title turns to ✳︎ in the frame the prompt is drawn in, or just before: either rule may see it first.
    expectBlockedPause(run, 'builder', expect.stringMatching(/^(?:permission-prompt|confirm-title)$/));
    expect(builder.toolResults().flat()).toEqual([]); // the command never ran
  });
});
