import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canWriteConfig, defaultChoice, rememberChoice, rememberedChoice, writeConfig } from '../../src/app/config/agent-choice.js';
import { installedAgents, lookedFor, noAgentsError } from '../../src/app/config/installed.js';
import { agentsUnnamed, parseOptions } from '../../src/app/config/options.js';
import { loadConfig } from '../../src/app/config/relevo-toml.js';
import { tempDir } from '../helpers/cli.js';

/** A directory of fake agent CLIs: shell scripts that need not work as agents for detection. */
function fakeBin(names: readonly string[], mode = 0o755): string {
  const dir = tempDir('relevo-bin-');
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\necho fake\n');
    chmodSync(join(dir, name), mode);
  }
  return dir;
}

const agent = (profile: string, dir: string, program = profile) => ({ profile, program, path: join(dir, program) });

describe('agent detection', () => {
  it('finds the shipped profiles’ programs that are executable files on the PATH, in profile order, each with its path', () => {
    const codex = fakeBin(['codex']);
    const claude = fakeBin(['claude']);
    // A program that is not executable, and a directory with an agent's name, are not agents.
    const other = fakeBin(['gemini'], 0o644);
    mkdirSync(join(other, 'qwen'));
    expect(installedAgents([codex, other, claude].join(':'))).toEqual([agent('claude', claude), agent('codex', codex)]);
  });

  it('finds every shipped agent CLI, and a profile’s other program name (codex.js) when its first is missing', () => {
    const dir = fakeBin(['qwen', 'opencode', 'gemini', 'codex.js', 'claude']);
    expect(installedAgents(dir)).toEqual([
      agent('claude', dir),
      agent('codex', dir, 'codex.js'),
      agent('gemini', dir),
      agent('opencode', dir),
      agent('qwen', dir),
    ]);
  });

  it('finds nothing on an empty PATH or one without agents (never the process’s own PATH)', () => {
    expect(installedAgents('')).toEqual([]);
    expect(installedAgents(fakeBin(['sim-agent', 'generic']))).toEqual([]);
  });

  it('says in one line what it looked for, and what it found', () => {
    expect(lookedFor()).toEqual(['claude', 'codex', 'copilot', 'gemini', 'opencode', 'qwen']);
    expect(noAgentsError([]).toString()).toBe(
      'no agents named: give --planner and --builder, or a relevo.toml; none of claude, codex, copilot, gemini, opencode, qwen is on the PATH',
    );
    const dir = fakeBin(['claude', 'codex']);
    expect(noAgentsError(installedAgents(dir)).toString()).toBe(
      'no agents named: give --planner and --builder, or a relevo.toml; found on the PATH: claude, codex',
    );
  });

  it('asks for a choice only when nothing names the agents: not with flags, relevo.toml, --demo, --resume or attached panes', () => {
    const cwd = tempDir();
    const unnamed = (args: string[]) => agentsUnnamed(parseOptions(args, {}, (explicit) => loadConfig(explicit, cwd)));
    expect(unnamed([])).toBe(true);
    expect(unnamed(['--goal', 'G', '--tmux-launch'])).toBe(true);
    expect(unnamed(['--planner', 'claude'])).toBe(false);
    expect(unnamed(['--demo'])).toBe(false);
    expect(unnamed(['--resume'])).toBe(false);
    expect(unnamed(['--tmux', '--planner-pane', '%1', '--builder-pane', '%2'])).toBe(false);
    writeFileSync(join(cwd, 'relevo.toml'), 'planner = "claude"\nbuilder = "codex"\n');
    expect(unnamed([])).toBe(false);
  });
});

describe('the agents picked', () => {
  const dir = fakeBin(['claude', 'codex', 'gemini']);
  const found = installedAgents(dir);

  it('defaults to the choice remembered in the state dir while both are found, else the first two found', () => {
    const state = join(tempDir(), '.relevo');
    expect(rememberedChoice(state)).toBeNull();
    expect(defaultChoice(found, rememberedChoice(state))).toEqual({ planner: 'claude', builder: 'codex' });
    rememberChoice(state, { planner: 'gemini', builder: 'claude' });
    expect(JSON.parse(readFileSync(join(state, 'agents.json'), 'utf8'))).toEqual({ planner: 'gemini', builder: 'claude' });
    expect(defaultChoice(found, rememberedChoice(state))).toEqual({ planner: 'gemini', builder: 'claude' });
    // A remembered agent that is gone from the PATH: back to the first two found.
    expect(defaultChoice(found.slice(0, 2), rememberedChoice(state))).toEqual({ planner: 'claude', builder: 'codex' });
    // A file that is not a choice is no choice.
    writeFileSync(join(state, 'agents.json'), '{"planner": 3}');
    expect(rememberedChoice(state)).toBeNull();
  });

  it('offers the only agent found for both roles, and nothing when none is found', () => {
    expect(defaultChoice(found.slice(1, 2), null)).toEqual({ planner: 'codex', builder: 'codex' });
    expect(defaultChoice([], { planner: 'claude', builder: 'codex' })).toBeNull();
  });

  it('writes relevo.toml naming them only when there is none, never over one', () => {
    const cwd = tempDir();
    expect(canWriteConfig(cwd)).toBe(true);
    writeConfig(cwd, { planner: 'claude', builder: 'codex' });
    expect(loadConfig(undefined, cwd)).toEqual({ planner: 'claude', builder: 'codex' });
    expect(canWriteConfig(cwd)).toBe(false);
    expect(() => writeConfig(cwd, { planner: 'codex', builder: 'codex' })).toThrow(/EEXIST/);
    expect(loadConfig(undefined, cwd)).toEqual({ planner: 'claude', builder: 'codex' });
  });
});
