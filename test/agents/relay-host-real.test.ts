/**
 * A relay on a host with the real agent CLIs: Claude Code (planner) → Codex (builder), both in tmux
 * on the test host, in the relay's worktree there, offline against the fake model servers here
 * (forwarded to the host's own 127.0.0.1). Every turn ends on the agents' hooks, read from their
 * spool files on the host; each model receives exactly its messages, every handoff once.
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { branchSlug, type JournalLine, journalLineSchema } from '../../src/protocol/index.js';
import { relevo, runArgs } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { startTestHost } from '../helpers/ssh-host.js';
import { expectExactRelay, relayFixture, turnSources } from './fixture.js';
import { claudeBin, codexBin, codexNoDaemon, createClaudeHome, createCodexHome } from './homes.js';
import { done, GOAL, handoff, REPORT_1, STEP_1, STEP_2, SUMMARY } from './script.js';

const REPORT_2 = 'Round 2 report\nDid: src/users.ts pages its rows\nTests: 14 passed\nDoubts: none';
const PLAYED = { goalLine: `Goal: ${GOAL}`, steps: [STEP_1, STEP_2], reports: [REPORT_1, REPORT_2], summary: SUMMARY };
const BRANCH = 'relevo/claude-codex';

const fx = relayFixture();

/** The relay's JSON lines: each names it; without that field, each is a journal line as the schema says. */
function linesOf(stdout: string): JournalLine[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const { relay, ...line } = JSON.parse(l) as Record<string, unknown>;
      expect(relay).toBe(BRANCH);
      return journalLineSchema.parse(line);
    });
}

/** `env VAR=value … program args…`: a CLI's own environment (its home, its keys) as the host's tmux starts it; PATH and TERM the host's. */
const onHost = (env: Readonly<Record<string, string>>, argv: readonly string[]): string =>
  quote([
    'env',
    ...Object.entries(env)
      .filter(([k]) => k !== 'PATH' && k !== 'TERM')
      .map(([k, v]) => `${k}=${v}`),
    ...argv,
  ]);

/** Claude Code → Codex on a new test host reaching the fake servers here: the run, its journal lines, the servers, the host. */
async function hostRelay() {
  const dir = realpathSync(fx.dir('relevo-host-real-'));
  const root = join(dir, 'shop');
  mkdirSync(root);
  await gitRepo(root);
  const servers = {
    planner: await fx.anthropic(handoff('Two steps.', STEP_1), handoff('Next.', STEP_2), done(SUMMARY)),
    builder: await fx.openai(handoff('Done.', REPORT_1), handoff('Done.', REPORT_2)),
  };
  const port = (url: string) => Number(new URL(url).port);
  const host = await startTestHost({ forwards: [port(servers.planner.url), port(servers.builder.url)] });
  // The worktree as the host names it (its home is the user's home there).
  const worktree = join(homedir(), '.relevo', 'worktrees', 'shop', branchSlug(BRANCH));
  const claude = fx.home(createClaudeHome({ serverUrl: servers.planner.url, cwd: worktree, bin: claudeBin() }));
  const codex = fx.home(createCodexHome({ serverUrl: servers.builder.url, cwd: worktree, bin: codexBin() }));
  // Stopped first (the last added runs first): the agents go with the host before their homes are checked.
  fx.undo.add(() => host.stop());
  const agents = {
    planner: onHost(claude.env, [claude.bin]),
    builder: onHost(codex.env, [codex.bin, ...codexNoDaemon(codex.bin)]),
  };
  const args = ['new', '--headless', '--host', host.destination, '--branch', BRANCH, ...runArgs(GOAL, agents)];
  const result = await relevo(args, root, { RELEVO_SSH_COMMAND: quote([...host.sshCommand]) });
  return { result, lines: linesOf(result.stdout), servers, host };
}

describe('a relay on a host with the real CLIs', () => {
  it('Claude Code → Codex on the host reach done with exact texts, every handoff once, every turn ended by its hook', async () => {
    const { result, lines, servers, host } = await hostRelay();
    expectExactRelay({ result, lines }, servers, PLAYED);
    // Every turn ended on its hook: the spool files on the host, read over ssh.
    expect(turnSources(lines, 'planner')).toEqual(['hook', 'hook', 'hook']);
    expect(turnSources(lines, 'builder')).toEqual(['hook', 'hook']);
    const spool = (await host.exec(['sh', '-c', 'ls "$HOME"/.relevo/spool/*/']))
      .split('\n')
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(spool).toEqual(['builder.jsonl', 'planner.jsonl']);
  }, 240_000);
});
