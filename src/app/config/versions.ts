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
export const VERSION_TIMEOUT_MS = 30_000;

/**
 * The command that prints the agent's version: its program alone with the profile's version
 * arguments (behind the same `env VAR=…` when the command has one), never its other arguments.
 */
export function versionCommand(argv: readonly string[], args: readonly string[]): string[] {
  const agent = unwrapEnv(argv);
  const prefix = argv.slice(0, argv.length - agent.length);
  return [...prefix, agent[0] ?? '', ...args];
}

/** What running a version command gave: its exit (none when it could not run), its stdout and stderr together. */
export type VersionRun = {
  readonly exitCode?: number | undefined;
  readonly output: string;
  readonly timedOut: boolean;
  readonly failure?: string | undefined;
};

/** The version a run of `command` printed, against the profile's tested range; or why it could not tell. */
export function cliVersionOf(
  versions: NonNullable<AgentSpec['profile']['data']['versions']>,
  command: readonly string[],
  run: VersionRun,
): CliVersion {
  const range = rangeText(versions.tested);
  const version = run.exitCode === 0 ? versionIn(run.output, versions.pattern) : null;
  if (version !== null) return { status: 'found', version, verdict: versionVerdict(version, versions.tested), range };
  const why = run.timedOut
    ? `no answer in ${VERSION_TIMEOUT_MS / 1000} s`
    : run.exitCode === undefined
      ? `cannot run it (${run.failure ?? 'failed'})`
      : run.exitCode !== 0
        ? `exit ${run.exitCode}`
        : 'no version number in its output';
  const said = run.output.trim().split('\n')[0]?.slice(0, 80);
  return { status: 'unknown', range, detail: `\`${command.join(' ')}\`: ${why}${said ? ` (${said})` : ''}` };
}

/** Reads an agent's CLI version somewhere: here (readCliVersion) or on a host. */
export type VersionReader = (spec: AgentSpec) => Promise<CliVersion | null>;

/** Asks the agent's CLI its version; null when its profile does not say how (the simulator, generic). */
export async function readCliVersion(spec: AgentSpec, env: NodeJS.ProcessEnv): Promise<CliVersion | null> {
  const versions = spec.profile.data.versions;
  if (versions === undefined) return null;
  const [file, ...args] = versionCommand(spec.argv, versions.args);
  const result = await execa(file!, args, {
    env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: VERSION_TIMEOUT_MS,
    all: true,
  });
  const failure = result.code ?? result.signal;
  return cliVersionOf(versions, [file!, ...args], {
    exitCode: result.exitCode,
    output: result.all ?? '',
    timedOut: result.timedOut,
    failure,
  });
}

/**
 * The agent as it applies to its CLI's release: its version read, and the profile's settings for
 * that release (an unknown release gets the newest ones).
 */
export async function withCliVersion(spec: AgentSpec, env: NodeJS.ProcessEnv, read?: VersionReader): Promise<AgentSpec> {
  const cli = await (read ?? ((s) => readCliVersion(s, env)))(spec);
  if (cli === null) return spec;
  const version = cli.status === 'found' ? cli.version : null;
  return { ...spec, profile: compileProfile(profileForVersion(spec.profile.data, version)), cli };
}

/** Both agents with their CLI versions, read here or by `read` (on a host). */
export async function withCliVersions(
  agents: Readonly<Record<Role, AgentSpec>>,
  env: NodeJS.ProcessEnv,
  read?: VersionReader,
): Promise<Record<Role, AgentSpec>> {
  const [planner, builder] = await Promise.all([withCliVersion(agents.planner, env, read), withCliVersion(agents.builder, env, read)]);
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
