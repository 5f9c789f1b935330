import { ROLES, type Role } from '../../protocol/index.js';
import { resolveProgram, splitCommand } from '../config/command.js';
import { DEMO_GOAL, type Options } from '../config/options.js';
import { BIN } from '../config/paths.js';
import { loadProfile, profileForCommand, shippedProfileNames } from '../config/profiles.js';
import { ConfigError } from '../faults/errors.js';
import type { AgentSpec } from './runner.js';

// Which agents a run starts, and with what goal: from the flags (or --demo), or as a resumed run recorded them.

/** The built-in simulated agent, run by this very package (on a host, by the relevo-tui on its PATH). */
export function demoCommand(role: Role, onHost = false): string[] {
  return [...(onHost ? ['relevo-tui'] : [process.execPath, BIN]), 'sim-agent', '--role', role];
}

/** Turns `--planner`/`--builder` (+ profile flags, or `--demo`) into launchable agents. */
export function agentSpec(role: Role, options: Options, env: NodeJS.ProcessEnv): AgentSpec {
  const flag = `--${role}`;
  const line = role === 'planner' ? options.planner : options.builder;
  const profileName = role === 'planner' ? options.plannerProfile : options.builderProfile;
  // On a host the program is found on the host's PATH, where it runs.
  const onHost = options.backend.kind === 'host';
  let argv: string[];
  if (line !== undefined) argv = onHost ? splitCommand(line, flag) : resolveProgram(splitCommand(line, flag), flag, env.PATH ?? '');
  else if (options.demo) argv = demoCommand(role, onHost);
  else throw new ConfigError(flag, 'a command is required (or use --demo)');
  const profile = profileName !== undefined ? loadProfile(profileName, `${flag}-profile`) : profileForCommand(argv, flag);
  return { argv, profile };
}

/** Both agents as the flags (or `--demo`) name them: a new run's. */
export function flagAgents(options: Options, env: NodeJS.ProcessEnv): Record<Role, AgentSpec> {
  return { planner: agentSpec('planner', options, env), builder: agentSpec('builder', options, env) };
}

/** The agents of a run `--resume` rebuilds: its journal, and the commands it recorded, are lost, so the flags must name them. */
export function rebuiltAgents(options: Options, env: NodeJS.ProcessEnv, run: string): Record<Role, AgentSpec> {
  const unnamed = ROLES.filter((role) => (role === 'planner' ? options.planner : options.builder) === undefined);
  if (!options.demo && unnamed.length > 0)
    throw new ConfigError(
      '--resume',
      `run ${run} lost its journal and the agents' commands with it: name them again (${unnamed.map((r) => `--${r}`).join(', ')})`,
    );
  return flagAgents(options, env);
}

export function goalOf(options: Options): string {
  if (options.goal !== undefined) return options.goal;
  if (options.demo) return DEMO_GOAL;
  throw new ConfigError('--goal', 'required (or use --demo)');
}

/** The agent of a resumed run: as the flags say, else as the journal recorded it. */
export function resumedAgent(
  role: Role,
  options: Options,
  env: NodeJS.ProcessEnv,
  recorded: { command: string[]; profile: string },
): AgentSpec {
  const given = role === 'planner' ? options.planner : options.builder;
  const profileName = role === 'planner' ? options.plannerProfile : options.builderProfile;
  if (given !== undefined) return agentSpec(role, options, env);
  const flag = `--${role}-profile`;
  const name = profileName ?? recorded.profile;
  if (profileName === undefined && !shippedProfileNames().includes(name)) {
    throw new ConfigError(flag, `the run used profile "${name}", which is not a shipped one: name its .toml file`);
  }
  return { argv: recorded.command, profile: loadProfile(name, flag) };
}
