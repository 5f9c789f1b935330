import { join } from 'node:path';
import { ConfigError } from '../faults/errors.js';
import { findProgram } from './command.js';
import { PROFILES_DIR } from './paths.js';
import { readProfileFile, shippedProfileNames } from './profiles.js';

// The agent CLIs installed on this machine: what `relevo-tui` alone, with nothing naming the agents, can offer.

/** An agent CLI found on the PATH: its shipped profile, the program name that matched, and where it is. */
export type InstalledAgent = { readonly profile: string; readonly program: string; readonly path: string };

/** The shipped profiles that name programs (`[match] commands`; not sim or generic), in profile order, each with its programs. */
function agentPrograms(): { profile: string; programs: readonly string[] }[] {
  return shippedProfileNames().flatMap((name) => {
    const { commands } = readProfileFile(join(PROFILES_DIR, `${name}.toml`), `profile ${name}`).match;
    return commands.length > 0 ? [{ profile: name, programs: commands }] : [];
  });
}

/** What detection looks for: each profile's program name (claude, codex, copilot, gemini, opencode, qwen). */
export function lookedFor(): string[] {
  return agentPrograms().map((p) => p.programs[0]!);
}

/** The shipped profiles' programs that are executable files on `path`, one per profile, in profile order. */
export function installedAgents(path: string): InstalledAgent[] {
  return agentPrograms().flatMap(({ profile, programs }) => {
    for (const program of programs) {
      const found = findProgram(program, path);
      if (found !== null) return [{ profile, program, path: found }];
    }
    return [];
  });
}

/** The one line headless (or a TUI with nothing found) ends with: what was looked for, and how to name the agents. */
export function noAgentsError(found: readonly InstalledAgent[]): ConfigError {
  const seen =
    found.length > 0 ? `found on the PATH: ${found.map((a) => a.program).join(', ')}` : `none of ${lookedFor().join(', ')} is on the PATH`;
  return new ConfigError('no agents named', `give --planner and --builder, or a relevo.toml; ${seen}`);
}
