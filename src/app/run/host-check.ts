/**
 * What a host has that a relay there needs, read in one ssh round trip: git, tmux, relevo-tui, each
 * agent's program on the PATH ssh gives, how its tmux server is detached, the bare repository's
 * directory. A run stops on what is missing before anything is made; `doctor --host` lists it all.
 */
import { execa } from 'execa';
import type { Role } from '../../protocol/index.js';
import { onHost, SshError, type SshHost, sshArgv, sshFailure } from '../../pty/backends/ssh.js';
import type { AgentSpec } from '../config/launch.js';
import { unwrapEnv } from '../config/profiles.js';
import { cliVersionOf, VERSION_TIMEOUT_MS, type VersionReader, versionCommand } from '../config/versions.js';
import { ConfigError } from '../faults/errors.js';

// A constant script: its arguments are the mode, the bare repository's path and the programs, never code.
const PROBE = [
  `w() { printf '%s\\t%s\\n' "$1" "$2"; }`,
  'mode=$1; repo=$2; shift 2',
  'w user "$(id -un)"',
  'w home "$HOME"',
  'w path "$PATH"',
  'w git "$(git --version 2>/dev/null | head -n 1)"',
  'w tmux "$(tmux -V 2>/dev/null | head -n 1)"',
  'r=$(command -v relevo-tui 2>/dev/null)',
  'w relevo "$r"',
  'if [ "$mode" = full ] && [ -n "$r" ]; then w relevo-version "$(relevo-tui --version 2>/dev/null | head -n 1)"; fi',
  'if [ "$mode" = full ]; then',
  '  if systemd-run --user --scope --quiet true >/dev/null 2>&1; then w detach systemd-run',
  '  elif command -v setsid >/dev/null 2>&1; then w detach setsid; else w detach none; fi',
  'fi',
  'case $repo in /*) ;; *) repo=$HOME/$repo ;; esac',
  'd=$repo; while [ ! -d "$d" ]; do d=$(dirname -- "$d"); done',
  'if [ -d "$repo" ]; then s=made; else s=absent; fi',
  'if [ -w "$d" ]; then s="$s writable"; else s="$s unwritable"; fi',
  `w repo "$repo	$s	$d"`,
  `for p in "$@"; do w program "$p	$(command -v "$p" 2>/dev/null)"; done`,
].join('\n');

/** The host as the probe found it; a tool not found is null. */
export type HostFacts = {
  readonly user: string;
  readonly home: string;
  readonly path: string;
  readonly git: string | null;
  readonly tmux: string | null;
  readonly relevo: string | null;
  readonly relevoVersion: string | null;
  /** How the host's tmux server is started so it outlives the ssh session (asked by doctor only). */
  readonly detach: 'systemd-run' | 'setsid' | 'none' | null;
  /** The bare repository: its path, whether it is made, whether relevo can write there (or in `dir`, the nearest directory there is). */
  readonly repo: { readonly path: string; readonly made: boolean; readonly writable: boolean; readonly dir: string };
  /** Each program asked about: where the host's PATH has it, or null. */
  readonly programs: ReadonlyMap<string, string | null>;
};

const nonEmpty = (s: string | undefined): string | null => (s === undefined || s.trim() === '' ? null : s.trim());

/** Runs the probe on the host (`repo`: from its home unless absolute; `full`: also relevo-tui's version and how tmux is detached); ssh's failure is an SshError. */
export async function probeHost(
  host: SshHost,
  repo: string,
  programs: readonly string[],
  full = false,
  timeoutMs = 30_000,
): Promise<HostFacts> {
  const out = await onHost(host, ['/bin/sh', '-c', PROBE, 'sh', full ? 'full' : 'need', repo, ...programs], undefined, { timeoutMs });
  const fields = new Map<string, string[]>();
  const found = new Map<string, string | null>();
  for (const line of out.split('\n')) {
    const [key = '', ...rest] = line.split('\t');
    if (key === 'program') found.set(rest[0] ?? '', nonEmpty(rest[1]));
    else if (key !== '') fields.set(key, rest);
  }
  const one = (key: string) => nonEmpty(fields.get(key)?.[0]);
  const [path = repo, state = '', dir = ''] = fields.get('repo') ?? [];
  const detach = one('detach');
  return {
    user: one('user') ?? '',
    home: one('home') ?? '',
    path: fields.get('path')?.[0] ?? '',
    git: one('git'),
    tmux: one('tmux'),
    relevo: one('relevo'),
    relevoVersion: one('relevo-version'),
    detach: detach === 'systemd-run' || detach === 'setsid' || detach === 'none' ? detach : null,
    repo: { path, made: state.startsWith('made'), writable: state.endsWith(' writable'), dir },
    programs: found,
  };
}

/** The program an agent's command runs (behind `env VAR=…`). */
export const programOf = (spec: AgentSpec): string => unwrapEnv(spec.argv)[0] ?? '';

/** What a run needs on the host: git and the bare repository (`repo`, its path; null when the worktree is there already), the agents' programs. */
export type HostNeeds = { readonly repo: string | null; readonly agents: Partial<Readonly<Record<Role, AgentSpec>>> };

/** Something a run on the host needs and the host lacks: its name, and one line naming it and what to do. */
export type Lack = { readonly what: string; readonly line: string };

/** What a run on the host needs and the host lacks. */
export function missingOnHost(destination: string, facts: HostFacts, needs: HostNeeds): Lack[] {
  const lacks: Lack[] = [];
  const notOn = `is not on ${destination}'s PATH`;
  if (needs.repo !== null && facts.git === null)
    lacks.push({ what: 'git', line: `git ${notOn}: install git there (the relay's code goes there by git)` });
  if (facts.tmux === null) lacks.push({ what: 'tmux', line: `tmux ${notOn}: install tmux there (the agents run in tmux on the host)` });
  const told = new Set<string>();
  for (const [role, spec] of Object.entries(needs.agents) as [Role, AgentSpec][]) {
    const program = programOf(spec);
    if (facts.programs.get(program) !== null || told.has(program)) continue;
    told.add(program);
    lacks.push(
      program === 'relevo-tui'
        ? { what: 'relevo-tui', line: `relevo-tui ${notOn}: install relevo-tui there (--demo runs its sim-agent on the host)` }
        : { what: program, line: `${role}: ${program} ${notOn}: install it there, or give its full path on the host in --${role}` },
    );
  }
  if (needs.repo !== null && !facts.repo.writable) {
    const line = `${facts.repo.path} cannot be written on ${destination} (${facts.repo.dir} is not writable): give the host's user that directory`;
    lacks.push({ what: `a writable ${facts.repo.dir}`, line });
  }
  return lacks;
}

/** An ssh failure reaching the host as the run's and doctor's one line. */
export const unreachable = (host: SshHost, error: SshError): ConfigError =>
  new ConfigError('--host', `cannot reach ${host.destination}: ${error.message}`);

/**
 * Stops a run on a host that lacks what it needs, before anything is made: one line naming what is
 * missing (and the PATH ssh gives, where a program was looked for). Resolves with what the probe found.
 */
export async function requireOnHost(host: SshHost, needs: HostNeeds): Promise<HostFacts> {
  const programs = [...new Set(Object.values(needs.agents).map((s) => programOf(s)))];
  let facts: HostFacts;
  try {
    facts = await probeHost(host, needs.repo ?? '.', programs);
  } catch (error) {
    if (error instanceof SshError) throw unreachable(host, error);
    throw error;
  }
  const lacks = missingOnHost(host.destination, facts, needs);
  if (lacks.length === 0) return facts;
  throw new ConfigError(
    '--host',
    lacks.length === 1
      ? `${lacks[0]!.line} (PATH there: ${facts.path})`
      : `${host.destination} lacks ${lacks.map((l) => l.what).join(', ')} (PATH there: ${facts.path}): relevo-tui doctor --host ${host.destination} says what to do`,
  );
}

/** Reads an agent's CLI version on the host, as `readCliVersion` does here: its profile's version command, stdout and stderr together. */
export function hostVersionReader(host: SshHost): VersionReader {
  return async (spec) => {
    const versions = spec.profile.data.versions;
    if (versions === undefined) return null;
    const command = versionCommand(spec.argv, versions.args);
    const [file = 'ssh', ...args] = sshArgv(host, ['/bin/sh', '-c', 'exec "$@" 2>&1', 'sh', ...command]);
    const r = await execa(file, args, { stdin: 'ignore', reject: false, timeout: VERSION_TIMEOUT_MS });
    // ssh's own failure: the version is unknown, the run goes on (it meets the host's state itself).
    if (r.exitCode === 255) {
      const failure = sshFailure(host, String(r.stderr ?? ''), 'ssh failed (exit 255)').message;
      return cliVersionOf(versions, command, { output: '', timedOut: false, failure });
    }
    return cliVersionOf(versions, command, {
      exitCode: r.exitCode,
      output: String(r.stdout ?? ''),
      timedOut: r.timedOut,
      failure: r.signal,
    });
  };
}
