/**
 * The real agent CLIs (the oldest and newest releases in devDependencies) in a PTY, offline,
 * against the fake model servers: what relevo relies on, checked end to end on each release.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { type FakeAnthropic, type ScriptedReply, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { Program as AgentTerminal } from '../helpers/pty/program.js';
import { eventually, sleep } from '../helpers/until.js';
import {
  answerPermission,
  claudeIdle,
  claudeTitleWentBusyThenIdle,
  codexHasTurnStates,
  codexIdle,
  findFiles,
  jsonLines,
  linesInOrder,
  reapLeftovers,
  recorded,
  recorderScript,
  submit,
} from './drive.js';
import { relayFixture } from './fixture.js';
import {
  type ClaudeHome,
  type CodexHome,
  claudeBin,
  codexBin,
  createClaudeHome,
  createCodexHome,
  RELEASES,
  type Release,
} from './homes.js';

const RELAY = '[relevo ronda 1 · de planner]\nhello · world';
const REPLY = 'Plan ready.\n\n<handoff>\nto: builder\nAdd pagination · keep tests green\n</handoff>';
const LAUNCH_MS = 20_000;
const TURN_MS = 10_000;

/** Closes the server; fails the test if the CLI asked for something the fake does not know (a new side request?). */
async function closeChecked(server: FakeAnthropic | FakeOpenAI): Promise<void> {
  await server.close();
  const unknown = server.requests.filter((r) => r.status === 404).map((r) => `${r.method} ${r.url}`);
  if (unknown.length > 0) throw new Error(`unexpected requests: ${unknown.join(', ')}`);
}

/** "The turn started": the fake server got one more main-turn request than now. */
function newTurn(server: FakeAnthropic | FakeOpenAI): () => boolean {
  const before = server.mainRequests().length;
  return () => server.mainRequests().length > before;
}

/** Everything a test started, undone in reverse order even when the test failed. */
const fx = relayFixture();

/** The environment relevo launches Claude Code with (the profile's `launch.env`). */
const CLAUDE_LAUNCH_ENV: Record<string, string> = loadProfile('claude', 'test').data.launch.env;

/**
 * The CLI of `home` in a terminal, talking to `server`, once it shows its idle prompt. Undone: the CLI
 * killed, nothing it started left behind, its home removed, the server closed (and checked).
 */
async function launch<S extends FakeAnthropic | FakeOpenAI, H extends ClaudeHome | CodexHome>(
  server: S,
  home: H,
  cli: { name: string; args: string[]; env: Record<string, string>; idle: (t: AgentTerminal) => boolean; idleScreen: string },
) {
  fx.undo.add(
    () => closeChecked(server),
    () => home.cleanup(),
  );
  const term = new AgentTerminal({ file: home.bin, args: cli.args, cwd: home.cwd, env: cli.env });
  fx.undo.add(async () => {
    await term.kill();
    const left = await reapLeftovers(home.home);
    if (left.length > 0) throw new Error(`processes outlived ${cli.name}: ${left.join(', ')}`);
  });
  await term.waitFor(cli.idleScreen, () => cli.idle(term), LAUNCH_MS);
  return { server, home, term };
}

/** Claude Code settings (for `--settings`) whose Stop hook records each payload in `hooks`. */
function stopHookSettings(): { hooks: string; settings: string } {
  const hooks = fx.dir('relevo-claude-hooks-');
  const stop = recorderScript(hooks, 'stop', 'stdin');
  const settings = join(hooks, 'settings.json');
  writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: stop }] }] } }));
  return { hooks, settings };
}

async function claude(release: Release, options: { replies: ScriptedReply[]; args?: string[]; env?: Record<string, string> }) {
  const server = await startFakeAnthropic({ replies: options.replies });
  const home = createClaudeHome({ serverUrl: server.url, bin: claudeBin(release) });
  const env = { ...home.env, ...CLAUDE_LAUNCH_ENV, ...options.env };
  return launch(server, home, {
    name: 'Claude Code',
    args: options.args ?? [],
    env,
    idle: claudeIdle,
    idleScreen: 'Claude Code idle prompt',
  });
}

async function codex(release: Release, options: { replies: ScriptedReply[]; extra?: string[] }) {
  const server = await startFakeOpenAI({ replies: options.replies });
  const home = createCodexHome({ serverUrl: server.url, bin: codexBin(release) });
  const args = home.args({ altScreen: false, extra: options.extra ?? [] });
  return launch(server, home, { name: 'Codex (a daemon?)', args, env: home.env, idle: codexIdle, idleScreen: 'Codex composer' });
}

describe.each(RELEASES)('Claude Code (real CLI, %s release) against the fake Anthropic API', { timeout: 40_000 }, (release) => {
  it('receives a pasted relay exactly, shows the reply, spins then shows ✳, and its Stop hook gets the reply', async () => {
    const { hooks, settings } = stopHookSettings();
    const { server, home, term } = await claude(release, { replies: [{ text: REPLY, holdMs: 300 }], args: ['--settings', settings] });

    const { titleIndex } = await submit(term, RELAY, { agent: 'claude', started: newTurn(server) });
    await term.waitFor(
      'the reply and the ✳ title',
      () => linesInOrder(term.lines(), REPLY) && claudeTitleWentBusyThenIdle(term, titleIndex),
      TURN_MS,
    );

    expect(server.userTexts()).toEqual([RELAY]);
    expect(term.screen()).toContain('● Plan ready.');
    expect(term.title).toMatch(/^✳ /); // "✳ Fake title" once the title side request was answered

    // The Stop hook: fired offline, once, with the reply verbatim.
    const [payload] = await eventually('the Stop hook', () => {
      const got = recorded(hooks, 'stop');
      return got.length > 0 ? got : undefined;
    });
    expect(payload).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false, cwd: home.cwd, last_assistant_message: REPLY });

    // The transcript: ~/.claude/projects/<slug>/<session>.jsonl, the reply as an assistant record.
    // (Written asynchronously: it may lag the screen and the hook a little.)
    const record = await eventually('the assistant record in the transcript', () =>
      findFiles(home.transcriptsDir, '.jsonl')
        .flatMap(jsonLines)
        .findLast((r) => r.type === 'assistant'),
    );
    expect(record).toMatchObject({ message: { role: 'assistant', content: [{ type: 'text', text: REPLY }] } });
    expect(recorded(hooks, 'stop')).toHaveLength(1);
  });

  it('--append-system-prompt lands at the end of the system prompt', async () => {
    const role = '# relevo: planner\nYou are the planner. End every reply with a <handoff> block.';
    const { server, term } = await claude(release, { replies: [{ text: 'ok' }], args: ['--append-system-prompt', role] });
    await submit(term, 'hi', { agent: 'claude', started: newTurn(server) });
    const [system] = server.systemTexts();
    expect(system).toContain(role);
    expect(system!.trimEnd().endsWith(role)).toBe(true);
    expect(server.userTexts()).toEqual(['hi']);
  });

  it('a Bash tool_use asks for permission; approving it sends the tool result back', async () => {
    const { server, home, term } = await claude(release, {
      replies: [
        { text: 'Running the tests.', toolUse: { name: 'Bash', input: { command: 'npm test' } } },
        { text: 'Tests pass.\n\n<handoff>\ndone\n</handoff>' },
      ],
      env: { NPM_CONFIG_UPDATE_NOTIFIER: 'false' },
      // Asked for each action, on every release (in auto mode, 2.1.3xx's default, what happens without
      // the server-side safety check this fake lacks differs by release).
      args: ['--permission-mode', 'default'],
    });
    writeFileSync(
      join(home.cwd, 'package.json'),
      JSON.stringify({ name: 'fake', version: '1.0.0', scripts: { test: 'echo fake tests passed' } }),
    );

    await submit(term, 'run the tests', { agent: 'claude', started: newTurn(server) });
    await term.waitForText('Do you want to proceed?', TURN_MS);
    expect(term.screen()).toMatch(/^ ❯ 1\. Yes$/m);
    // Beware: while it waits for permission the title shows the idle ✳ (and no Stop hook fires).
    await term.waitFor('the ✳ title during the permission prompt', () => term.title.startsWith('✳'), 3000);
    expect(
      term
        .lines()
        .filter((l) => l.trim() !== '')
        .slice(-2)
        .join('\n'),
    ).toMatch(/Esc to cancel/);
    expect(server.mainRequests()).toHaveLength(1);

    await answerPermission(
      (keys) => term.write(keys),
      () => term.screen(),
    );
    await server.waitForMainRequests(2, TURN_MS);
    await term.waitFor(
      'the final reply',
      () => linesInOrder(term.lines(), 'Tests pass.\n<handoff>\ndone\n</handoff>') && claudeIdle(term),
      TURN_MS,
    );
    const [, results] = server.toolResults();
    expect(results).toEqual([
      expect.objectContaining({
        tool_use_id: expect.stringMatching(/^toolu_fake_/),
        is_error: false,
        content: expect.stringContaining('fake tests passed'),
      }),
    ]);
    expect(server.userTexts()).toEqual(['run the tests', '']);
  });

  it('Esc interrupts a streaming reply: no Stop hook, the request is abandoned', async () => {
    const { hooks, settings } = stopHookSettings();
    const { server, term } = await claude(release, {
      replies: [{ text: 'slow words '.repeat(100), chunkSize: 4, delayMs: 25 }],
      args: ['--settings', settings],
    });

    await submit(term, 'go', { agent: 'claude', started: newTurn(server) });
    await term.waitForText('● slow words', TURN_MS);
    term.write('\x1b');
    await term.waitForText('Interrupted · What should Claude do instead?', TURN_MS);
    await term.waitFor('idle after the interrupt', () => claudeIdle(term), TURN_MS);
    await sleep(1000); // a Stop hook would have fired by now
    expect(recorded(hooks, 'stop')).toEqual([]);
    expect(server.mainRequests()[0]?.aborted).toBe(true);
  });
});

describe.each(RELEASES)('Codex (real CLI, %s release) against the fake Responses API', { timeout: 40_000 }, (release) => {
  it('receives a pasted relay exactly, shows the reply, marks the turn (OSC 7501 from 0.165, else the title spinner), and notify gets the reply', async () => {
    const dir = fx.dir('relevo-codex-notify-');
    const notify = recorderScript(dir, 'notify', 'argv1');
    const { server, home, term } = await codex(release, {
      replies: [{ text: REPLY, holdMs: 300 }],
      extra: ['-c', `notify=[${JSON.stringify(notify)}]`],
    });

    const { oscIndex, titleIndex } = await submit(term, RELAY, { agent: 'codex', started: newTurn(server) });
    const oscStates = codexHasTurnStates(home.bin);
    await term.waitFor(
      'the reply and the end of the turn',
      () =>
        linesInOrder(term.lines(), REPLY) &&
        (oscStates ? term.osc7501.slice(oscIndex).some((o) => o.data.startsWith('state=done')) : codexIdle(term)),
      TURN_MS,
    );

    expect(server.userTexts()).toEqual([RELAY]);
    expect(term.screen()).toContain('• Plan ready.');
    if (oscStates)
      expect(term.osc7501.slice(oscIndex).map((o) => o.data)).toEqual(
        expect.arrayContaining(['state=working:app=codex', 'state=done:app=codex']),
      );
    else expect(term.osc7501).toEqual([]);
    // The braille title spinner while it works, gone once it is done (what relevo reads without OSC 7501).
    const titles = term.titles.slice(titleIndex).map((t) => t.title);
    expect(titles.some((t) => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(t))).toBe(true);
    expect(term.title).not.toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);

    // notify: one call for the turn (and another for the title side request, on its own thread).
    const turn = await eventually('the notify call for the turn', () =>
      (recorded(dir, 'notify') as Record<string, unknown>[]).find((n) => JSON.stringify(n['input-messages']) === JSON.stringify([RELAY])),
    );
    expect(turn).toMatchObject({ type: 'agent-turn-complete', cwd: home.cwd, client: 'codex-tui', 'last-assistant-message': REPLY });

    // The rollout: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl, task_complete with the reply.
    const [rollout] = findFiles(home.sessionsDir, '.jsonl');
    expect(rollout).toBeDefined();
    expect(rollout!).toContain(String(turn['thread-id']));
    const complete = await eventually('task_complete in the rollout', () =>
      jsonLines(rollout!).find((r) => (r.payload as { type?: string } | undefined)?.type === 'task_complete'),
    );
    expect(complete).toMatchObject({ type: 'event_msg', payload: { type: 'task_complete', last_agent_message: REPLY } });
  });

  it('-c developer_instructions adds the role prompt as a developer item, keeping the built-in prompt', async () => {
    const role = '# relevo: builder\nYou are the builder. End every reply with a <handoff> block.';
    const { server, term } = await codex(release, {
      replies: [{ text: 'ok' }],
      extra: ['-c', `developer_instructions=${JSON.stringify(role)}`],
    });
    await submit(term, 'hi', { agent: 'codex', started: newTurn(server) });
    const [request] = server.mainRequests();
    const developer = (request!.body as { input: { type: string; role?: string; content?: { text?: string }[] }[] }).input.filter(
      (i) => i.role === 'developer',
    );
    expect(developer.flatMap((d) => d.content ?? []).map((c) => c.text)).toContain(role);
    expect(server.systemTexts()[0]).toContain('You are a coding agent running in the Codex CLI');
    expect(server.userTexts()).toEqual(['hi']);
  });

  it('Esc interrupts a streaming reply: no notify, no OSC 7501 done', async () => {
    const dir = fx.dir('relevo-codex-notify-');
    const notify = recorderScript(dir, 'notify', 'argv1');
    // Held before the first word: Esc goes in while "Working (… esc to interrupt)" shows (0.140 takes
    // an Esc during the stream itself as "esc again to edit previous message").
    const { server, term } = await codex(release, {
      replies: [{ text: 'slow words '.repeat(100), chunkSize: 4, delayMs: 25, holdMs: 3000 }],
      extra: ['-c', `notify=[${JSON.stringify(notify)}]`],
    });

    const { oscIndex } = await submit(term, 'go', { agent: 'codex', started: newTurn(server) });
    await term.waitForText(/Working \(.*esc to interrupt\)/, TURN_MS);
    term.write('\x1b');
    await term.waitForText('■ Conversation interrupted', TURN_MS);
    await term.waitFor('idle after the interrupt', () => codexIdle(term), TURN_MS);
    await sleep(1000); // notify would have run by now
    expect(term.osc7501.slice(oscIndex).map((o) => o.data)).not.toContain('state=done:app=codex');
    expect((recorded(dir, 'notify') as Record<string, unknown>[]).filter((n) => JSON.stringify(n['input-messages']) === '["go"]')).toEqual(
      [],
    );
    expect(server.mainRequests()[0]?.aborted).toBe(true);
  });
});
