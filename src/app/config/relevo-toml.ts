import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { LANGS } from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';
import { didYouMean } from './nearest.js';

/** The project's settings file, read from the working directory when it exists. */
export const CONFIG_FILE = 'relevo.toml';

/** `relevo.toml`: the same settings as the flags (snake_case); a flag given on the command line wins. */
function buildConfigSchema() {
  const whole = (min: number, max: number) => z.number().int().min(min).max(max);
  const text = z.string().trim().min(1);
  return z
    .strictObject({
      planner: text.describe('the planner\'s command line, e.g. "claude --model opus" (run without a shell)').optional(),
      builder: text.describe('the builder\'s command line, e.g. "codex"').optional(),
      planner_profile: text
        .describe("the planner's agent profile: a shipped name (claude, codex, gemini, opencode, qwen, sim, generic) or a .toml path")
        .optional(),
      builder_profile: text.describe("the builder's agent profile").optional(),
      max_rounds: whole(1, 1000).describe('rounds before relevo pauses (default 10)').optional(),
      lang: z.enum(LANGS).describe('language of the role prompts (default from LANG)').optional(),
      state_dir: text.describe('where runs are journaled (default .relevo)').optional(),
      blocked_timeout: whole(1, 86_400).describe('seconds an agent may wait on a prompt before relevo pauses (default 600)').optional(),
      ready_timeout: whole(1, 86_400).describe('seconds a delivery waits for a busy peer (default 600)').optional(),
      stall_after: text.describe('show a turn busy this long as stalled: a duration, 20m or 90s (default 20m)').optional(),
      prefix: text.describe("the TUI's prefix key, as C-x (default C-])").optional(),
      mouse: z
        .boolean()
        .describe('the TUI takes the mouse: a click focuses a pane, the wheel scrolls it (default true; false = --no-mouse)')
        .optional(),
      cols: whole(20, 1000).describe("columns of each agent's terminal with --headless (default 120)").optional(),
      rows: whole(5, 500).describe("rows of each agent's terminal with --headless (default 40)").optional(),
      deliver: z
        .enum(['auto', 'file', 'inline'])
        .describe('how handoffs are typed: auto, file (the path of HANDOFF.md) or inline')
        .optional(),
      deliver_max_bytes: whole(1, 10_000_000).describe('auto: a handoff over this many bytes goes as a file (default 4096)').optional(),
      deliver_max_lines: whole(1, 1_000_000).describe('auto: a handoff over this many lines goes as a file (default 60)').optional(),
      memory: z.boolean().describe('store round and done summaries in mnemosyne, when it is installed').optional(),
      goal: text.describe('the goal for the planner (else the goal prompt asks for it)').optional(),
      headless: z.boolean().describe('no UI: one JSON line per relay event on stdout').optional(),
      demo: z.boolean().describe('run the built-in simulated planner and builder').optional(),
      tmux: z.boolean().describe('drive agents already running in tmux panes (planner_pane, builder_pane)').optional(),
      tmux_launch: z.boolean().describe('start both agents in a new tmux window (a new session outside tmux)').optional(),
      tmux_socket: text.describe('the tmux server, as tmux -L NAME (default: the current one)').optional(),
      herdr: z.boolean().describe('drive agents already running in Herdr panes (planner_pane, builder_pane)').optional(),
      herdr_launch: z.boolean().describe('start both agents in two new panes of the current Herdr workspace').optional(),
      planner_pane: text.describe("the planner's pane with tmux (%3, or session:window.pane) or herdr (w1:p1)").optional(),
      builder_pane: text.describe("the builder's pane with tmux or herdr").optional(),
    })
    .describe('relevo-tui settings (relevo.toml): the flags, in snake_case; a flag on the command line wins');
}

let built: ReturnType<typeof buildConfigSchema> | undefined;
/**
 * The settings file's schema, built when first needed: most starts have no relevo.toml, and its
 * ≈ 100 zod schemas (each field described) would cost the first frame their construction.
 */
export const configSchema = () => (built ??= buildConfigSchema());

/** The JSON Schema of `relevo.toml`, for editors (taplo, Even Better TOML): `relevo-tui schema`. */
export function configJsonSchema(): Record<string, unknown> {
  return { title: 'relevo.toml', ...z.toJSONSchema(configSchema()) };
}

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
