import { fileURLToPath } from 'node:url';
import type { Role } from '../protocol/index.js';
import { resolveProgram, splitCommand } from './command.js';
import { ConfigError } from './errors.js';
import { DEMO_GOAL, type Options } from './options.js';
import { loadProfile, profileForCommand } from './profiles.js';
import type { AgentSpec } from './runner.js';

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
