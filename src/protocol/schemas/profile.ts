import { z } from 'zod';
import { compareVersions } from '../release.js';
import { lazySchema } from './lazy.js';

const MAX_PATTERN = 512;
const MAX_RULES = 128;

const regexString = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(MAX_PATTERN)
    .refine(
      (s) => {
        try {
          new RegExp(s, 'mu');
          return true;
        } catch {
          return false;
        }
      },
      { message: 'not a valid regular expression' },
    ),
);

export type Matcher = {
  contains?: string | undefined;
  regex?: string | undefined;
  all?: Matcher[] | undefined;
  any?: Matcher[] | undefined;
  not?: Matcher | undefined;
};

/** herdr-style matchers: `contains` ignores case, `regex` runs per line (`m` flag); nest with all/any/not. */
export const matcherSchema: z.ZodType<Matcher> = lazySchema(() =>
  z.lazy(() =>
    z
      .strictObject({
        contains: z.string().min(1).max(MAX_PATTERN).optional(),
        regex: regexString.optional(),
        all: z.array(matcherSchema).min(1).max(16).optional(),
        any: z.array(matcherSchema).min(1).max(16).optional(),
        not: matcherSchema.optional(),
      })
      .refine((m) => Object.values(m).some((v) => v !== undefined), { message: 'a matcher needs contains, regex, all, any or not' }),
  ),
);

/**
 * End-of-turn hooks relevo knows how to install: Claude Code's `Stop` hook (settings file), Codex's
 * `notify` program, Qwen Code's `Stop` hook (a system-defaults settings layer), OpenCode's plugin (a
 * module on `session.status` idle, added through OPENCODE_CONFIG_CONTENT).
 */
export const HOOK_KINDS = ['claude-stop', 'codex-notify', 'qwen-stop', 'opencode-plugin'] as const;
export type HookKind = (typeof HOOK_KINDS)[number];
/** Transcript layouts relevo can read a turn's final reply from. */
export const TRANSCRIPT_KINDS = ['claude-projects', 'codex-rollout', 'qwen-projects', 'gemini-chats', 'copilot-session-state'] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];

/** A release number as agent CLIs print it: `2.1.197`, `0.171.0`. */
export const versionString = lazySchema(() => z.string().regex(/^\d+\.\d+\.\d+$/, 'a version such as 2.1.197'));

/** How relevo types a message: one bracketed paste, or line by line (see `deliver.paste`). */
export const PASTE_SHAPES = ['whole', 'lines'] as const;
export type PasteShape = (typeof PASTE_SHAPES)[number];

/** Where a person's unsent draft in an agent's input box is read from (see `deliver.draft`). */
export const DRAFT_SOURCES = ['screen', 'keys'] as const;
export type DraftSource = (typeof DRAFT_SOURCES)[number];

/** Capture groups in a pattern (`(…)`, `(?<name>…)`), counted by the engine itself, never by its text. */
export function captureGroups(source: string): number {
  return new RegExp(`${source}|`, 'u').exec('')!.length - 1;
}

/** The typing settings a later release of the CLI may change (`[[deliver.since]]`). */
const typingFields = {
  /**
   * `whole`: the message as one bracketed paste. `lines`: each line pasted by itself, in pieces of
   * at most `paste_max` UTF-16 units, with `line_key` typed between lines, for a CLI that treats a
   * longer paste differently from typed text (Claude Code 2.1.328 wraps it in `<pasted_content>`).
   */
  paste: lazySchema(() => z.enum(PASTE_SHAPES)),
  /** The key that starts a new line in the input box without submitting (Ctrl-J for most CLIs). */
  line_key: lazySchema(() => z.string().min(1).max(8)),
  paste_max: lazySchema(() => z.number().int().min(16).max(1_000_000)),
  settle_ms: lazySchema(() => z.number().int().min(0).max(10_000)),
};

/**
 * `limited`: the CLI shows its usage-limit or rate-limit screen; a named group `reset` in a rule's
 * regex is the text that says when the limit resets (read by `resetTime`).
 */
export const AGENT_STATES = ['busy', 'idle', 'blocked', 'limited'] as const;
export type AgentState = (typeof AGENT_STATES)[number] | 'unknown';

/** The terminal an inline agent CLI is given when its profile names no minimum: the classic 80×24. */
export const DEFAULT_MIN_SIZE = { cols: 80, rows: 24 } as const;
/** The least a profile may ask for: below it no CLI draws a usable input box. */
export const MIN_PTY = { cols: 20, rows: 5 } as const;

/** Where a rule looks: the OSC title, the last N non-empty screen lines, the whole screen, or an OSC sequence's last payload. */
export const REGIONS = ['title', 'bottom', 'screen', 'osc'] as const;

export const ruleSchema = lazySchema(() =>
  z
    .strictObject({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lowercase words joined by dashes'),
      state: z.enum(AGENT_STATES),
      priority: z.number().int().min(0).max(10_000),
      /**
       * An idle rule that is the agent's own word that its turn is over (Codex's OSC 7501 `state=done`):
       * the turn then ends after `detect.evidence_quiet_ms`, not the whole quiet window.
       */
      ends_turn: z.boolean().default(false),
      region: z.enum(REGIONS),
      lines: z.number().int().positive().max(200).optional(),
      osc: z.number().int().min(0).max(65_535).optional(),
      contains: z.string().min(1).max(MAX_PATTERN).optional(),
      regex: regexString.optional(),
      all: z.array(matcherSchema).min(1).max(16).optional(),
      any: z.array(matcherSchema).min(1).max(16).optional(),
      not: matcherSchema.optional(),
    })
    .refine((r) => r.region !== 'bottom' || r.lines !== undefined, { message: 'region "bottom" needs lines', path: ['lines'] })
    .refine((r) => r.region !== 'osc' || r.osc !== undefined, { message: 'region "osc" needs osc', path: ['osc'] })
    .refine((r) => [r.contains, r.regex, r.all, r.any, r.not].some((v) => v !== undefined), {
      message: 'a rule needs contains, regex, all, any or not',
    }),
);
export type Rule = z.infer<typeof ruleSchema>;

export const profileSchema = lazySchema(() =>
  z
    .strictObject({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
      version: z.number().int().positive(),
      description: z.string().max(240),
      /** How a command line is recognised as this agent. */
      match: z.strictObject({
        /** Program basenames, e.g. `claude`. */
        commands: z.array(z.string().min(1)).default([]),
        /** Any argument equal to one of these, e.g. `sim-agent`. */
        args: z.array(z.string().min(1)).default([]),
      }),
      launch: z
        .strictObject({
          /**
           * Arguments that hand the agent its role prompt, with `{prompt}` (the text) or `{prompt_toml}`
           * (the text as a TOML string) in them, e.g. `["--append-system-prompt", "{prompt}"]`;
           * absent → the role prompt opens the agent's first message.
           */
          role_prompt_args: z
            .array(z.string().max(200))
            .min(1)
            .max(4)
            .refine((a) => a.some((x) => x.includes('{prompt}') || x.includes('{prompt_toml}')), {
              message: 'needs {prompt} or {prompt_toml}',
            })
            .optional(),
          /**
           * Environment that hands the agent its role prompt, `{prompt}` in the values, for a CLI that
           * takes it from the environment (OpenCode: read by relevo's plugin); absent with
           * `role_prompt_args` too → the role prompt opens the agent's first message.
           */
          role_prompt_env: z
            .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(200))
            .refine((e) => Object.values(e).some((v) => v.includes('{prompt}')), { message: 'needs {prompt}' })
            .optional(),
          args: z.array(z.string()).default([]),
          env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
          /** Variables the agent must not inherit from relevo's environment (Gemini CLI: CI=true makes it headless). */
          unset_env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
        })
        .default({ args: [], env: {}, unset_env: [] }),
      screen: z
        .strictObject({
          /** OSC numbers whose last payload the screen keeps for `osc` rules (0/1/2 are the title already). */
          osc: z.array(z.number().int().min(3).max(65_535)).default([]),
          /**
           * The smallest terminal the CLI is given: a pane smaller than this shows a cropped window onto
           * it, so that the CLI's status rows never scroll into the reply it leaves on screen.
           */
          min_cols: z.number().int().min(MIN_PTY.cols).max(500).default(DEFAULT_MIN_SIZE.cols),
          min_rows: z.number().int().min(MIN_PTY.rows).max(500).default(DEFAULT_MIN_SIZE.rows),
        })
        .default({ osc: [], min_cols: DEFAULT_MIN_SIZE.cols, min_rows: DEFAULT_MIN_SIZE.rows }),
      detect: z.strictObject({
        /** The screen must stay unchanged this long before an idle agent counts as finished. */
        quiet_ms: z.number().int().min(50).max(60_000),
        /**
         * The shorter quiet that is enough once the agent said its turn is over (its end-of-turn hook
         * reported, or an `ends_turn` rule matches): long enough for its last redraw. Absent: `quiet_ms`.
         */
        evidence_quiet_ms: z.number().int().min(0).max(60_000).optional(),
        /** A turn ends only after a busy state was seen; otherwise any output since delivery counts. */
        require_busy: z.boolean(),
        rules: z.array(ruleSchema).min(1).max(MAX_RULES),
      }),
      deliver: z.strictObject({
        /** Newline inside a message typed without bracketed paste. */
        newline: z.string().min(1).max(8).default('\n'),
        settle_ms: typingFields.settle_ms,
        submit: z.string().min(1).max(8).default('\r'),
        confirm_ms: z.number().int().min(50).max(30_000),
        retries: z.number().int().min(0).max(10),
        /**
         * Wait (a bounded while) for the CLI to turn bracketed pastes on before typing: one that draws its
         * input box before it takes pastes (Gemini CLI) would read the text as keys, its shortcuts included.
         */
        wait_paste_mode: z.boolean().default(false),
        /**
         * The input line's text for a paste the CLI folded into one line (`[Pasted text #1 +8 lines]`):
         * how relevo knows its own message, left unsent by a relevo that stopped, in an agent that lived on.
         */
        folded_paste: regexString.optional(),
        paste: typingFields.paste.default('whole'),
        line_key: typingFields.line_key.default('\n'),
        paste_max: typingFields.paste_max.default(800),
        /**
         * How relevo sees a person's unsent draft, which a delivery waits for: `screen` reads the input
         * line (group 1 of `reply.prompt`); `keys` counts what the person typed into the pane since their
         * last submit, for an agent whose input box cannot be read. Absent: `screen` when `reply.prompt`
         * has a capture group, else `keys`.
         */
        draft: z.enum(DRAFT_SOURCES).optional(),
        /** Settings that change from a release of the CLI on, oldest first: each applies to that version and later ones. */
        since: z
          .array(z.strictObject({ version: versionString, ...z.strictObject(typingFields).partial().shape }))
          .max(16)
          .refine((list) => list.every((s, i) => i === 0 || compareVersions(list[i - 1]!.version, s.version) < 0), {
            message: 'oldest first, each version once',
          })
          .default([]),
      }),
      reply: z.strictObject({
        /** Prefixes that open a block of the agent's reply, e.g. `● `. */
        gutter: z.array(z.string().min(1)).default([]),
        /** Columns of indent on the reply's continuation lines. */
        indent: z.number().int().min(0).max(16).default(0),
        /** A line where the agent echoes what it was sent, e.g. `^❯ `. */
        echo: regexString.optional(),
        /** The input line; group 1, when present, is the text still in the input box. */
        prompt: regexString,
        /**
         * The agent's chrome (rules, status and spinner lines, matched before the gutter is removed): cut
         * off above the input line, and dropped wherever else a turn shows one (a spinner row that
         * scrolled into the history).
         */
        chrome: z.array(regexString).default([]),
        /** Status lines inside the reply that are not reply text, e.g. `^✻ Worked for 2s` (matched before the gutter is removed). */
        drop: z.array(regexString).default([]),
        /** A line that marks the turn as interrupted (Esc): its partial reply never yields a handoff. */
        interrupted: z.array(regexString).default([]),
        /** Text the input line shows when nothing is typed (a placeholder). */
        empty_input: regexString.optional(),
        /** The agent hard-wraps its replies at the pane width: the screen cannot always restore long lines. */
        hard_wrap: z.boolean().default(false),
      }),
      /** How to ask the CLI its version, and the versions this profile was tested with. */
      versions: z
        .strictObject({
          /** Given to the program alone (not with the rest of its command line) to print its version. */
          args: z.array(z.string().min(1)).min(1).max(4).default(['--version']),
          /** Where the version is in what it prints: the first group of this pattern. */
          pattern: regexString.default('(\\d+\\.\\d+\\.\\d+)'),
          /** The releases the real-agent tests ran this profile against; oldest to newest is the tested range. */
          tested: z.array(versionString).min(1).max(32),
        })
        .optional(),
      /** The agent's own end-of-turn notification, installed by relevo at launch: the most exact reply source. */
      hook: z
        .strictObject({
          kind: z.enum(HOOK_KINDS),
          grace_ms: z.number().int().min(0).max(10_000).default(1500),
          /**
           * The agent runs the hook in the background (a `Stop` hook's `async`): it draws its idle
           * screen without waiting for the hook's Node start, and relevo waits for the report instead.
           */
          async: z.boolean().default(false),
          /**
           * A report with the reply's text is the turn's end: relevo relays it at once, without waiting
           * for the idle screen (the agent runs no hook for a turn the person interrupts).
           */
          ends_turn: z.boolean().default(false),
        })
        .optional(),
      /** Where the agent keeps its transcript, read when no hook reported the turn. */
      transcript: z
        .strictObject({
          kind: z.enum(TRANSCRIPT_KINDS),
          /** The agent writes its transcript a moment after its screen settles: how long to keep looking. */
          wait_ms: z.number().int().min(0).max(60_000).default(3000),
          /**
           * The CLI has no end-of-turn hook relevo can install: its transcript is where exact replies
           * come from (doctor then reports no missing hook).
           */
          primary: z.boolean().default(false),
        })
        .optional(),
    })
    .refine((p) => p.deliver.draft !== 'screen' || captureGroups(p.reply.prompt) > 0, {
      message: 'draft = "screen" needs a capture group in reply.prompt (the input line\'s text); use "keys"',
      path: ['deliver', 'draft'],
    }),
);
export type ProfileData = z.infer<typeof profileSchema>;

/** How this profile tells a person's draft: its `deliver.draft`, else from whether `reply.prompt` captures the input. */
export function draftSource(data: ProfileData): DraftSource {
  return data.deliver.draft ?? (captureGroups(data.reply.prompt) > 0 ? 'screen' : 'keys');
}
