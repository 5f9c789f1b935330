import { z } from 'zod';
import { ROLES } from '../roles.js';
import { lazySchema } from './lazy.js';
import { HOOK_KINDS, type HookKind } from './profile.js';

/** One message on relevo's hook channel: what an agent's end-of-turn hook reported, with the run's token. */
export const hookMessageSchema = lazySchema(() =>
  z.strictObject({
    token: z.string().min(1).max(256),
    role: z.enum(ROLES),
    kind: z.enum(HOOK_KINDS),
    payload: z.unknown(),
    /** When the hook ran (ms since the epoch): a report from before the watched turn began is a late one. */
    at: z.number().int().nonnegative().optional(),
  }),
);
export type HookMessage = z.infer<typeof hookMessageSchema>;

/** Claude Code's Stop hook input (the fields relevo reads; others pass). */
const claudeStop = lazySchema(() =>
  z.looseObject({
    hook_event_name: z.string().optional(),
    session_id: z.string().optional(),
    transcript_path: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
    last_assistant_message: z.string().nullish(),
  }),
);

/** Codex's `notify` argument for a finished turn. */
const codexNotify = lazySchema(() =>
  z.looseObject({
    type: z.string(),
    'thread-id': z.string().optional(),
    'turn-id': z.string().optional(),
    'last-assistant-message': z.string().nullish(),
    'input-messages': z.array(z.string()).optional(),
  }),
);

/** What relevo's OpenCode plugin reports when a session goes idle (see app/config/opencode-plugin.ts). */
const opencodePlugin = lazySchema(() =>
  z.looseObject({
    type: z.string(),
    session_id: z.string().optional(),
    last_assistant_message: z.string().nullish(),
    input: z.array(z.string()).optional(),
  }),
);

export type HookReport = {
  /** The turn's final reply text, when the hook carried it. */
  readonly text: string | null;
  /** Where the agent's transcript is, when the hook said. */
  readonly transcriptPath: string | null;
  /** The messages the turn answered, when the hook says (Codex: its title turns report too). */
  readonly input: readonly string[] | null;
  /** The conversation the turn belongs to, when the hook says. */
  readonly thread: string | null;
};

/** What a hook payload says about the finished turn; null when it is not an end-of-turn report. */
export function readHookPayload(kind: HookKind, payload: unknown): HookReport | null {
  switch (kind) {
    case 'qwen-stop': // Qwen Code's Stop hook input has Claude Code's shape
    case 'claude-stop': {
      const p = claudeStop.safeParse(payload);
      if (!p.success || (p.data.hook_event_name !== undefined && p.data.hook_event_name !== 'Stop')) return null;
      return {
        text: p.data.last_assistant_message ?? null,
        transcriptPath: p.data.transcript_path ?? null,
        input: null,
        thread: p.data.session_id ?? null,
      };
    }
    case 'codex-notify': {
      const p = codexNotify.safeParse(payload);
      if (!p.success || p.data.type !== 'agent-turn-complete') return null;
      return {
        text: p.data['last-assistant-message'] ?? null,
        transcriptPath: null,
        input: p.data['input-messages'] ?? null,
        thread: p.data['thread-id'] ?? null,
      };
    }
    case 'opencode-plugin': {
      const p = opencodePlugin.safeParse(payload);
      if (!p.success || p.data.type !== 'turn-end') return null;
      return {
        text: p.data.last_assistant_message ?? null,
        transcriptPath: null,
        input: p.data.input ?? null,
        thread: p.data.session_id ?? null,
      };
    }
  }
}

/**
 * Whether a hook report belongs to the turn relevo watches: when the hook names the messages it
 * answered, the last one must be what relevo typed (Codex also reports its own title-generation
 * turns); for a turn someone else started, the report must come from the conversation seen before.
 */
export function reportFits(
  report: HookReport,
  sent: string | null,
  thread: string | null,
  /** When the hook ran, and when the watched turn began: a hook that ran before it reports an earlier turn. */
  timing: { readonly at: number | null; readonly since: number } = { at: null, since: 0 },
): boolean {
  if (timing.at !== null && timing.at < timing.since) return false;
  if (report.input === null) return true;
  if (sent !== null) return report.input.at(-1)?.trim() === sent.trim();
  return thread === null || report.thread === thread;
}
