/**
 * The one fixture of the real-agent relay tests: fake model servers on 127.0.0.1, a project
 * directory, throwaway CLI homes, `relevo-tui --headless` over them, and everything undone when
 * the test ends (nothing the CLIs started may outlive their home).
 */
import { rmSync } from 'node:fs';
import { quote } from 'shell-quote';
import { expect } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { parseJournal, relevo, runArgs } from '../helpers/cli.js';
import { type FakeAnthropic, type ScriptedReply, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeChatCompletions, startFakeChatCompletions } from '../helpers/fake-models/chat-completions.js';
import { type FakeGemini, startFakeGemini } from '../helpers/fake-models/gemini.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { type Undo, undoAfterEach, undoWhenFinished } from '../helpers/undo.js';
import { reapLeftovers } from './drive.js';
import { type AgentHome, type CodexHome, codexNoDaemon, makeTempDir } from './homes.js';
import { GOAL, of } from './script.js';

export type Server = FakeAnthropic | FakeOpenAI | FakeGemini | FakeChatCompletions;
export type Run = { result: Awaited<ReturnType<typeof relevo>>; lines: JournalLine[] };

/** A Claude Code on its own server: `env ANTHROPIC_BASE_URL=<url> claude`. */
export const claudeOn = (server: { url: string }, bin: string): string => quote(['env', `ANTHROPIC_BASE_URL=${server.url}`, bin]);
/** Codex as relevo is given it: its binary, with its daemon kept off. */
export const codexCommand = (codex: CodexHome): string => quote([codex.bin, ...codexNoDaemon(codex.bin)]);
/** What Codex needs on top of another agent's environment. */
export const codexEnv = (codex: CodexHome): Record<string, string> => ({ CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test' });

export class RelayFixture {
  constructor(readonly undo: Undo) {}

  /** A fake model server, closed when the test ends. */
  async serve<T extends { close(): Promise<void> }>(starting: Promise<T>): Promise<T> {
    const server = await starting;
    this.undo.add(() => server.close());
    return server;
  }

  anthropic = (...replies: ScriptedReply[]): Promise<FakeAnthropic> => this.serve(startFakeAnthropic({ replies }));
  openai = (...replies: ScriptedReply[]): Promise<FakeOpenAI> => this.serve(startFakeOpenAI({ replies }));
  gemini = (...replies: ScriptedReply[]): Promise<FakeGemini> => this.serve(startFakeGemini({ replies }));
  chat = (...replies: ScriptedReply[]): Promise<FakeChatCompletions> => this.serve(startFakeChatCompletions({ replies }));

  /** A fresh directory (by default the project both agents work in), removed when the test ends. */
  dir(prefix = 'relevo-relay-cwd-'): string {
    const dir = makeTempDir(prefix);
    this.undo.add(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** A CLI's home: removed when the test ends, and the test fails if anything its CLI started (a daemon, a hook, a tool) outlived it. */
  home<H extends Pick<AgentHome, 'home' | 'cleanup'>>(home: H): H {
    this.undo.add(
      () => home.cleanup(),
      async () => expect(await reapLeftovers(home.home)).toEqual([]),
    );
    return home;
  }

  /** `relevo-tui --headless --goal <goal> --planner <planner> --builder <builder> <args>` in `cwd`, and its journal. */
  async headless(
    cwd: string,
    env: Record<string, string>,
    agents: { planner: string; builder: string },
    args: readonly string[] = [],
    goal = GOAL,
  ): Promise<Run> {
    const result = await relevo(['--headless', ...runArgs(goal, agents, ...args)], cwd, env);
    return { result, lines: parseJournal(result.stdout) };
  }
}

/** The fixture of a file whose tests run one at a time: undone after each test. */
export const relayFixture = (): RelayFixture => new RelayFixture(undoAfterEach());
/** A fixture of its own for one test of several that run at once (`it.concurrent`). */
export const relayFixtureFor = (onTestFinished: (fn: () => Promise<void>) => void): RelayFixture =>
  new RelayFixture(undoWhenFinished(onTestFinished));

/** The deliveries of a two-round relay, each journaled once: goal, then both handoffs of each round. */
export const TWO_ROUNDS = [
  ['relevo', 'planner', 0],
  ['planner', 'builder', 1],
  ['builder', 'planner', 1],
  ['planner', 'builder', 2],
  ['builder', 'planner', 2],
];

/** What one relay plays: the planner's first message (`Goal: …`), the planner's steps, the builder's reports. */
export type Played = { readonly goalLine: string; readonly steps: readonly string[]; readonly reports: readonly string[] };
type Role = 'planner' | 'builder';

/**
 * Each model received exactly its messages, byte for byte and once each: the planner the goal line,
 * then each report under its round header; the builder each step under its round header. `first`
 * wraps a role's first message (Gemini CLI's role prompt).
 */
export function expectExactTexts(servers: { planner: Server; builder: Server }, played: Played, first = (_: Role, text: string) => text) {
  const headed = (from: Role, bodies: readonly string[]) => bodies.map((body, i) => `[relevo ronda ${i + 1} · de ${from}]\n${body}`);
  const [firstStep, ...steps] = headed('planner', played.steps);
  expect(servers.planner.userTexts()).toEqual([first('planner', played.goalLine), ...headed('builder', played.reports)]);
  expect(servers.builder.userTexts()).toEqual([...(firstStep === undefined ? [] : [first('builder', firstStep)]), ...steps]);
}

/**
 * What every two-round relay must show: `<done>` with its summary, each model's messages exact
 * (`expectExactTexts`), each delivery journaled once, and no CLI journaled as untested (the canary
 * runs CLIs newer than any tested range: `untestedMayShow`).
 */
export function expectExactRelay(
  run: Run,
  servers: { planner: Server; builder: Server },
  played: Played & { readonly summary: string },
  options: { first?: (role: Role, text: string) => string; untestedMayShow?: boolean } = {},
): void {
  expect(run.result.stderr).toBe('');
  expect(run.result.exitCode).toBe(0);
  expectExactTexts(servers, played, options.first);
  expect(run.lines.at(-1)).toMatchObject({ type: 'done', summary: played.summary, rounds: 2 });
  expect(of(run.lines, 'delivered').map((d) => [d.from, d.to, d.round])).toEqual(TWO_ROUNDS);
  if (!options.untestedMayShow) expect(of(run.lines, 'agent_untested')).toEqual([]);
}

/** The sources the turns of `role` were read from, in order. */
export const turnSources = (lines: JournalLine[], role: 'planner' | 'builder'): string[] =>
  of(lines, 'turn_ended')
    .filter((t) => t.role === role)
    .map((t) => t.source);

/** The run paused because `role` sat at a permission prompt past --blocked-timeout, before its turn ended. */
export function expectBlockedPause(run: Run, role: 'planner' | 'builder', detail: unknown = 'permission-prompt'): void {
  expect(run.result.exitCode).toBe(3);
  expect(of(run.lines, 'blocked')).toMatchObject([{ role, detail }]);
  expect(run.lines.at(-1)).toMatchObject({ type: 'paused', reason: 'agent_blocked', role });
  expect(turnSources(run.lines, role)).toEqual([]);
}
