/**
 * `relevo-tui doctor` as a user runs it, on the real agent CLIs of devDependencies: what it finds
 * about each agent the settings name, and its exit code.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { GEMINI_BIN } from '../agents/home-gemini.js';
import { OPENCODE_BIN } from '../agents/home-opencode.js';
import { QWEN_BIN } from '../agents/home-qwen.js';
import { claudeBin, cliVersion, codexBin, copilotBin } from '../agents/homes.js';
import { binDir, relevo, tempDir } from '../helpers/cli.js';
import { editedProfile, withoutSections } from '../helpers/profiles.js';

const CLAUDE = claudeBin('newest');
const CODEX = codexBin('oldest');

const doctor = (args: string[], cwd = tempDir()) => relevo(['doctor', ...args], cwd, { HOME: cwd, PATH: process.env.PATH ?? '' });

describe('relevo-tui doctor', () => {
  it('finds both agents, reads their versions inside the tested ranges, names the profiles and reply sources: all fine, exit 0', async () => {
    const r = await doctor(['--planner', quote([CLAUDE]), '--builder', quote([CODEX])]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      `planner  ${CLAUDE}\n  from      --planner\n  binary    ${CLAUDE}\n  version   ${cliVersion(CLAUDE)}, inside the tested range 2.1.197 – 2.1.332`,
    );
    expect(r.stdout).toContain('  profile   claude · typing: line by line (each line pasted, Ctrl-J between lines)');
    expect(r.stdout).toContain('  replies   hook: Stop hook (an extra --settings layer)');
    expect(r.stdout).toContain(`  version   ${cliVersion(CODEX)}, inside the tested range 0.156.0 – 0.171.0`);
    expect(r.stdout).toContain('  profile   codex · typing: one bracketed paste');
    expect(r.stdout).toContain('  replies   hook: notify program (-c notify=…)');
    expect(r.stdout).toContain('            transcript: ~/.codex/sessions (not written yet');
    expect(r.stdout.trimEnd().endsWith('all fine')).toBe(true);
  });

  it('the older Claude Code is typed with one paste (it never wraps pastes)', async () => {
    const r = await doctor(['--planner', quote([claudeBin('oldest')]), '--builder', quote([CLAUDE])]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /version {3}2\.1\.197, inside the tested range 2\.1\.197 – 2\.1\.332\n {2}profile {3}claude · typing: one bracketed paste/,
    );
  });

  it('takes the agents from relevo.toml, like a run, and says so (a flag wins)', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'relevo.toml'), `planner = ${JSON.stringify(quote([CLAUDE]))}\nbuilder = ${JSON.stringify(quote([CODEX]))}\n`);
    const r = await doctor([], cwd);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`planner  ${CLAUDE}\n  from      relevo.toml\n`);
    expect(r.stdout).toContain(`builder  ${CODEX}\n  from      relevo.toml\n`);
    const flag = await doctor(['--builder', quote([CLAUDE])], cwd);
    expect(flag.stdout).toContain(`planner  ${CLAUDE}\n  from      relevo.toml\n`);
    expect(flag.stdout).toContain(`builder  ${CLAUDE}\n  from      --builder\n`);
  });

  describe("with nothing naming the agents: the ones the TUI's picker would start on", () => {
    /** claude and codex on a PATH of their own: fakes that print a tested version. */
    const agents = () => binDir({ claude: 'echo "2.1.332 (Claude Code)"', codex: 'echo "codex-cli 0.171.0"' });
    const picked = (why: string) => `${why}: nothing names the agents, so the TUI's picker starts on it (--headless needs them named)`;

    it('the first two found on the PATH: claude plans, codex builds; all fine, exit 0', async () => {
      const bin = agents();
      const r = await relevo(['doctor'], tempDir(), { HOME: tempDir(), PATH: bin });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(
        `planner  ${join(bin, 'claude')}\n  from      ${picked('found on the PATH (claude, codex)')}\n  binary    ${join(bin, 'claude')}\n  version   2.1.332, inside`,
      );
      expect(r.stdout).toContain(`builder  ${join(bin, 'codex')}\n  from      ${picked('found on the PATH (claude, codex)')}\n`);
      expect(r.stdout.trimEnd().endsWith('all fine')).toBe(true);
      expect(r.exitCode).toBe(0);
    });

    it('the agents picked last time, remembered in the state dir (--state-dir honoured)', async () => {
      const bin = agents();
      const cwd = tempDir();
      mkdirSync(join(cwd, 'state'));
      writeFileSync(join(cwd, 'state', 'agents.json'), JSON.stringify({ planner: 'codex', builder: 'claude' }));
      const r = await relevo(['doctor', '--state-dir', 'state'], cwd, { HOME: cwd, PATH: bin });
      expect(r.stdout).toContain(`planner  ${join(bin, 'codex')}\n  from      ${picked('picked last time (state/agents.json)')}\n`);
      expect(r.stdout).toContain(`builder  ${join(bin, 'claude')}\n  from      ${picked('picked last time (state/agents.json)')}\n`);
      expect(r.exitCode).toBe(0);
    });

    it('none on the PATH: one problem saying what was looked for and how to name them, exit 1', async () => {
      const r = await relevo(['doctor'], tempDir(), { HOME: tempDir(), PATH: binDir({}) });
      expect(r.stdout.trimEnd().split('\n')).toEqual([
        '1 problem:',
        '  no agents named: give --planner and --builder, or a relevo.toml; none of claude, codex, copilot, gemini, opencode, qwen is on the PATH',
      ]);
      expect(r.exitCode).toBe(1);
    });
  });

  it('knows Gemini CLI, Qwen Code and OpenCode: their profiles, tested releases and reply sources; all fine, exit 0', async () => {
    const r = await doctor(['--planner', quote([GEMINI_BIN]), '--builder', quote([QWEN_BIN])]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('  version   0.61.0, inside the tested range 0.51.0 – 0.61.0');
    expect(r.stdout).toContain('  profile   gemini · typing: one bracketed paste');
    expect(r.stdout).toContain('  replies   hook: none (the CLI has none relevo can install): replies come from its transcript');
    expect(r.stdout).toContain('  version   0.24.4, inside the tested range 0.21.10 – 0.24.4');
    expect(r.stdout).toContain('  replies   hook: Stop hook (a system-defaults settings layer, QWEN_CODE_SYSTEM_DEFAULTS_PATH)');
    expect(r.stdout.trimEnd().endsWith('all fine')).toBe(true);
    const o = await doctor(['--planner', quote([OPENCODE_BIN]), '--builder', quote([CODEX])]);
    expect(o.exitCode).toBe(0);
    expect(o.stdout).toContain('  version   1.18.33, inside the tested range 1.18.3 – 1.18.33');
    expect(o.stdout).toContain('  replies   hook: plugin on session.status idle (added through OPENCODE_CONFIG_CONTENT)');
  }, 90_000);

  it('knows GitHub Copilot CLI: its npm program and an `env`-prefixed oldest binary, the release each runs, its session events (COPILOT_HOME honoured); all fine, exit 0', async () => {
    const cwd = tempDir();
    const moved = join(cwd, 'copilot-state');
    const r = await doctor(['--planner', 'copilot', '--builder', quote(['env', `COPILOT_HOME=${moved}`, copilotBin('oldest')])], cwd);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const replies = [
      '  replies   hook: none (the CLI has none relevo can install): replies come from its transcript',
      '            transcript: ~/.copilot/session-state (not written yet: it appears once the agent has run here)',
      '            screen: always, lossy: the CLI hard-wraps long lines',
    ];
    // `copilot` from the PATH: npm's node_modules/.bin link to its loader, which starts the native binary.
    const found = /^planner {2}(\/\S+\/copilot)$/.exec(lines[0]!)?.[1];
    expect(found).toBeDefined();
    expect(lines.slice(0, 8)).toEqual([
      `planner  ${found}`,
      '  from      --planner',
      `  binary    ${found}`,
      '  version   1.0.102, inside the tested range 1.0.62 – 1.0.102',
      '  profile   copilot · typing: one bracketed paste',
      ...replies,
    ]);
    expect(lines).toContain('  version   1.0.62, inside the tested range 1.0.62 – 1.0.102');
    expect(lines).toContain(
      '            transcript: ~/copilot-state/session-state (not written yet: it appears once the agent has run here)',
    );
    expect(lines.at(-1)).toBe('all fine');
  }, 90_000);

  it('one line per problem, exit 1: a missing binary, a version outside the tested range, no end-of-turn hook', async () => {
    const dir = tempDir();
    const narrow = editedProfile('claude', (t) => t.replace(/^tested = .*$/m, 'tested = ["2.1.100", "2.1.150"]'));
    const noHook = editedProfile('codex', withoutSections('hook'));
    const r = await doctor(
      ['--planner', quote([CLAUDE]), '--planner-profile', narrow, '--builder', quote([CODEX]), '--builder-profile', noHook],
      dir,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`  version   ${cliVersion(CLAUDE)}, newer than the tested 2.1.100 – 2.1.150`);
    expect(r.stdout).toContain('  replies   hook: none in this profile');
    const problems = r.stdout.slice(r.stdout.indexOf('2 problems:')).trimEnd().split('\n');
    expect(problems).toEqual([
      '2 problems:',
      `  planner: claude ${cliVersion(CLAUDE)} is newer than the tested 2.1.100 – 2.1.150: relevo runs it with a warning; see "Agent versions" in docs/agents.md`,
      '  builder: no end-of-turn hook (none in this profile): replies come from its transcript, else the screen',
    ]);

    const missing = await doctor(['--planner', 'claude-not-installed', '--builder', quote([CODEX])]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).not.toContain('planner  ');
    expect(missing.stdout).toContain(`builder  ${CODEX}`);
    expect(missing.stdout.trimEnd().split('\n').slice(-2)).toEqual(['1 problem:', '  planner: command not found: claude-not-installed']);
  });

  it('a version it cannot read, and an agent no profile knows, are problems too', async () => {
    const dir = tempDir();
    const badArgs = editedProfile('claude', (t) => t.replace('args = ["--version"]', 'args = ["--no-such-flag"]'));
    const r = await doctor(['--planner', quote([CLAUDE]), '--planner-profile', badArgs, '--builder', 'bash --norc'], dir);
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-3)).toBe('2 problems:');
    expect(lines.at(-2)).toMatch(/^ {2}planner: cannot read claude's version: `.*claude\.exe --no-such-flag`: exit \d+/);
    expect(lines.at(-1)).toBe(
      '  builder: no profile knows /usr/bin/bash: turn ends are guessed from a shell-like prompt and quiet; name one with --builder-profile',
    );
  });

  it('the demo agents need nothing: exit 0', async () => {
    const r = await doctor(['--demo']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('profile   sim · typing: one bracketed paste');
  });

  it('bad usage is one line on stderr, exit 2', async () => {
    const r = await doctor(['--planner']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('relevo-tui doctor: --planner: needs a value');
  });
});
