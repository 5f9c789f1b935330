import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { type ProfileData, profileSchema } from '../../protocol/index.js';
import { compileProfile, type Profile } from '../../pty/profile.js';
import { ConfigError, firstIssue } from '../faults/errors.js';
import { PROFILES_DIR } from './paths.js';

const FALLBACK = 'generic';

export function shippedProfileNames(): string[] {
  return readdirSync(PROFILES_DIR)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => f.slice(0, -'.toml'.length))
    .sort();
}

/** Reads and validates one profile file; `where` names the flag or file in errors. */
export function readProfileFile(path: string, where: string): ProfileData {
  let raw: unknown;
  try {
    raw = parseToml(readFileSync(path, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message.split('\n')[0];
    throw new ConfigError(where, `cannot read profile ${path}: ${reason}`);
  }
  const parsed = profileSchema.safeParse(raw);
  if (!parsed.success) {
    const { path: field, message } = firstIssue(parsed.error);
    throw new ConfigError(where, `profile ${basename(path)}: ${field || '(top)'}: ${message}`);
  }
  return parsed.data;
}

/** A shipped profile by name, or a profile file by path (anything ending in `.toml`). */
export function loadProfile(nameOrPath: string, where: string): Profile {
  if (nameOrPath.endsWith('.toml')) return compileProfile(readProfileFile(nameOrPath, where));
  const names = shippedProfileNames();
  if (!names.includes(nameOrPath)) {
    throw new ConfigError(where, `unknown profile "${nameOrPath}" (known: ${names.join(', ')}; or a path to a .toml file)`);
  }
  return compileProfile(readProfileFile(join(PROFILES_DIR, `${nameOrPath}.toml`), where));
}

/** The agent's own argv inside `env [-i] [VAR=value …] agent …`, the usual way to give one agent its own environment. */
export function unwrapEnv(argv: readonly string[]): readonly string[] {
  if (basename(argv[0] ?? '') !== 'env') return argv;
  let i = 1;
  while (i < argv.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i]!) || /^-[i0]$|^--ignore-environment$|^--null$/.test(argv[i]!))) i++;
  return argv.slice(i);
}

/**
 * The environment the agent itself sees: `base` with what an `env [-i] VAR=value … agent` prefix
 * sets (where its CLI keeps its transcripts may be moved there: COPILOT_HOME, CODEX_HOME, …).
 */
export function agentEnv(base: NodeJS.ProcessEnv, argv: readonly string[]): NodeJS.ProcessEnv {
  if (basename(argv[0] ?? '') !== 'env') return base;
  // `env`'s own words only: the agent's arguments (its own `-i`) are not env's.
  const prefix = argv.slice(1, argv.length - unwrapEnv(argv).length);
  const env: NodeJS.ProcessEnv = prefix.some((a) => /^-i$|^--ignore-environment$/.test(a)) ? {} : { ...base };
  for (const a of prefix) if (a.includes('=')) env[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
  return env;
}

/** The profile a command line calls for: the first shipped profile whose `match` fits, else `generic`. */
export function profileForCommand(argv: readonly string[], where: string): Profile {
  const agent = unwrapEnv(argv);
  const program = basename(agent[0] ?? '');
  for (const name of shippedProfileNames()) {
    if (name === FALLBACK) continue;
    const { match } = readProfileFile(join(PROFILES_DIR, `${name}.toml`), where);
    if (match.commands.includes(program) || agent.slice(1).some((a) => match.args.includes(a))) return loadProfile(name, where);
  }
  return loadProfile(FALLBACK, where);
}
