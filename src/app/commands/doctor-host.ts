/** `relevo-tui doctor --host H`: what a relay on the host would meet there, asked through the ssh a run uses. */
import { basename } from 'node:path';
import { quote } from 'shell-quote';
import { type CliVersion, ROLES, type Role, rangeText } from '../../protocol/index.js';
import { SshError } from '../../pty/backends/ssh.js';
import type { AgentSpec } from '../config/launch.js';
import type { Options } from '../config/options.js';
import { mainRoot } from '../relays/git.js';
import { DEFAULT_REPOS_DIR } from '../relays/remote.js';
import { sshHostOf } from '../run/host-backend.js';
import { type HostFacts, hostVersionReader, missingOnHost, probeHost, programOf, unreachable } from '../run/host-check.js';

/** An agent as the host has it: where its program is there (null: not on the PATH), its version read there. */
export type HostAgent = { readonly destination: string; readonly binary: string | null; readonly cli: CliVersion | null };

export type HostReport = {
  readonly lines: readonly string[];
  readonly problems: readonly string[];
  readonly agents: Partial<Readonly<Record<Role, HostAgent>>>;
};

/** The host's home as `~` in a path of its. */
const tilde = (facts: HostFacts, path: string): string =>
  facts.home !== '' && path.startsWith(`${facts.home}/`) ? `~${path.slice(facts.home.length)}` : path;

function detachLine(facts: HostFacts): string {
  switch (facts.detach) {
    case 'systemd-run':
      return 'systemd-run --user --scope: the tmux server is in the user manager, it outlives the ssh session';
    case 'setsid':
      return 'setsid (systemd-run --user is not available): the tmux server leaves the ssh session';
    default:
      return 'neither systemd-run --user nor setsid: tmux detaches itself';
  }
}

/**
 * Asks the host, through the ssh a run would use, for what a relay there needs: git, tmux,
 * relevo-tui, each agent's program and version, how tmux is kept past the session, the bare
 * repository. A host out of reach is a ConfigError (one line, exit 2 as for a run).
 */
export async function checkOnHost(
  destination: string,
  options: Options,
  specs: Partial<Readonly<Record<Role, AgentSpec>>>,
  cwd: string,
): Promise<HostReport> {
  const host = sshHostOf(destination, options, cwd);
  const root = await mainRoot(cwd).catch(() => null);
  const repo = `${DEFAULT_REPOS_DIR}/${basename(root ?? cwd)}.git`;
  const programs = [...new Set(Object.values(specs).map(programOf))];
  let facts: HostFacts;
  try {
    facts = await probeHost(host, repo, programs, true);
  } catch (error) {
    if (error instanceof SshError) throw unreachable(host, error);
    throw error;
  }
  const read = hostVersionReader(host);
  const agents: Partial<Record<Role, HostAgent>> = {};
  for (const role of ROLES) {
    const spec = specs[role];
    if (spec === undefined) continue;
    const binary = facts.programs.get(programOf(spec)) ?? null;
    const versions = spec.profile.data.versions;
    const cli: CliVersion | null =
      versions === undefined
        ? null
        : binary === null
          ? { status: 'unknown', range: rangeText(versions.tested), detail: `not on ${destination}'s PATH` }
          : await read(spec);
    agents[role] = { destination, binary, cli };
  }
  const repoState = facts.repo.made
    ? `made${facts.repo.writable ? '' : ', not writable'}`
    : facts.repo.writable
      ? 'not made yet (the first relay makes it)'
      : `not made yet (and ${tilde(facts, facts.repo.dir)} is not writable)`;
  const lines = [
    `host  ${destination} (user ${facts.user}, home ${facts.home})`,
    `  ssh       ${quote([...host.command])}`,
    `  PATH      ${facts.path} (as ssh gives it to a command)`,
    `  git       ${facts.git ?? 'missing'}`,
    `  tmux      ${facts.tmux ?? 'missing'}`,
    `  relevo    ${facts.relevo === null ? 'missing (--demo runs it there)' : `${facts.relevo}${facts.relevoVersion ? ` (${facts.relevoVersion})` : ''}`}`,
    `  detach    ${detachLine(facts)}`,
    `  repo      ${tilde(facts, facts.repo.path)}: ${repoState}`,
  ];
  const problems = missingOnHost(destination, facts, { repo, agents: specs }).map((l) => l.line);
  if (root === null) problems.unshift(`${cwd} is not in a git repository: a relay on a host starts from one`);
  return { lines, problems, agents };
}
