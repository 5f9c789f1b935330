/**
 * The relay hop with the real CLIs, for `npm run bench` (bench/hop.ts runs this file through
 * vitest with vitest.bench.config.ts, so the fake model servers of the test tree need no build of
 * their own). Each run is `relevo-tui --headless` with a planner and a builder on their own fake
 * servers; a hop is "the fake server sent the last SSE event of one agent's reply holding a
 * handoff" → "the other agent's fake server received the request whose user text is that handoff".
 * One Claude → Claude run gives two claude-claude hops; one Claude → Codex run gives a
 * claude-codex and a codex-claude hop. The floor, per CLI (test/bench/hop-floor.ts): the CLI in a
 * bare terminal, as sender (last SSE event → its end-of-turn hook wrote its file) and as receiver
 * (handoff pasted → request received, a first prompt and a second one).
 * Writes `{ samples: { pair: ms[] }, floor: { cli: { sender, first, second: ms[] } }, skipped: string[], failures: string[] }`
 * as JSON to $RELEVO_HOP_OUT; $RELEVO_HOP_REPS runs of each pair. With $RELEVO_HOP_DEBUG=PREFIX, each run's
 * journal, stderr and the fake servers' request times go to PREFIX-<pair>-<time>.json.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { quote } from 'shell-quote';
import { it } from 'vitest';
import { formatHeader } from '../../src/protocol/index.js';
import { reapLeftovers } from '../agents/drive.js';
import { CLAUDE_BIN, CODEX_BIN, codexNoDaemon, createClaudeHome, createCodexHome, makeTempDir } from '../agents/homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_1, SUMMARY } from '../agents/script.js';
import { relevo } from '../helpers/cli.js';
import { type FakeAnthropic, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import type { RecordedRequest } from '../helpers/fake-models/common.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { floorSample } from './hop-floor.js';

type Cli = 'claude' | 'codex';
type Server = FakeAnthropic | FakeOpenAI;
const REPS = Number(process.env.RELEVO_HOP_REPS ?? '1');
const OUT = process.env.RELEVO_HOP_OUT ?? '';
const present: Record<Cli, boolean> = { claude: existsSync(CLAUDE_BIN), codex: existsSync(CODEX_BIN) };
// Run by itself (not through bench/hop.ts), the hop still starts everything without the
// machine's NODE_EXTRA_CA_CERTS: it makes every Node start (relevo, the hook's forwarder) slower.
delete process.env.NODE_EXTRA_CA_CERTS;

/**
 * The planner's model thinks this long before it streams its first reply, as a model does: the
 * builder, started with it, has drawn its idle screen by then, so the first hop measures the relay
 * and not the builder's start-up (relevo types into an agent only once its screen has kept still
 * for the profile's quiet_ms; a Claude Code just started redraws for a while).
 */
const PLANNER_THINKS_MS = 2000;

const serverFor = (cli: Cli, replies: Parameters<typeof startFakeAnthropic>[0]): Promise<Server> =>
  cli === 'claude' ? startFakeAnthropic(replies) : startFakeOpenAI(replies);

/** The main request whose user text is exactly `text`. */
const requestWith = (server: Server, text: string): RecordedRequest | undefined =>
  server.mainRequests().find((r) => server.userTextOf(r.body) === text);

/** One relay, planner → builder → planner → done: the two hops it makes, in ms, or why it failed. */
async function oneRun(planner: Cli, builder: Cli): Promise<{ there: number; back: number } | string> {
  const servers = {
    planner: await serverFor(planner, { replies: [{ ...handoff('Plan.', STEP_1), holdMs: PLANNER_THINKS_MS }, done(SUMMARY)] }),
    builder: await serverFor(builder, { replies: [handoff('Done.', REPORT_1)] }),
  };
  const cwd = makeTempDir('relevo-hop-cwd-');
  const claudeServer = planner === 'claude' ? servers.planner : servers.builder;
  const claude = createClaudeHome({ serverUrl: claudeServer.url, cwd });
  const cleanups: (() => unknown)[] = [
    () => rmSync(cwd, { recursive: true, force: true }),
    () => claude.cleanup(),
    () => reapLeftovers(claude.home),
  ];
  let env: Record<string, string> = claude.env;
  const command = (cli: Cli, server: Server): string => {
    if (cli === 'claude') return quote(['env', `ANTHROPIC_BASE_URL=${server.url}`, claude.bin]);
    const codex = createCodexHome({ serverUrl: server.url, cwd });
    cleanups.push(
      () => codex.cleanup(),
      () => reapLeftovers(codex.home),
    );
    env = { ...env, CODEX_HOME: codex.codexHome, OPENAI_API_KEY: 'test' };
    return quote([codex.bin, ...codexNoDaemon(codex.bin)]);
  };
  try {
    const args = ['--headless', '--goal', GOAL, '--lang', 'en', '--deliver', 'inline'];
    const result = await relevo(
      [...args, '--planner', command(planner, servers.planner), '--builder', command(builder, servers.builder)],
      cwd,
      env,
    );
    if (process.env.RELEVO_HOP_DEBUG) {
      const times = Object.entries(servers).flatMap(([role, server]) =>
        server.mainRequests().map((r) => ({ role, at: r.at, endedAt: r.endedAt, text: server.userTextOf(r.body)?.slice(0, 40) })),
      );
      writeFileSync(
        `${process.env.RELEVO_HOP_DEBUG}-${planner}-${builder}-${Date.now()}.json`,
        `${result.stdout}\n${result.stderr}\n${JSON.stringify(times)}\n`,
      );
    }
    if (result.exitCode !== 0) return `exit ${result.exitCode}: ${result.stderr.slice(0, 300)}`;
    const plan = servers.planner.mainRequests()[0];
    const toBuilder = requestWith(servers.builder, `${formatHeader(1, 'planner')}\n${STEP_1}`);
    const report = servers.builder.mainRequests()[0];
    const toPlanner = requestWith(servers.planner, `${formatHeader(1, 'builder')}\n${REPORT_1}`);
    if (!plan?.endedAt || !toBuilder || !report?.endedAt || !toPlanner) return 'a handoff did not arrive byte-exact';
    return { there: toBuilder.at - plan.endedAt, back: toPlanner.at - report.endedAt };
  } finally {
    for (const step of cleanups.reverse()) await step();
    for (const server of Object.values(servers)) await server.close();
  }
}

it('relay hop with the real CLIs', { timeout: 3_600_000 }, async () => {
  const samples: Record<string, number[]> = { 'claude-claude': [], 'claude-codex': [], 'codex-claude': [] };
  const parts = () => ({ sender: [] as number[], first: [] as number[], second: [] as number[] });
  const floor: Record<Cli, ReturnType<typeof parts>> = { claude: parts(), codex: parts() };
  const skipped: string[] = [];
  const failures: string[] = [];
  for (const cli of ['claude', 'codex'] as const) if (!present[cli]) skipped.push(`${cli}: not installed`);
  const pairs = (
    [
      ['claude', 'claude'],
      ['claude', 'codex'],
    ] as const
  ).filter(([a, b]) => present[a] && present[b]);
  // Interleaved: relevo's runs and the floor's side by side, so the machine's load hits both alike.
  for (let rep = 0; rep < REPS; rep++) {
    for (const [planner, builder] of pairs) {
      const run = await oneRun(planner, builder);
      if (typeof run === 'string') {
        failures.push(`${planner}-${builder}: ${run}`);
        continue;
      }
      samples[`${planner}-${builder}`]!.push(run.there);
      if (planner === 'claude' && builder === 'claude') samples['claude-claude']!.push(run.back);
      else samples[`${builder}-${planner}`]!.push(run.back);
    }
    for (const cli of ['claude', 'codex'] as const) {
      if (!present[cli]) continue;
      const ms = await floorSample(cli).catch((error: unknown) => String(error).slice(0, 300));
      if (typeof ms === 'string') {
        failures.push(`floor ${cli}: ${ms}`);
        continue;
      }
      floor[cli].sender.push(ms.sender);
      floor[cli].first.push(ms.first);
      floor[cli].second.push(ms.second);
    }
  }
  if (OUT !== '') writeFileSync(OUT, JSON.stringify({ samples, floor, skipped, failures }));
});
