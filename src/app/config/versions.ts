import { execa } from 'execa';
import {
  type CliVersion,
  type JournalEntry,
  profileForVersion,
  type Role,
  rangeText,
  versionIn,
  versionVerdict,
} from '../../protocol/index.js';

import { compileProfile } from '../../pty/profile.js';
import type { AgentSpec } from './launch.js';
import { unwrapEnv } from './profiles.js';
import { self } from './self.js';

/** How long an agent CLI may take to print its version: Gemini CLI relaunches itself even for `--version`, slow on a loaded machine. */
const VERSION_TIMEOUT_MS = 30_000;

/**
 * The command that prints the agent's version: its program alone with the profile's version
 * arguments (behind the same `env VAR=…` when the command has one), never its other arguments.
 */
export function versionCommand(argv: readonly string[], args: readonly string[]): string[] {
  const agent = unwrapEnv(argv);
  const prefix = argv.slice(0, argv.length - agent.length);
  return [...prefix, agent[0] ?? '', ...args];
}

/** How a command is run where the agents run: as it is here; on a host, inside its ssh command line. */
export type Where = (argv: readonly string[]) => readonly string[];
const here: Where = (argv) => argv;

/** Asks the agent's CLI its version (where it runs); null when its profile does not say how (the simulator, generic). */
export async function readCliVersion(spec: AgentSpec, env: NodeJS.ProcessEnv, where: Where = here): Promise<CliVersion | null> {
  const versions = spec.profile.data.versions;
  if (versions === undefined) return null;
  const range = rangeText(versions.tested);
  const [file, ...args] = versionCommand(spec.argv, versions.args);
  const [local, ...localArgs] = where([file!, ...args]);
  const result = await execa(local!, localArgs, {
    env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: VERSION_TIMEOUT_MS,
    all: true,
  });
  const output = result.all ?? '';
  const version = result.exitCode === 0 ? versionIn(output, versions.pattern) : null;
  if (version !== null) return { status: 'found', version, verdict: versionVerdict(version, versions.tested), range };
  const why = result.timedOut
    ? `no answer in ${VERSION_TIMEOUT_MS / 1000} s`
    : result.exitCode === undefined
      ? `cannot run it (${result.code ?? result.signal ?? 'failed'})`
      : result.exitCode !== 0
        ? `exit ${result.exitCode}`
        : 'no version number in its output';
  const said = output.trim().split('\n')[0]?.slice(0, 80);
  return { status: 'unknown', range, detail: `\`${[file, ...args].join(' ')}\`: ${why}${said ? ` (${said})` : ''}` };
}

/**
 * The agent as it applies to its CLI's release: its version read, and the profile's settings for
 * that release (an unknown release gets the newest ones).
 */
export async function withCliVersion(spec: AgentSpec, env: NodeJS.ProcessEnv, where: Where = here): Promise<AgentSpec> {
  const cli = await readCliVersion(spec, env, where);
  if (cli === null) return spec;
  const version = cli.status === 'found' ? cli.version : null;
  return { ...spec, profile: compileProfile(profileForVersion(spec.profile.data, version)), cli };
}

export async function withCliVersions(
  agents: Readonly<Record<Role, AgentSpec>>,
  env: NodeJS.ProcessEnv,
  where: Where = here,
): Promise<Record<Role, AgentSpec>> {
  const [planner, builder] = await Promise.all([withCliVersion(agents.planner, env, where), withCliVersion(agents.builder, env, where)]);
  return { planner, builder };
}

/** One line for a person about an agent outside its tested range (or of unknown release); null when tested. */
export function untestedNote(role: Role, spec: AgentSpec): string | null {
  const cli = spec.cli;
  const name = spec.profile.data.id;
  if (cli === undefined || (cli.status === 'found' && cli.verdict === 'tested')) return null;
  if (cli.status === 'unknown') return `the ${role}'s ${name} version is unknown (${cli.detail}); tested: ${cli.range}`;
  return `the ${role} runs ${name} ${cli.version}, ${cli.verdict} than the tested ${cli.range}: relevo goes on (${self()} doctor checks it)`;
}

/** The journal's warning about an agent CLI outside its profile's tested range (or of unknown release). */
export function untestedEntry(role: Role, spec: AgentSpec): JournalEntry | null {
  const cli = spec.cli;
  const note = untestedNote(role, spec);
  if (cli === undefined || note === null) return null;
  return {
    type: 'agent_untested',
    role,
    profile: spec.profile.data.id,
    verdict: cli.status === 'found' ? (cli.verdict === 'older' ? 'older' : 'newer') : 'unknown',
    ...(cli.status === 'found' ? { cli_version: cli.version } : {}),
    tested: cli.range,
    detail: note.slice(0, 240),
  };
}
