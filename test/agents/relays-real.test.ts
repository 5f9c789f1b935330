/**
 * Two relays at once on the real agent CLIs, each made by `relevo-tui new --headless` in a worktree of
 * its own: Claude Code → Codex and Codex → Claude Code, offline against the fake model servers.
 * Each model receives exactly its messages; each relay's JSON lines name it.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JournalLine, journalLineSchema } from '../../src/protocol/index.js';
import { relevo, runArgs } from '../helpers/cli.js';
import type { FakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { gitRepo } from '../helpers/git.js';
import { claudeOn, codexCommand, codexEnv, expectExactRelay, relayFixture, type Server } from './fixture.js';
import { claudeBin, codexBin, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = 'Round 2 report\nDid: src/users.ts pages its rows\nTests: 14 passed\nDoubts: none';
const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };

const fx = relayFixture();
type Agent = 'claude' | 'codex';

/** The relay's JSON lines: each names it; without that field, each is a journal line as the schema says. */
function linesOf(stdout: string, relay: string): JournalLine[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const { relay: named, ...line } = JSON.parse(l) as Record<string, unknown>;
      expect(named).toBe(relay);
      return journalLineSchema.parse(line);
    });
}

describe('two relays on the real CLIs at once, each in its own worktree', () => {
  it('Claude → Codex and Codex → Claude Code reach done with exact texts while a third, answered 429, pauses rate_limited', async () => {
    const dir = realpathSync(fx.dir('relevo-relays-real-'));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    /** A relay of `planner` → `builder` on branch relevo/<name>: its agents' homes trust its worktree (made where `new` puts it). */
    const relay = async (name: string, planner: Agent, builder: Agent, limited = false) => {
      const worktree = join(dir, 'shop.relevo', name);
      const servers: { planner: Server; builder: Server } = {
        planner:
          planner === 'claude'
            ? await fx.anthropic(handoff('Two steps.', STEP_1), handoff('Next.', STEP_2), done(SUMMARY))
            : await fx.openai(handoff('Two steps.', STEP_1), handoff('Next.', STEP_2), done(SUMMARY)),
        builder:
          builder === 'claude'
            ? await fx.anthropic(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2))
            : await fx.openai(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)),
      };
      // A builder whose model API answers 429 (Claude Code's own retries off): its relay hits the limit.
      if (limited) (servers.builder as FakeAnthropic).limitedUntil = Date.now() + 3_600_000;
      const claudeServer = planner === 'claude' ? servers.planner : servers.builder;
      const codexServer = planner === 'codex' ? servers.planner : servers.builder;
      const claude = fx.home(createClaudeHome({ serverUrl: claudeServer.url, cwd: worktree, bin: claudeBin() }));
      const codex = fx.home(createCodexHome({ serverUrl: codexServer.url, cwd: worktree, bin: codexBin() }));
      const command = (agent: Agent, server: Server) => (agent === 'claude' ? claudeOn(server, claude.bin) : codexCommand(codex));
      const agents = { planner: command(planner, servers.planner), builder: command(builder, servers.builder) };
      const args = ['new', '--headless', '--branch', `relevo/${name}`, ...runArgs(GOAL, agents)];
      const env = { ...claude.env, ...codexEnv(codex), ...(limited ? { CLAUDE_CODE_MAX_RETRIES: '0' } : {}) };
      return { name: `relevo/${name}`, servers, running: relevo(args, root, env) };
    };
    const relays = [await relay('claude-codex', 'claude', 'codex'), await relay('codex-claude', 'codex', 'claude')];
    const limited = await relay('claude-limited', 'claude', 'claude', true);
    const paused = await limited.running;
    expect(paused.exitCode).toBe(3);
    expect(paused.stderr).toContain('relevo-tui: relevo/claude-limited: paused: rate_limited (builder)');
    expect(linesOf(paused.stdout, limited.name).at(-1)).toMatchObject({ type: 'paused', reason: 'rate_limited', profile: 'claude' });
    for (const r of relays) {
      const result = await r.running;
      expectExactRelay({ result, lines: linesOf(result.stdout, r.name) }, r.servers, PLAYED);
    }
  });
});
