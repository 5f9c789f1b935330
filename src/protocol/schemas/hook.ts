import { z } from 'zod';
import { ROLES } from '../roles.js';
import { HOOK_KINDS, type HookKind } from './profile.js';

/** One message on relevo's hook channel: what an agent's end-of-turn hook reported, with the run's token. */
export const hookMessageSchema = z.strictObject({
  token: z.string().min(1).max(256),
  role: z.enum(ROLES),
  kind: z.enum(HOOK_KINDS),
  payload: z.unknown(),
});
export type HookMessage = z.infer<typeof hookMessageSchema>;

/** Claude Code's Stop hook input (the fields relevo reads; others pass). */
const claudeStop = z.looseObject({
  hook_event_name: z.string().optional(),
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  stop_hook_active: z.boolean().optional(),
  last_assistant_message: z.string().nullish(),
});

/** Codex's `notify` argument for a finished turn. */
const codexNotify = z.looseObject({
  type: z.string(),
  'thread-id': z.string().optional(),
  'turn-id': z.string().optional(),
  'last-assistant-message': z.string().nullish(),
});

export type HookReport = {
  /** The turn's final reply text, when the hook carried it. */
  readonly text: string | null;
  /** Where the agent's transcript is, when the hook said. */
  readonly transcriptPath: string | null;
};

/** What a hook payload says about the finished turn; null when it is not an end-of-turn report. */
export function readHookPayload(kind: HookKind, payload: unknown): HookReport | null {
  switch (kind) {
    case 'claude-stop': {
      const p = claudeStop.safeParse(payload);
      if (!p.success || (p.data.hook_event_name !== undefined && p.data.hook_event_name !== 'Stop')) return null;
      return { text: p.data.last_assistant_message ?? null, transcriptPath: p.data.transcript_path ?? null };
    }
    case 'codex-notify': {
      const p = codexNotify.safeParse(payload);
      if (!p.success || p.data.type !== 'agent-turn-complete') return null;
      return { text: p.data['last-assistant-message'] ?? null, transcriptPath: null };
    }
  }
}
