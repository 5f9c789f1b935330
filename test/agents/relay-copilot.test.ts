/**
 * The relay with the real GitHub Copilot CLI, offline (COPILOT_OFFLINE) against the fake Chat
 * Completions server through its BYOK provider, beside the newest Claude Code and Codex: what each
 * model received, byte for byte, where each reply came from (its session's events.jsonl), a
 * permission prompt seen as blocked, the oldest tested release to `<done>`, and no connection but to
 * 127.0.0.1 (every connect() the CLI makes, traced).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { rolePrompt } from '../../src/protocol/index.js';
import { detect } from '../../src/pty/detect.js';
import { LocalPane } from '../../src/pty/pane.js';
import { simCommand } from '../helpers/cli.js';
import type { FakeChatCompletions } from '../helpers/fake-models/chat-completions.js';
import { until } from '../helpers/until.js';
import { findFiles, jsonLines } from './drive.js';
import { codexCommand, codexEnv, expectBlockedPause, expectExactRelay, relayFixture, turnSources } from './fixture.js';
import { type CopilotHome, copilotVersion, createCopilotHome } from './home-copilot.js';
import { CANARY, CODEX_BIN, copilotBin, createClaudeHome, createCodexHome, RELEASES, type Release } from './homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\n    - `limit` capped at 100\nTests: 14 passed\nDoubts: none';
const plannerScript = [handoff('I will split this in two steps.', STEP_1), handoff('Good. Next step.', STEP_2), done(SUMMARY)];
const builderScript = [handoff('Done.', REPORT_1), handoff('**Done.**', REPORT_2)];
const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };

const fx = relayFixture();

/** A Copilot CLI home in `cwd` on `server`, and its command line as a user gives it to relevo: `env` with its variables, then the binary. */
function copilot(cwd: string, server: FakeChatCompletions, release: Release = 'newest'): { home: CopilotHome; command: string } {
  const home = fx.home(createCopilotHome({ serverUrl: server.url, cwd, bin: copilotBin(release) }));
  return { home, command: quote([...home.envArgs, home.bin]) };
}

// What Copilot CLI wraps around each typed message before the model sees it: the time first, and
// (1.0.62) a reminder of its SQL tables after. The message between them must be exact.
const DATETIME = /^<current_datetime>[^<\n]+<\/current_datetime>\n\n/;
const REMINDER = /\n\n<system_reminder>\n[\s\S]*?\n<\/system_reminder>$/;
/** The server as the exact-relay checks read it: each user text without Copilot's own wrapping (which every one of them must have). */
function unwrapped(server: FakeChatCompletions): FakeChatCompletions {
  const view = Object.create(server) as FakeChatCompletions;
  view.userTexts = () =>
    server.userTexts().map((text) => {
      expect(text).toMatch(DATETIME);
      return text.replace(DATETIME, '').replace(REMINDER, '');
    });
  return view;
}

/** No flag adds to Copilot CLI's system prompt: relevo opens its first message with the role prompt. */
const copilotFirst = (copilotRole: 'planner' | 'builder') => ({
  first: (role: 'planner' | 'builder', text: string) => (role === copilotRole ? `${rolePrompt(role, 'en')}\n\n${text}` : text),
  untestedMayShow: CANARY,
});

/** The `copilotVersion` each session of the home recorded: the release that really ran. */
const sessionVersions = (home: CopilotHome) =>
  findFiles(join(home.copilotDir, 'session-state'), 'events.jsonl').flatMap((f) =>
    jsonLines(f).flatMap((e) => (e.type === 'session.start' ? [(e.data as { copilotVersion?: string }).copilotVersion] : [])),
  );

// A relay starts two real CLIs: a generous limit, not a timing goal.
describe('relay with the real GitHub Copilot CLI', { timeout: 180_000 }, () => {
  it('Claude Code planner → Copilot builder: exact handoffs, two rounds, <done>; Copilot’s replies from its session events', async () => {
    const servers = { planner: await fx.anthropic(...plannerScript), builder: await fx.chat(...builderScript) };
    const cwd = fx.dir();
    const claude = fx.home(createClaudeHome({ serverUrl: servers.planner.url, cwd }));
    const cp = copilot(cwd, servers.builder);
    const run = await fx.headless(cwd, claude.env, { planner: quote([claude.bin]), builder: cp.command }, ['--lang', 'en']);
    expectExactRelay(run, { planner: servers.planner, builder: unwrapped(servers.builder) }, PLAYED, copilotFirst('builder'));
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'claude' }, builder: { profile: 'copilot' } });
    expect(servers.builder.mainRequests()).toHaveLength(2);
    expect(servers.builder.pending).toBe(0);
    expect(turnSources(run.lines, 'builder')).toEqual(['transcript', 'transcript']);
  });

  it('Copilot planner → Codex builder: exact handoffs, two rounds, <done>; the planner’s replies from its session events', async () => {
    const servers = { planner: await fx.chat(...plannerScript), builder: await fx.openai(...builderScript) };
    const cwd = fx.dir();
    const cp = copilot(cwd, servers.planner);
    const codex = fx.home(createCodexHome({ serverUrl: servers.builder.url, cwd, bin: CODEX_BIN }));
    const env = { ...cp.home.env, ...codexEnv(codex) };
    const run = await fx.headless(cwd, env, { planner: cp.command, builder: codexCommand(codex) }, ['--lang', 'en']);
    expectExactRelay(run, { planner: unwrapped(servers.planner), builder: servers.builder }, PLAYED, copilotFirst('planner'));
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'copilot' }, builder: { profile: 'codex' } });
    expect(servers.planner.mainRequests()).toHaveLength(3);
    expect(turnSources(run.lines, 'planner')).toEqual(['transcript', 'transcript', 'transcript']);
  });

  it('a Copilot permission prompt is journaled as blocked, and the run pauses past --blocked-timeout', async () => {
    const builder = await fx.chat({
      text: 'I will run the tests.',
      toolUse: { name: 'bash', input: { command: 'npm test', description: 'run the tests' } },
    });
    const cwd = fx.dir();
    const cp = copilot(cwd, builder);
    const run = await fx.headless(cwd, cp.home.env, { planner: simCommand('planner'), builder: cp.command }, ['--blocked-timeout', '3']);
    expectBlockedPause(run, 'builder', 'permission-prompt');
    expect(builder.mainRequests()).toHaveLength(1); // the command never ran: no tool result went back to the model
  });

  it.runIf(RELEASES.includes('oldest'))('the oldest tested release (1.0.62) relays to <done>, and is the release that ran', async () => {
    const servers = { planner: await fx.anthropic(...plannerScript), builder: await fx.chat(...builderScript) };
    const cwd = fx.dir();
    const claude = fx.home(createClaudeHome({ serverUrl: servers.planner.url, cwd }));
    const cp = copilot(cwd, servers.builder, 'oldest');
    // The newest release unpacks itself into this home's cache first: the old binary, asked without
    // --no-auto-update, then answers for it (and would run it); the profile's flag keeps 1.0.62.
    const cached = (bin: string) => /(\d+\.\d+\.\d+)/.exec(execFileSync(bin, ['--version'], { env: cp.home.env, encoding: 'utf8' }))?.[1];
    const newest = copilotVersion(copilotBin('newest'));
    expect(cached(copilotBin('newest'))).toBe(newest);
    expect(cached(copilotBin('oldest'))).toBe(newest);
    const run = await fx.headless(cwd, claude.env, { planner: quote([claude.bin]), builder: cp.command }, ['--lang', 'en']);
    expectExactRelay(run, { planner: servers.planner, builder: unwrapped(servers.builder) }, PLAYED, copilotFirst('builder'));
    expect(run.lines[0]).toMatchObject({ type: 'run_started', builder: { profile: 'copilot', cli_version: '1.0.62' } });
    expect(sessionVersions(cp.home)).toEqual(['1.0.62']);
  });

  it('no connection leaves 127.0.0.1: every connect() of a Copilot turn, traced, goes to the fake server or a local socket', async () => {
    const server = await fx.chat({ text: 'Hello.' });
    const cwd = fx.dir();
    const cp = copilot(cwd, server);
    const trace = join(fx.dir('relevo-copilot-trace-'), 'connect.log');
    const profile = loadProfile('copilot', 'test');
    const pane = new LocalPane({
      argv: ['strace', '-f', '-qq', '-e', 'trace=connect', '-o', trace, cp.home.bin, ...profile.data.launch.args],
      cwd,
      env: cp.home.env,
      cols: 120,
      rows: 40,
      osc: [],
    });
    fx.undo.add(() => pane.kill(1000));
    const state = () => {
      const { title, viewport } = pane.screen.snapshot();
      return detect(profile.rules, { viewport: [...viewport], title, osc: new Map() }).state;
    };
    await until('the idle prompt', () => state() === 'idle' && pane.quietFor() >= 1500, 90_000);
    pane.paste('say hello', '\r');
    await until('the message in the input box', () => pane.screen.snapshot().viewport.some((l) => l.startsWith('❯ say hello')), 10_000);
    pane.write('\r');
    await until('the reply in the session events', () => sessionTexts(cp.home).includes('Hello.'), 60_000);
    await until('idle again, quiet', () => state() === 'idle' && pane.quietFor() >= 3000, 30_000);
    await pane.kill(1000);
    const connects = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => l.includes('connect('));
    const inet = connects.filter((l) => /sa_family=AF_INET6?\b/.test(l));
    expect(inet.length).toBeGreaterThan(0); // the model calls, at least
    const port = new URL(server.url).port;
    expect(inet.filter((l) => !l.includes(`sin_port=htons(${port})`) || !l.includes('inet_addr("127.0.0.1")'))).toEqual([]);
  });
});

/** The assistant texts of every session of the home. */
const sessionTexts = (home: CopilotHome) =>
  findFiles(join(home.copilotDir, 'session-state'), 'events.jsonl').flatMap((f) =>
    jsonLines(f).flatMap((e) => (e.type === 'assistant.message' ? [(e.data as { content?: string }).content] : [])),
  );
