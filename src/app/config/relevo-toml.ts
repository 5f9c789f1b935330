import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { LANGS } from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';
import { didYouMean } from './nearest.js';
import { flagProblem, oneOf } from './options.js';
import { z } from './zod-mini.js';

/** The project's settings file, read from the working directory when it exists. */
export const CONFIG_FILE = 'relevo.toml';

/** `relevo.toml`: the same settings as the flags (snake_case); a flag given on the command line wins. */
function buildConfigSchema() {
  // Each value's error says what it expects in the flags' words; loadConfig adds what it got.
  const whole = (min: number, max: number, description: string) => {
    const error = `expected a whole number from ${min} to ${max}`;
    return z.optional(z.number({ error }).check(z.int({ error }), z.gte(min, { error }), z.lte(max, { error }), z.describe(description)));
  };
  const text = (description: string, what = 'text') => {
    const error = `expected ${what} (a string, not empty)`;
    return z.optional(z.string({ error }).check(z.trim(), z.minLength(1, { error }), z.describe(description)));
  };
  const yes = (description: string) => z.optional(z.boolean({ error: 'expected true or false' }).check(z.describe(description)));
  const either = <const T extends readonly [string, ...string[]]>(values: T, description: string) =>
    z.optional(z.enum(values, { error: `expected ${oneOf(values)}` }).check(z.describe(description)));
  return z
    .strictObject({
      planner: text('the planner\'s command line, e.g. "claude --model opus" (run without a shell)', 'a command line'),
      builder: text('the builder\'s command line, e.g. "codex"', 'a command line'),
      planner_profile: text(
        "the planner's agent profile: a shipped name (claude, codex, copilot, gemini, opencode, qwen, sim, generic) or a .toml path",
        'a profile name or path',
      ),
      builder_profile: text("the builder's agent profile", 'a profile name or path'),
      max_rounds: whole(1, 1000, 'rounds before relevo pauses (default 10)'),
      lang: either(LANGS, 'language of the role prompts (default from LANG)'),
      state_dir: text('where runs are journaled (default .relevo)', 'a directory path'),
      blocked_timeout: whole(1, 86_400, 'seconds an agent may wait on a prompt before relevo pauses (default 600)'),
      ready_timeout: whole(1, 86_400, 'seconds a delivery waits for a busy peer (default 600)'),
      stall_after: text('show a turn busy this long as stalled: a duration, 20m or 90s (default 20m)', 'a duration'),
      prefix: text("the TUI's prefix key, as C-x (default C-])", 'a key'),
      mouse: yes(
        'the TUI takes the mouse: a click focuses a pane, a drag copies, the wheel scrolls the pane under it (default true; false = --no-mouse)',
      ),
      cols: whole(20, 1000, "columns of each agent's terminal with --headless (default 120)"),
      rows: whole(5, 500, "rows of each agent's terminal with --headless (default 40)"),
      deliver: either(['auto', 'file', 'inline'], 'how handoffs are typed: auto, file (the path of HANDOFF.md) or inline'),
      deliver_max_bytes: whole(1, 10_000_000, 'auto: a handoff over this many bytes goes as a file (default 4096)'),
      deliver_max_lines: whole(1, 1_000_000, 'auto: a handoff over this many lines goes as a file (default 60)'),
      memory: yes('store round and done summaries in mnemosyne, when it is installed'),
      goal: text('the goal for the planner (else the goal prompt asks for it)', 'the goal'),
      headless: yes('no UI: one JSON line per relay event on stdout'),
      demo: yes('run the built-in simulated planner and builder'),
      tmux: yes('drive agents already running in tmux panes (planner_pane, builder_pane)'),
      tmux_launch: yes('start both agents in a new tmux window (a new session outside tmux)'),
      tmux_socket: text('the tmux server, as tmux -L NAME (default: the current one)', 'a socket name'),
      herdr: yes('drive agents already running in Herdr panes (planner_pane, builder_pane)'),
      herdr_launch: yes('start both agents in two new panes of the current Herdr workspace'),
      planner_pane: text("the planner's pane with tmux (%3, or session:window.pane) or herdr (w1:p1)", 'a pane'),
      builder_pane: text("the builder's pane with tmux or herdr", 'a pane'),
      worktrees_dir: text('where relevo-tui new puts relay worktrees (default beside the repository, <repo>.relevo/)', 'a directory path'),
      max_starting: whole(1, 64, 'relays whose agents may be starting at once (default 2)'),
      host: text('run the agents on this ssh destination (user@host or an alias of ~/.ssh/config), in tmux there', 'an ssh destination'),
      ssh_command: text(
        'the ssh program and its options for every connection relevo makes, git\'s included, e.g. "ssh -F ./ssh_config" (RELEVO_SSH_COMMAND wins)',
        'a command line',
      ),
      worktree: z.optional(
        z
          .strictObject({
            setup: text('run in each new relay worktree before its agents start, e.g. "npm ci"', 'a command'),
            copy: z.optional(
              z
                .array(z.string({ error: 'expected paths (strings)' }), { error: 'expected a list of paths, e.g. [".env"]' })
                .check(z.describe('files of the repository copied into each new relay worktree, e.g. [".env"]')),
            ),
          })
          .check(z.describe('each new relay worktree (relevo-tui new)')),
      ),
    })
    .check(z.describe('relevo-tui settings (relevo.toml): the flags, in snake_case; a flag on the command line wins'));
}

let built: ReturnType<typeof buildConfigSchema> | undefined;
/**
 * The settings file's schema, built when first needed: most starts have no relevo.toml, and its
 * many zod schemas (each field described) would cost the first frame their construction.
 */
export const configSchema = () => (built ??= buildConfigSchema());

/**
 * The settings of `--config FILE`, else of `relevo.toml` in `cwd` when there is one, as flag values
 * (`max_rounds = 5` → `--max-rounds 5`). A file that is missing (when named), not TOML, or has an
 * unknown key or a bad value is refused in one line naming the file and the key.
 */
export function loadConfig(explicit: string | undefined, cwd: string): Record<string, string | boolean | string[]> {
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
  // A bad value: `relevo.toml:3: max_rounds: expected a whole number from 1 to 1000, got "ten"`.
  const bad = (key: string, expected: string) =>
    new ConfigError(lineOf(source, key, where), `${key}: ${expected}, got ${shown((raw as Record<string, unknown>)[key])}`);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code !== 'unrecognized_keys') throw bad(String(issue.path[0] ?? ''), issue.message);
    const key = issue.keys[0] ?? '';
    throw new ConfigError(lineOf(source, key, where), `unknown setting ${key}${didYouMean(key, Object.keys(configSchema().shape))}`);
  }
  const flags: Record<string, string | boolean | string[]> = {};
  // `[worktree]`'s setup and copy are the flags --setup and --copy.
  const { worktree, ...top } = parsed.data;
  for (const [key, value] of Object.entries({ ...top, ...worktree })) {
    if (value === undefined) continue;
    const flag = key.replaceAll('_', '-');
    flags[flag] = typeof value === 'boolean' || Array.isArray(value) ? value : String(value);
    // What only the flags check (a duration, a prefix key, a socket name): in the flags' words.
    const problem = flagProblem(flag, flags[flag]);
    if (problem !== null) throw bad(key, problem);
  }
  return flags;
}

/** A value as an error shows what it got: a string quoted (cut when long), a number or boolean as written, else its kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return 'an array';
  return value instanceof Date ? 'a date' : 'a table';
}

/** `relevo.toml:4` for the line that sets `key` (a top-level `key = …`), else just the file. */
function lineOf(source: string, key: string, where: string): string {
  const top = key.split('.')[0] ?? key;
  const index = source.split('\n').findIndex((line) => new RegExp(`^\\s*["']?${top.replace(/[^\w-]/g, '')}["']?\\s*=`).test(line));
  return index < 0 ? where : `${where}:${index + 1}`;
}
