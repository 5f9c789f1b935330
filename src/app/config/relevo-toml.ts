import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { LANGS } from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';
import { didYouMean } from './nearest.js';
import { z } from './zod-mini.js';

/** The project's settings file, read from the working directory when it exists. */
export const CONFIG_FILE = 'relevo.toml';

/** `relevo.toml`: the same settings as the flags (snake_case); a flag given on the command line wins. */
function buildConfigSchema() {
  const whole = (min: number, max: number, description: string) =>
    z.optional(z.number().check(z.int(), z.gte(min), z.lte(max), z.describe(description)));
  const text = (description: string) => z.optional(z.string().check(z.trim(), z.minLength(1), z.describe(description)));
  const yes = (description: string) => z.optional(z.boolean().check(z.describe(description)));
  return z
    .strictObject({
      planner: text('the planner\'s command line, e.g. "claude --model opus" (run without a shell)'),
      builder: text('the builder\'s command line, e.g. "codex"'),
      planner_profile: text(
        "the planner's agent profile: a shipped name (claude, codex, gemini, opencode, qwen, sim, generic) or a .toml path",
      ),
      builder_profile: text("the builder's agent profile"),
      max_rounds: whole(1, 1000, 'rounds before relevo pauses (default 10)'),
      lang: z.optional(z.enum(LANGS).check(z.describe('language of the role prompts (default from LANG)'))),
      state_dir: text('where runs are journaled (default .relevo)'),
      blocked_timeout: whole(1, 86_400, 'seconds an agent may wait on a prompt before relevo pauses (default 600)'),
      ready_timeout: whole(1, 86_400, 'seconds a delivery waits for a busy peer (default 600)'),
      stall_after: text('show a turn busy this long as stalled: a duration, 20m or 90s (default 20m)'),
      prefix: text("the TUI's prefix key, as C-x (default C-])"),
      mouse: yes('the TUI takes the mouse: a click focuses a pane, the wheel scrolls it (default true; false = --no-mouse)'),
      cols: whole(20, 1000, "columns of each agent's terminal with --headless (default 120)"),
      rows: whole(5, 500, "rows of each agent's terminal with --headless (default 40)"),
      deliver: z.optional(
        z.enum(['auto', 'file', 'inline']).check(z.describe('how handoffs are typed: auto, file (the path of HANDOFF.md) or inline')),
      ),
      deliver_max_bytes: whole(1, 10_000_000, 'auto: a handoff over this many bytes goes as a file (default 4096)'),
      deliver_max_lines: whole(1, 1_000_000, 'auto: a handoff over this many lines goes as a file (default 60)'),
      memory: yes('store round and done summaries in mnemosyne, when it is installed'),
      goal: text('the goal for the planner (else the goal prompt asks for it)'),
      headless: yes('no UI: one JSON line per relay event on stdout'),
      demo: yes('run the built-in simulated planner and builder'),
      tmux: yes('drive agents already running in tmux panes (planner_pane, builder_pane)'),
      tmux_launch: yes('start both agents in a new tmux window (a new session outside tmux)'),
      tmux_socket: text('the tmux server, as tmux -L NAME (default: the current one)'),
      herdr: yes('drive agents already running in Herdr panes (planner_pane, builder_pane)'),
      herdr_launch: yes('start both agents in two new panes of the current Herdr workspace'),
      planner_pane: text("the planner's pane with tmux (%3, or session:window.pane) or herdr (w1:p1)"),
      builder_pane: text("the builder's pane with tmux or herdr"),
    })
    .check(z.describe('relevo-tui settings (relevo.toml): the flags, in snake_case; a flag on the command line wins'));
}

let built: ReturnType<typeof buildConfigSchema> | undefined;
/**
 * The settings file's schema, built when first needed: most starts have no relevo.toml, and its
 * ≈ 100 zod schemas (each field described) would cost the first frame their construction.
 */
export const configSchema = () => (built ??= buildConfigSchema());

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
  const source = readFileSync(path, 'utf8');
  let raw: unknown;
  try {
    raw = parse(source);
  } catch (error) {
    // smol-toml says where: the file's line and column lead the message, as compilers print them.
    const at = error instanceof TomlError ? `${where}:${error.line}:${error.column}` : where;
    throw new ConfigError(at, `not valid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = configSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : '');
    const near = issue.code === 'unrecognized_keys' ? didYouMean(key, Object.keys(configSchema().shape)) : '';
    const message = issue.code === 'unrecognized_keys' ? `unknown setting ${key}${near}` : `${key}: ${issue.message}`;
    throw new ConfigError(lineOf(source, key, where), message);
  }
  const flags: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value !== undefined) flags[key.replaceAll('_', '-')] = typeof value === 'boolean' ? value : String(value);
  }
  return flags;
}

/** `relevo.toml:4` for the line that sets `key` (a top-level `key = …`), else just the file. */
function lineOf(source: string, key: string, where: string): string {
  const top = key.split('.')[0] ?? key;
  const index = source.split('\n').findIndex((line) => new RegExp(`^\\s*["']?${top.replace(/[^\w-]/g, '')}["']?\\s*=`).test(line));
  return index < 0 ? where : `${where}:${index + 1}`;
}
