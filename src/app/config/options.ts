import type { ParseArgsConfig } from 'node:util';
import { DEFAULT_STALL_AFTER_MS, type DeliveryPolicy, LANGS, type Lang, parseDuration } from '../../protocol/index.js';
import { ConfigError } from '../faults/errors.js';
import { type FlagsContext, parseFlags, unexpectedArgument } from './args.js';
import { type Backend, backendOf } from './backend.js';
import { splitCommand } from './command.js';
import { parsePrefix } from './prefix.js';
import { z } from './zod-mini.js';

export type { Backend } from './backend.js';
export { DEMO_GOAL } from './demo.js';

const FLAGS = {
  headless: { type: 'boolean' },
  demo: { type: 'boolean' },
  goal: { type: 'string' },
  planner: { type: 'string' },
  builder: { type: 'string' },
  'planner-profile': { type: 'string' },
  'builder-profile': { type: 'string' },
  'max-rounds': { type: 'string' },
  lang: { type: 'string' },
  'state-dir': { type: 'string' },
  'blocked-timeout': { type: 'string' },
  'ready-timeout': { type: 'string' },
  'stall-after': { type: 'string' },
  prefix: { type: 'string' },
  cols: { type: 'string' },
  rows: { type: 'string' },
  resume: { type: 'boolean' },
  deliver: { type: 'string' },
  'deliver-max-bytes': { type: 'string' },
  'deliver-max-lines': { type: 'string' },
  memory: { type: 'boolean' },
  config: { type: 'string' },
  tmux: { type: 'boolean' },
  herdr: { type: 'boolean' },
  'herdr-launch': { type: 'boolean' },
  'tmux-socket': { type: 'string' },
  'tmux-launch': { type: 'boolean' },
  'planner-pane': { type: 'string' },
  'builder-pane': { type: 'string' },
  'no-mouse': { type: 'boolean' },
  branch: { type: 'string' },
  base: { type: 'string' },
  'worktrees-dir': { type: 'string' },
  setup: { type: 'string' },
  copy: { type: 'string', multiple: true },
  'max-starting': { type: 'string' },
  host: { type: 'string' },
  'ssh-command': { type: 'string' },
  all: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies ParseArgsConfig['options'];

/** Every flag's name (`max-rounds`), for the settings file's check that each is a setting too. */
export const FLAG_NAMES: readonly string[] = Object.keys(FLAGS);

/** A flag's setting in relevo.toml: `max-rounds` → `max_rounds`; `--no-mouse` is `mouse = false`. */
export const settingOf = (flag: string): string => flag.replace(/^no-/, '').replaceAll('-', '_');

/** Where a bad flag's message points. */
const HELP: FlagsContext = { where: 'usage', hint: 'see --help' };

/** `a or b`, `a, b or c`: the values a flag or setting takes, as its error names them. */
export const oneOf = (values: readonly string[]): string =>
  values.length < 2 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/** The prefix key's byte, or null for a name that is no control key, or is one the agents need (Esc, Enter, Tab, NUL). */
function prefixKey(name: string): string | null {
  const byte = parsePrefix(name);
  return byte === null || byte === '\x1b' || byte === '\r' || byte === '\t' || byte === '\x00' ? null : byte;
}

const int = (flag: string, min: number, max: number) =>
  z
    .pipe(z.string().check(z.regex(/^\d+$/, `--${flag}: expected a whole number`)), z.transform(Number))
    .check(z.refine((n) => n >= min && n <= max, `--${flag}: expected a number from ${min} to ${max}`));
const flag = (value = false) => z._default(z.boolean(), value);
const text = (name: string, message = 'empty') => z.optional(z.string().check(z.trim(), z.minLength(1, `--${name}: ${message}`)));
const path = (name: string) => z.string().check(z.minLength(1, `--${name}: empty`));

// zod/mini, as the first frame loads it (zod-mini.ts).
const DELIVER_MODES = ['auto', 'file', 'inline'] as const;

const schema = z.object({
  headless: flag(),
  demo: flag(),
  goal: z.optional(
    z
      .string()
      .check(z.trim(), z.minLength(1, '--goal: must not be empty'), z.maxLength(10_000, '--goal: expected at most 10000 characters')),
  ),
  planner: text('planner', 'empty command'),
  builder: text('builder', 'empty command'),
  'planner-profile': z.optional(path('planner-profile')),
  'builder-profile': z.optional(path('builder-profile')),
  'max-rounds': z._default(int('max-rounds', 1, 1000), 10),
  lang: z.optional(z.enum(LANGS, { error: `--lang: expected ${oneOf(LANGS)}` })),
  'state-dir': z._default(path('state-dir'), '.relevo'),
  'blocked-timeout': z._default(int('blocked-timeout', 1, 86_400), 600),
  'ready-timeout': z._default(int('ready-timeout', 1, 86_400), 600),
  'stall-after': z._default(
    z
      .pipe(
        z.string(),
        z.transform((t) => parseDuration(t) ?? -1),
      )
      .check(
        z.refine((ms) => ms >= 1000 && ms <= 7 * 86_400_000, '--stall-after: expected a duration from 1s to 7 days, such as 20m or 90s'),
      ),
    DEFAULT_STALL_AFTER_MS,
  ),
  prefix: z.optional(
    z
      .string()
      .check(z.refine((name) => prefixKey(name) !== null, '--prefix: expected a control key such as C-] or C-b (not Esc, Enter, Tab)')),
  ),
  cols: z._default(int('cols', 20, 1000), 120),
  rows: z._default(int('rows', 5, 500), 40),
  resume: flag(),
  deliver: z._default(z.enum(DELIVER_MODES, { error: `--deliver: expected ${oneOf(DELIVER_MODES)}` }), 'auto'),
  'deliver-max-bytes': z._default(int('deliver-max-bytes', 1, 10_000_000), 4096),
  'deliver-max-lines': z._default(int('deliver-max-lines', 1, 1_000_000), 60),
  memory: flag(),
  config: z.optional(z.string()),
  tmux: flag(),
  herdr: flag(),
  'herdr-launch': flag(),
  'tmux-socket': z.optional(
    z.string().check(z.regex(/^[\w.-]+$/, '--tmux-socket: expected a socket name as tmux -L takes (letters, digits, . _ -)')),
  ),
  'tmux-launch': flag(),
  'planner-pane': text('planner-pane'),
  'builder-pane': text('builder-pane'),
  // `mouse = false` in relevo.toml, or --no-mouse.
  mouse: flag(true),
  'no-mouse': flag(),
  branch: text('branch'),
  base: text('base'),
  'worktrees-dir': z.optional(path('worktrees-dir')),
  setup: text('setup', 'empty command'),
  copy: z._default(
    z.array(
      z
        .string()
        .check(
          z.refine((p) => p !== '' && !p.startsWith('/') && !p.split('/').includes('..'), '--copy: expected a path inside the repository'),
        ),
    ),
    [],
  ),
  'max-starting': z._default(int('max-starting', 1, 64), 2),
  host: z.optional(
    z
      .string()
      .check(
        z.regex(/^[^\s\x00-\x1f\x7f-][^\s\x00-\x1f\x7f]*$/, '--host: expected an ssh destination, user@host or an alias of ~/.ssh/config'),
      ),
  ),
  'ssh-command': text('ssh-command', 'empty command'),
  all: flag(),
  help: flag(),
  version: flag(),
});

export type Options = {
  readonly headless: boolean;
  readonly demo: boolean;
  readonly goal: string | undefined;
  readonly planner: string | undefined;
  readonly builder: string | undefined;
  readonly plannerProfile: string | undefined;
  readonly builderProfile: string | undefined;
  readonly maxRounds: number;
  readonly lang: Lang;
  readonly stateDir: string;
  readonly blockedTimeoutMs: number;
  readonly readyTimeoutMs: number;
  /** A turn busy longer than this is shown as stalled. */
  readonly stallAfterMs: number;
  /** The byte of the TUI's prefix key. */
  readonly prefix: string;
  readonly cols: number;
  readonly rows: number;
  /** `--resume [RUN]`: false, or the run id (`latest` when none was given). */
  readonly resume: string | false;
  readonly delivery: DeliveryPolicy;
  readonly memory: boolean;
  /** The TUI takes the mouse: clicks focus, the wheel scrolls (see tui/actions/mouse-actions.ts). */
  readonly mouse: boolean;
  /** Where the agents run: relevo's own terminals, or tmux panes (attached, or launched there). */
  readonly backend: Backend;
  /** `new`: the relay's branch (else named from the goal) and what it starts from (else the main checkout's branch). */
  readonly branch: string | undefined;
  readonly base: string | undefined;
  /** Where relay worktrees go (else beside the repository, `<repo>.relevo/`). */
  readonly worktreesDir: string | undefined;
  /** Run in each new relay worktree before its agents start, and the files copied into it first. */
  readonly setup: string | undefined;
  readonly copy: readonly string[];
  /** Relays whose agents may be starting at once. */
  readonly maxStarting: number;
  /** The ssh program and its own options, as argv: `--ssh-command`, else RELEVO_SSH_COMMAND, else `ssh_command`, else `ssh`. */
  readonly sshCommand: readonly string[];
  /** `--resume --all`: every relay of the repository that is not done. */
  readonly all: boolean;
  readonly help: boolean;
  readonly version: boolean;
};

/** `es` when LANG/LC_ALL/LC_MESSAGES say Spanish, else `en`. */
export function langFromEnv(env: NodeJS.ProcessEnv): Lang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^es([_.-]|$)/i.test(locale) ? 'es' : 'en';
}

/** `C-]` by default: Claude Code, Codex, tmux, Herdr and shells leave it alone. */
export const DEFAULT_PREFIX = 'C-]';

/**
 * Nothing names the agents: no `--planner`/`--builder` (nor `planner`/`builder` in relevo.toml), no
 * `--demo`, no `--resume`, no panes to attach to. Then the TUI offers a choice, and headless refuses.
 */
export function agentsUnnamed(options: Options): boolean {
  const attached = options.backend.kind !== 'local' && options.backend.panes !== null;
  return !options.demo && options.resume === false && !attached && options.planner === undefined && options.builder === undefined;
}

/** The flags typed on the command line, unchecked and without the settings file's: where a value came from. */
export const givenFlags = (args: readonly string[]): Readonly<Record<string, unknown>> => parseFlags(args, FLAGS, HELP).values;

/** The flag a schema issue is about (`--max-rounds`) and what it says (`expected a whole number`). */
function flagIssue(issue: { readonly message: string; readonly path: readonly PropertyKey[] } | undefined): {
  flag: string;
  words: string;
} {
  const message = issue?.message ?? 'invalid option';
  const [flag, ...rest] = message.startsWith('--') ? message.split(': ') : [`--${String(issue?.path[0] ?? '')}`, message];
  return { flag: flag ?? 'usage', words: rest.join(': ') };
}

/**
 * What the flags' own checks find wrong with `value` as `flag`'s (`expected a duration …`), or null
 * when it is fine: relevo.toml's values get the same checks, and the same words, as the flags.
 */
export function flagProblem(flag: string, value: string | boolean | string[]): string | null {
  if (!Object.hasOwn(schema.shape, flag)) return null;
  const parsed = schema.shape[flag as keyof typeof schema.shape].safeParse(value);
  return parsed.success ? null : flagIssue(parsed.error.issues[0]).words;
}

/** Settings from a config file, as flag values; `explicit` is `--config`'s value. */
export type ConfigLoader = (explicit: string | undefined) => Record<string, string | boolean | string[]>;

/** Parses and validates the flags (over the config file's settings); a bad one throws a ConfigError naming it. */
export function parseOptions(args: readonly string[], env: NodeJS.ProcessEnv, loadConfig: ConfigLoader = () => ({})): Options {
  const { values: given, positionals } = parseFlags(args, FLAGS, HELP);
  // The one positional is the run of `--resume [RUN]`.
  if (positionals.length > 0 && given.resume !== true) throw unexpectedArgument(positionals[0], HELP);
  if (positionals.length > 1) throw new ConfigError('--resume', `takes one run id, got ${positionals.length}`);
  const run = positionals[0];
  if (run !== undefined && !/^[\w-][\w.-]*$/.test(run)) throw new ConfigError('--resume', `not a run id: ${run}`);
  if (given.all === true && given.resume !== true) throw new ConfigError('--all', 'only with --resume');
  if (given.all === true && run !== undefined) throw new ConfigError('--all', `not with a run id (${run})`);
  const parsed = schema.safeParse({ ...loadConfig(given.config), ...given });
  if (!parsed.success) {
    const { flag, words } = flagIssue(parsed.error.issues[0]);
    throw new ConfigError(flag, words);
  }
  const v = parsed.data;
  return {
    headless: v.headless,
    demo: v.demo,
    goal: v.goal,
    planner: v.planner,
    builder: v.builder,
    plannerProfile: v['planner-profile'],
    builderProfile: v['builder-profile'],
    maxRounds: v['max-rounds'],
    lang: v.lang ?? langFromEnv(env),
    stateDir: v['state-dir'],
    blockedTimeoutMs: v['blocked-timeout'] * 1000,
    readyTimeoutMs: v['ready-timeout'] * 1000,
    stallAfterMs: v['stall-after'],
    prefix: prefixKey(v.prefix ?? DEFAULT_PREFIX)!, // the schema took only a key prefixKey knows
    cols: v.cols,
    rows: v.rows,
    resume: v.resume ? (run ?? 'latest') : false,
    delivery: { mode: v.deliver, maxBytes: v['deliver-max-bytes'], maxLines: v['deliver-max-lines'] },
    memory: v.memory,
    mouse: v.mouse && !v['no-mouse'],
    backend: backendOf(v),
    branch: v.branch,
    base: v.base,
    worktreesDir: v['worktrees-dir'],
    setup: v.setup,
    copy: v.copy,
    maxStarting: v['max-starting'],
    sshCommand: splitCommand(
      (given['ssh-command'] as string | undefined) ?? env.RELEVO_SSH_COMMAND ?? v['ssh-command'] ?? 'ssh',
      '--ssh-command',
    ),
    all: v.all,
    help: v.help,
    version: v.version,
  };
}
