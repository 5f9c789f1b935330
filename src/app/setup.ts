import { fileURLToPath } from 'node:url';
import type { JournalLine, Role } from '../protocol/index.js';
import { resolveProgram, splitCommand } from './command.js';
import { ConfigError } from './errors.js';
import { DEMO_GOAL, type Options } from './options.js';
import { loadProfile, profileForCommand } from './profiles.js';
import { resolve } from 'node:path';
import { createRunDir, Journal } from './journal.js';
import { RelayRunner, type AgentSpec } from './runner.js';

const BIN = fileURLToPath(new URL('../../bin/relevo-tui.js', import.meta.url));

/** The built-in simulated agent, run by this very package. */
export function demoCommand(role: Role): string[] {
  return [process.execPath, BIN, 'sim-agent', '--role', role];
}

/** Turns `--planner`/`--builder` (+ profile flags, or `--demo`) into launchable agents. */
export function agentSpec(role: Role, options: Options, env: NodeJS.ProcessEnv): AgentSpec {
  const flag = `--${role}`;
  const line = role === 'planner' ? options.planner : options.builder;
  const profileName = role === 'planner' ? options.plannerProfile : options.builderProfile;
  let argv: string[];
  if (line !== undefined) argv = resolveProgram(splitCommand(line, flag), flag, env.PATH ?? '');
  else if (options.demo) argv = demoCommand(role);
  else throw new ConfigError(flag, 'a command is required (or use --demo)');
  const profile = profileName !== undefined ? loadProfile(profileName, `${flag}-profile`) : profileForCommand(argv, flag);
  return { argv, profile };
}

export function goalOf(options: Options): string {
  if (options.goal !== undefined) return options.goal;
  if (options.demo) return DEMO_GOAL;
  throw new ConfigError('--goal', 'required (or use --demo)');
}

/** A new run from the options: its directory and journal, and both agents launched in terminals of `size`. */
export async function createRun(
  options: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  size: { readonly cols: number; readonly rows: number },
  /** Sees every journal line, the first (`run_started`) included. */
  onLine?: (line: JournalLine) => void,
): Promise<{ runner: RelayRunner; journal: Journal; dir: string }> {
  const agents = { planner: agentSpec('planner', options, env), builder: agentSpec('builder', options, env) };
  const cwd = process.cwd();
  const { runId, dir } = createRunDir(resolve(cwd, options.stateDir));
  const journal = new Journal(dir);
  if (onLine) journal.onAppend(onLine);
  const runner = await RelayRunner.create({
    runId,
    version,
    maxRounds: options.maxRounds,
    lang: options.lang,
    cwd,
    env,
    cols: size.cols,
    rows: size.rows,
    blockedTimeoutMs: options.blockedTimeoutMs,
    readyTimeoutMs: options.readyTimeoutMs,
    agents,
    journal,
  });
  return { runner, journal, dir };
}
