import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'smol-toml';
import { z } from 'zod';
import { LANGS } from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';

/** The project's settings file, read from the working directory when it exists. */
export const CONFIG_FILE = 'relevo.toml';

const whole = (min: number, max: number) => z.number().int().min(min).max(max);
const text = z.string().trim().min(1);

/** `relevo.toml`: the same settings as the flags (snake_case); a flag given on the command line wins. */
const configSchema = z.strictObject({
  planner: text.optional(),
  builder: text.optional(),
  planner_profile: text.optional(),
  builder_profile: text.optional(),
  max_rounds: whole(1, 1000).optional(),
  lang: z.enum(LANGS).optional(),
  state_dir: text.optional(),
  blocked_timeout: whole(1, 86_400).optional(),
  ready_timeout: whole(1, 86_400).optional(),
  /** A duration, `20m` or `90s`. */
  stall_after: text.optional(),
  prefix: text.optional(),
  cols: whole(20, 1000).optional(),
  rows: whole(5, 500).optional(),
  deliver: z.enum(['auto', 'file', 'inline']).optional(),
  deliver_max_bytes: whole(1, 10_000_000).optional(),
  deliver_max_lines: whole(1, 1_000_000).optional(),
  memory: z.boolean().optional(),
});

/**
 * The settings of `--config FILE`, else of `relevo.toml` in `cwd` when there is one, as flag values
 * (`max_rounds = 5` → `--max-rounds 5`). A file that is missing (when named), not TOML, or has an
 * unknown key or a bad value is refused in one line naming the file and the key.
 */
export function loadConfig(explicit: string | undefined, cwd: string): Record<string, string | boolean> {
  const path = explicit !== undefined ? resolve(cwd, explicit) : join(cwd, CONFIG_FILE);
  const where = explicit !== undefined ? explicit : CONFIG_FILE;
  if (!existsSync(path)) {
    if (explicit !== undefined) throw new ConfigError('--config', `no such file: ${explicit}`);
    return {};
  }
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(where, `not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
    const message = issue.code === 'unrecognized_keys' ? `unknown setting ${key}` : `${key}: ${issue.message}`;
    throw new ConfigError(where, message);
  }
  const flags: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) flags[key.replaceAll('_', '-')] = typeof value === 'boolean' ? value : String(value);
  }
  return flags;
}
