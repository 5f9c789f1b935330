/**
 * The relay on the real agent CLIs, offline against the fake model servers, on the oldest and the
 * newest release of each CLI relevo is tested with (package.json devDependencies): what each
 * agent's model received, byte for byte, and how each run ends.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { onlyRunJournal } from '../helpers/cli.js';
import type { FakeAnthropic } from '../helpers/fake-models/anthropic.js';
import type { FakeOpenAI } from '../helpers/fake-models/openai.js';
import { editedProfile, withoutSections } from '../helpers/profiles.js';
import { recorded, recorderScript } from './drive.js';
import { claudeOn, codexCommand, codexEnv, expectExactRelay as expectRelay, type Run, relayFixture } from './fixture.js';
import { CANARY, claudeBin, cliVersion, codexBin, createClaudeHome, createCodexHome, RELEASES, type Release } from './homes.js';
import { done, GOAL, handoff, of, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = 'Round 2 report\nDid: src/users.ts handles page and limit\n  - `limit` capped at 100\nTests: 14 passed\nDoubts: none';

// The same relay in Spanish: the goal, the steps and the reports.
const OBJETIVO = 'Añadir paginación a /users con tests';
const PASO_1 = 'Paso 1: escribir los tests que fallan para GET /users?page=2\n  - cubrir la página vacía\nVerificar: npm test';
const PASO_2 = [
  '## Paso 2: implementar `page` y `limit`',
  '',
  `**Contexto:** ${'el manejador de `src/users.ts` devuelve todas las filas de una vez, lento en tablas grandes; '.repeat(3).trim()}`,
  '- `limit` vale **20** por defecto, máximo 100',
  '    - cuatro espacios: la API pública no cambia',
  'Verificar: npm test',
].join('\n');
const INFORME_1 = 'Informe de la ronda 1\nHecho: añadí test/users.test.ts\nTests: 2 fallan (esperado)\nDudas: ninguna';
const INFORME_2 =
  'Informe de la ronda 2\nHecho: src/users.ts acepta page y limit\n  - `limit` con tope 100\nTests: 14 pasan\nDudas: ninguna';
const RESUMEN = 'Paginación lista en 2 rondas.';

const fx = relayFixture();

type Agent = 'claude' | 'codex';
type Server = FakeAnthropic | FakeOpenAI;
type Script = { goal: string; steps: [string, string]; reports: [string, string]; summary: string; lang: 'en' | 'es' };
const ENGLISH: Script = { goal: GOAL, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY, lang: 'en' };
const SPANISH: Script = { goal: OBJETIVO, steps: [PASO_1, PASO_2], reports: [INFORME_1, INFORME_2], summary: RESUMEN, lang: 'es' };

/**
 * Runs `relevo-tui --headless` with real agents sharing one project: Claude Code through `env
 * ANTHROPIC_BASE_URL=…` (each its own fake server), Codex through its CODEX_HOME's provider.
 */
async function relay(
  pair: { planner: Agent; builder: Agent },
  release: Release,
  script: Script,
  servers: { planner: Server; builder: Server },
  args: readonly string[] = [],
) {
  const cwd = fx.dir();
  // One HOME for both agents (a Claude home when there is a Claude Code); Codex gets its CODEX_HOME.
  const claudeServer = pair.planner === 'claude' ? servers.planner : servers.builder;
  const claude = fx.home(createClaudeHome({ serverUrl: claudeServer.url, cwd, bin: claudeBin(release) }));
  let env: Record<string, string> = claude.env;
  const command = (agent: Agent, server: Server): string => {
    if (agent === 'claude') return claudeOn(server, claude.bin);
    const codex = fx.home(createCodexHome({ serverUrl: server.url, cwd, bin: codexBin(release) }));
    env = { ...env, ...codexEnv(codex) };
    return codexCommand(codex);
  };
  const agents = { planner: command(pair.planner, servers.planner), builder: command(pair.builder, servers.builder) };
  return { ...(await fx.headless(cwd, env, agents, ['--lang', script.lang, ...args], script.goal)), cwd };
}

/**
 * What every relay must show (`expectExactRelay`), and the first line each model reads is the goal
 * or the round header, typed, not inside any wrapper.
 */
function expectExactRelay(run: Run, servers: { planner: Server; builder: Server }, script: Script) {
  const goalLine = script.lang === 'es' ? `Objetivo: ${script.goal}` : `Goal: ${script.goal}`;
  expectRelay(run, servers, { ...script, goalLine }, { untestedMayShow: CANARY });
  expect([...servers.planner.userTexts(), ...servers.builder.userTexts()].map((t) => t.split('\n')[0])).toEqual([
    goalLine,
    '[relevo ronda 1 · de builder]',
    '[relevo ronda 2 · de builder]',
    '[relevo ronda 1 · de planner]',
    '[relevo ronda 2 · de planner]',
  ]);
}

const plannerScript = (s: Script) => [
  handoff('I will split this in two steps.', s.steps[0]),
  handoff('Good. Next step.', s.steps[1]),
  done(s.summary),
];
const builderScript = (s: Script) => [handoff('Done.', s.reports[0]), handoff('Done.', s.reports[1])];

describe.each(RELEASES)('relay on the real CLIs, %s releases', (release) => {
  it('Claude → Claude (English): exact handoffs both ways under round headers, two rounds, <done>; the user’s own Stop hook still fires', async () => {
    const servers = { planner: await fx.anthropic(...plannerScript(ENGLISH)), builder: await fx.anthropic(...builderScript(ENGLISH)) };
    const run = await relay({ planner: 'claude', builder: 'claude' }, release, ENGLISH, servers);
    expectExactRelay(run, servers, ENGLISH);
    expect(servers.planner.systemTexts()[0]).toContain('# relevo: planner');
    expect(servers.builder.systemTexts()[0]).toContain('# relevo: builder');
    expect(of(run.lines, 'turn_ended').map((t) => t.source)).toEqual(Array(5).fill('hook'));
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'claude' }, builder: { profile: 'claude' } });
    expect(onlyRunJournal(join(run.cwd, '.relevo')).lines).toEqual(run.lines);
  });

  it('Claude planner → Codex builder (Spanish): the same exact handoffs, <done>', async () => {
    const servers = { planner: await fx.anthropic(...plannerScript(SPANISH)), builder: await fx.openai(...builderScript(SPANISH)) };
    const run = await relay({ planner: 'claude', builder: 'codex' }, release, SPANISH, servers);
    expectExactRelay(run, servers, SPANISH);
    expect(servers.builder.systemTexts()[0]).toContain('# relevo: builder'); // through -c developer_instructions
    expect(run.lines[0]).toMatchObject({ type: 'run_started', builder: { profile: 'codex' } });
    expect(
      of(run.lines, 'turn_ended')
        .filter((t) => t.role === 'builder')
        .map((t) => t.source),
    ).toEqual(['hook', 'hook']);
  });

  it('Codex planner → Claude builder (English): the same exact handoffs, <done>', async () => {
    const servers = { planner: await fx.openai(...plannerScript(ENGLISH)), builder: await fx.anthropic(...builderScript(ENGLISH)) };
    const run = await relay({ planner: 'codex', builder: 'claude' }, release, ENGLISH, servers);
    expectExactRelay(run, servers, ENGLISH);
    expect(servers.planner.systemTexts()[0]).toContain('# relevo: planner');
    expect(run.lines[0]).toMatchObject({ type: 'run_started', planner: { profile: 'codex' }, builder: { profile: 'claude' } });
  });
});

describe('relay on the real CLIs: the journal names each CLI’s release', () => {
  it('run_started records what `--version` said; a CLI outside the tested range is journaled once, and the run goes on', async () => {
    const planner = await fx.anthropic(handoff('Plan.', STEP_1), done(SUMMARY));
    const builder = await fx.anthropic(handoff('Done.', REPORT_1));
    // A profile that was "tested" with other releases only: the newest Claude Code is then newer than its range.
    const profile = editedProfile('claude', (t) => t.replace(/^tested = .*$/m, 'tested = ["2.1.100", "2.1.150"]'));
    const cwd = fx.dir();
    const home = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
    const agents = { planner: claudeOn(planner, home.bin), builder: claudeOn(builder, home.bin) };
    const { result, lines } = await fx.headless(cwd, home.env, agents, ['--builder-profile', profile]);
    expect(result.exitCode).toBe(0);
    const version = cliVersion(home.bin);
    expect(lines[0]).toMatchObject({ type: 'run_started', planner: { cli_version: version }, builder: { cli_version: version } });
    expect(of(lines, 'agent_untested')).toEqual([
      expect.objectContaining({ role: 'builder', profile: 'claude', verdict: 'newer', cli_version: version, tested: '2.1.100 – 2.1.150' }),
    ]);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${STEP_1}`]);
  });
});

/** A shipped profile with some of its sections cut, as a file for `--X-profile`. */
const profileWithout = (name: string, sections: readonly ('hook' | 'transcript')[]) => editedProfile(name, withoutSections(...sections));

/** Runs `relevo-tui --headless` with a real Claude Code planner and a real Codex builder sharing one project (newest releases). */
async function claudeToCodex(
  planner: FakeAnthropic,
  builder: FakeOpenAI,
  args: readonly string[],
  profiles: { planner?: string; builder?: string } = {},
) {
  const cwd = fx.dir();
  const claude = fx.home(createClaudeHome({ serverUrl: planner.url, cwd }));
  const codex = fx.home(createCodexHome({ serverUrl: builder.url, cwd }));
  const profileArgs = [
    ...(profiles.planner ? ['--planner-profile', profiles.planner] : []),
    ...(profiles.builder ? ['--builder-profile', profiles.builder] : []),
  ];
  const agents = { planner: quote([claude.bin]), builder: codexCommand(codex) };
  return fx.headless(cwd, { ...claude.env, ...codexEnv(codex) }, agents, [...args, ...profileArgs]);
}

/** Two Claude Codes (newest) on their own fake servers, `relevo-tui --headless` with `args`. */
async function claudeToClaude(planner: FakeAnthropic, builder: FakeAnthropic, args: readonly string[], prepare?: (home: string) => void) {
  const home = fx.home(createClaudeHome({ serverUrl: planner.url }));
  prepare?.(home.home);
  return fx.headless(home.cwd, home.env, { planner: claudeOn(planner, home.bin), builder: claudeOn(builder, home.bin) }, args);
}

describe('relay on the newest CLIs: long handoffs, file delivery, other reply sources', () => {
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
    ...Array.from(
      { length: 34 },
      (_, i) =>
        `- check ${i + 1}: ${'a response with `page` and `limit` and **total** stays within the documented shape; '.repeat(i % 3 === 0 ? 3 : 1).trim()}`,
    ),
  ].join('\n');
  const LONG_REPORT = [
    'Round 1 report',
    `Did: ${'implemented page and limit with the offset computed from both and a bounded limit; '.repeat(4).trim()}`,
    '',
    '- `src/users.ts`',
    '- `test/users.test.ts`',
    'Tests: **14 passed**',
  ].join('\n');

  it.each([80, 200])(
    'a 45-line handoff with markdown and lines wider than a %i-column pane arrives byte-exact (hook source)',
    async (cols) => {
      expect(LONG_STEP.split('\n').length).toBeGreaterThanOrEqual(45);
      const planner = await fx.anthropic(handoff('Here is the first step.', LONG_STEP), done(SUMMARY));
      const builder = await fx.anthropic(handoff('Done.', LONG_REPORT));
      const { result, lines } = await claudeToClaude(planner, builder, ['--cols', String(cols), '--deliver', 'inline']);
      expect(result.exitCode).toBe(0);
      expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${LONG_STEP}`]);
      expect(planner.userTexts()[1]).toBe(`[relevo ronda 1 · de builder]\n${LONG_REPORT}`);
      expect(of(lines, 'turn_ended').every((t) => t.source === 'hook' && !t.lossy)).toBe(true);
    },
  );

  it('file delivery: the header, then one line naming HANDOFF.md, typed exactly; the agent is pointed at the exact body', async () => {
    const planner = await fx.anthropic(handoff('Plan.', STEP_2), done(SUMMARY));
    const builder = await fx.anthropic(handoff('Done.', REPORT_1));
    // The user's own Stop hook, in their own settings: it keeps firing next to relevo's.
    let userHooks = '';
    const { result, lines } = await claudeToClaude(planner, builder, ['--deliver', 'file', '--lang', 'en'], (home) => {
      userHooks = join(home, 'user-hooks');
      const hook = recorderScript(userHooks, 'user-stop', 'stdin');
      mkdirSync(join(home, '.claude'), { recursive: true });
      writeFileSync(
        join(home, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }),
      );
    });
    expect(result.exitCode).toBe(0);
    const runId = (lines[0] as Extract<JournalLine, { type: 'run_started' }>).run_id;
    const path = (lane: string) => `.relevo/runs/${runId}/${lane}/checkpoints/1/HANDOFF.md`;
    expect(builder.userTexts()).toEqual([
      `[relevo ronda 1 · de planner]\nRead this handoff in full at ${path('planner')} and go on as usual.`,
    ]);
    expect(planner.userTexts()[1]).toBe(
      `[relevo ronda 1 · de builder]\nRead this handoff in full at ${path('builder')} and go on as usual.`,
    );
    expect(
      of(lines, 'delivered')
        .filter((d) => d.kind === 'handoff')
        .map((d) => d.via),
    ).toEqual(['file', 'file']);
    expect(recorded(userHooks, 'user-stop').length).toBe(3); // every turn of both agents
  });

  it('without hooks, the reply comes from the transcripts (Claude projects, Codex rollout), still exact', async () => {
    const planner = await fx.anthropic(...plannerScript(ENGLISH));
    const builder = await fx.openai(...builderScript(ENGLISH));
    const run = await claudeToCodex(planner, builder, ['--lang', 'en'], {
      planner: profileWithout('claude', ['hook']),
      builder: profileWithout('codex', ['hook']),
    });
    expectExactRelay(run, { planner, builder }, ENGLISH);
    expect(run.lines[0]).not.toHaveProperty('hook_socket');
    expect(of(run.lines, 'turn_ended').map((t) => t.source)).toEqual(Array(5).fill('transcript'));
  });

  it('from the screen alone (no hook, no transcript): a 60-line reply that scrolls past the pane arrives whole', async () => {
    // Lines narrower than the pane (the CLIs hard-wrap wider ones), no blank line inside the block.
    const longStep = ['Step 1: the long checklist', ...Array.from({ length: 60 }, (_, i) => `- item ${i + 1}: check page ${i + 1}`)].join(
      '\n',
    );
    const planner = await fx.anthropic(handoff('Here is the checklist.', longStep), done(SUMMARY));
    const builder = await fx.openai(handoff('Done.', REPORT_1));
    // Typed in full (not as a file, which a 61-line handoff would otherwise be): the screen is what is tested here.
    const { result, lines } = await claudeToCodex(planner, builder, ['--rows', '30', '--deliver', 'inline'], {
      planner: profileWithout('claude', ['hook', 'transcript']),
      builder: profileWithout('codex', ['hook', 'transcript']),
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(builder.userTexts()).toEqual([`[relevo ronda 1 · de planner]\n${longStep}`]);
    expect(planner.userTexts()[1]).toBe(`[relevo ronda 1 · de builder]\n${REPORT_1}`);
    const turns = of(lines, 'turn_ended');
    expect(turns.map((t) => [t.source, t.lossy])).toEqual(Array(3).fill(['screen', true]));
  });
});
