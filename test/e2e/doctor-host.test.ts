/**
 * `relevo-tui doctor --host H` against the test host, reached through the ssh a run uses: what the
 * host has for a relay (git, tmux, relevo-tui, the agents' programs and their versions read there,
 * the bare repository), what it lacks, a host out of reach; a run stopped before anything is made
 * on what the host lacks; a host relay's agent versions, read on the host, in its journal.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { relevo, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { appended, editedProfile } from '../helpers/profiles.js';
import { expectDoneExactlyOnce, relayRuns } from '../helpers/relay-runs.js';
import { type TestHost, testHostPerFile } from '../helpers/ssh-host.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const host = testHostPerFile();
/** A host whose PATH has neither git nor tmux. */
const bare = testHostPerFile({ hidden: ['git', 'tmux'] });

async function repo(name: string) {
  const root = join(realpathSync(tempDir('relevo-doctor-host-')), name);
  mkdirSync(root);
  await gitRepo(root);
  return root;
}

const sshEnv = (h: TestHost, ...extra: string[]) => ({ RELEVO_SSH_COMMAND: quote([...h.sshCommand, ...extra]) });
const bin = (h: TestHost) => join(dirname(h.home), 'bin');
const gitVersion = async (h: TestHost) => (await h.exec(['git', '--version'])).trim();
const tmuxVersion = async (h: TestHost) => (await h.exec(['tmux', '-V'])).trim();

/** The host's lines of doctor's report as the test host has them. */
const hostLines = (h: TestHost, repo: string, lines: { git: string; tmux: string; repo: string }) =>
  [
    `host  ${h.destination} (user root, home /root)`,
    `  ssh       ${quote([...h.sshCommand])}`,
    `  PATH      ${h.path} (as ssh gives it to a command)`,
    `  git       ${lines.git}`,
    `  tmux      ${lines.tmux}`,
    `  relevo    ${bin(h)}/relevo-tui (relevo-tui ${VERSION})`,
    '  detach    setsid (systemd-run --user is not available): the tmux server leaves the ssh session',
    `  repo      ~/.relevo/repos/${repo}.git: ${lines.repo}`,
    '',
    '',
  ].join('\n');

/** The start of `text` as long as `expected`: a failed comparison shows the difference. */
const head = (text: string, expected: string) => text.slice(0, expected.length);
/** The end of `text` as long as `expected`. */
const tail = (text: string, expected: string) => text.slice(-expected.length);

const branches = async (root: string) => (await execa('git', ['branch', '--list', 'relevo/*'], { cwd: root })).stdout;

describe('relevo-tui doctor --host', () => {
  it('--demo on a host that has it all: git, tmux, relevo-tui there, the agents found there; all fine, exit 0', async () => {
    const root = await repo('shop');
    const r = await relevo(['doctor', '--demo', '--host', host().destination], root, sshEnv(host()));
    expect(r.stderr).toBe('');
    const git = await gitVersion(host());
    const tmux = await tmuxVersion(host());
    const lines = hostLines(host(), 'shop', { git, tmux, repo: 'not made yet (the first relay makes it)' });
    expect(head(r.stdout, lines)).toBe(lines);
    for (const role of ['planner', 'builder'])
      expect(r.stdout).toContain(
        `${role}  relevo-tui sim-agent --role ${role}\n  from      the built-in simulated agent (--demo)\n  binary    ${bin(host())}/relevo-tui on ${host().destination}\n  version   not asked (the profile does not say how)\n`,
      );
    expect(tail(r.stdout, '\n\nall fine')).toBe('\n\nall fine');
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it("the agents' versions are read on the host; an agent missing there is one line naming it and what to do, exit 1", async () => {
    const root = await repo('cart');
    writeFileSync(join(bin(host()), 'claude'), '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', { mode: 0o755 });
    writeFileSync(join(bin(host()), 'codex'), '#!/bin/sh\necho "codex-cli 0.100.0"\n', { mode: 0o755 });
    // The host and its ssh from relevo.toml, as a run takes them.
    const toml = `host = ${JSON.stringify(host().destination)}\nssh_command = ${JSON.stringify(quote([...host().sshCommand]))}\n`;
    writeFileSync(join(root, 'relevo.toml'), toml);
    const args = ['doctor', '--planner', 'claude', '--builder'];
    const r = await relevo([...args, 'codex'], root);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      `planner  claude\n  from      --planner\n  binary    ${bin(host())}/claude on ${host().destination}\n  version   2.1.332, inside the tested range 2.1.197 – 2.1.332\n`,
    );
    expect(r.stdout).toContain('            transcript: on relevo-test-host, where the agent writes it\n');
    expect(r.stdout).toContain(
      `  binary    ${bin(host())}/codex on ${host().destination}\n  version   0.100.0, older than the tested 0.156.0 – 0.171.0\n`,
    );
    const older =
      '1 problem:\n  builder: codex 0.100.0 is older than the tested 0.156.0 – 0.171.0: relevo runs it with a warning; see "Agent versions" in docs/agents.md';
    expect(tail(r.stdout, older)).toBe(older);
    expect(r.exitCode).toBe(1);

    const missing = await relevo([...args, 'nosuch-agent', '--builder-profile', 'codex'], root);
    expect(missing.stdout).toContain(
      `builder  nosuch-agent\n  from      --builder\n  binary    nosuch-agent: not on relevo-test-host's PATH\n  version   unknown: not on relevo-test-host's PATH (tested: 0.156.0 – 0.171.0)\n`,
    );
    const lacks =
      "1 problem:\n  builder: nosuch-agent is not on relevo-test-host's PATH: install it there, or give its full path on the host in --builder";
    expect(tail(missing.stdout, lacks)).toBe(lacks);
    expect(missing.exitCode).toBe(1);
  }, 60_000);

  it('a host without git and tmux: each missing is one line naming it and what to do, exit 1', async () => {
    const root = await repo('shop');
    const r = await relevo(['doctor', '--demo', '--host', bare().destination], root, sshEnv(bare()));
    expect(r.stderr).toBe('');
    const lines = hostLines(bare(), 'shop', { git: 'missing', tmux: 'missing', repo: 'not made yet (the first relay makes it)' });
    expect(head(r.stdout, lines)).toBe(lines);
    const problems = [
      '2 problems:',
      "  git is not on relevo-test-host's PATH: install git there (the relay's code goes there by git)",
      "  tmux is not on relevo-test-host's PATH: install tmux there (the agents run in tmux on the host)",
    ].join('\n');
    expect(tail(r.stdout, problems)).toBe(problems);
    expect(r.exitCode).toBe(1);
  }, 60_000);

  it('a host out of reach is one line naming it, exit 2, as for a run', async () => {
    const root = await repo('shop');
    const ssh = ['--ssh-command', quote([...host().sshCommand, '-o', 'Port=1'])];
    const r = await relevo(['doctor', '--demo', '--host', host().destination, ...ssh], root);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^relevo-tui doctor: --host: cannot reach relevo-test-host: .*(refused|unreachable|timed out)/i);
    expect(r.exitCode).toBe(2);
  }, 60_000);
});

describe('a run on a host that lacks what it needs', () => {
  it('without git and tmux: one line naming both, exit 2, nothing made here or there', async () => {
    const root = await repo('shop');
    const r = await relevo(['new', '--headless', '--demo', '--host', bare().destination, '--goal', 'Add pagination'], root, sshEnv(bare()));
    expect(r.stderr).toBe(
      `relevo-tui: --host: relevo-test-host lacks git, tmux (PATH there: ${bare().path}): relevo-tui doctor --host relevo-test-host says what to do`,
    );
    expect(r.exitCode).toBe(2);
    expect(await branches(root)).toBe('');
    expect(existsSync(join(root, '.relevo', 'runs'))).toBe(false);
    expect(existsSync(join(bare().home, '.relevo'))).toBe(false);
  }, 60_000);

  it('without the agent: one line naming it and what to do, exit 2, nothing made', async () => {
    const root = await repo('shop');
    const args = ['new', '--headless', '--host', host().destination, '--goal', 'Add pagination'];
    const r = await relevo(
      [...args, '--planner', 'nosuch-agent', '--builder', 'relevo-tui sim-agent --role builder'],
      root,
      sshEnv(host()),
    );
    expect(r.stderr).toBe(
      `relevo-tui: --host: planner: nosuch-agent is not on relevo-test-host's PATH: install it there, or give its full path on the host in --planner (PATH there: ${host().path})`,
    );
    expect(r.exitCode).toBe(2);
    expect(await branches(root)).toBe('');
    expect(existsSync(join(host().home, '.relevo', 'repos', 'shop.git'))).toBe(false);
  }, 60_000);
});

describe("a host relay's agent versions", () => {
  it('are read on the host and journaled as a local run journals them', async () => {
    const root = await repo('till');
    const versions = appended(`[versions]\nargs = ["--version"]\npattern = 'relevo-tui (\\d+\\.\\d+\\.\\d+)'\ntested = ["0.0.1"]`);
    const profile = editedProfile('sim', versions, 'sim-versioned');
    const args = ['new', '--headless', '--demo', '--host', host().destination, '--goal', 'Add totals', '--planner-profile', profile];
    const r = await relevo(args, root, sshEnv(host()));
    expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({ exit: 0, stderr: '' });
    const [run] = relayRuns(root);
    const started = run!.lines.find((l) => l.type === 'run_started');
    expect(started?.type === 'run_started' && started.planner).toMatchObject({ profile: 'sim-versioned', cli_version: VERSION });
    expect(started?.type === 'run_started' && started.builder.cli_version).toBeUndefined();
    const untested = run!.lines.filter((l) => l.type === 'agent_untested');
    expect(untested).toMatchObject([
      { role: 'planner', profile: 'sim-versioned', verdict: 'newer', cli_version: VERSION, tested: '0.0.1' },
    ]);
    expectDoneExactlyOnce(run!);
  }, 120_000);
});
