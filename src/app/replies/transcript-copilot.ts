/**
 * GitHub Copilot CLI's session state: `<copilot home>/session-state/<session id>/events.jsonl`, where
 * `<copilot home>` is `$COPILOT_HOME` or `~/.copilot`. One event a line, `{ type, data, timestamp }`:
 * `session.start` (its `data.context.cwd`), `user.message` (`data.content`, what was typed),
 * `assistant.message` (`data.content`, `data.toolRequests`), `assistant.turn_start` / `assistant.turn_end`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** Where Copilot CLI keeps its configuration and state: `COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: NodeJS.ProcessEnv): string {
  const home = env.HOME ?? homedir();
  const expand = (p: string) => resolve(p === '~' || p.startsWith('~/') ? join(home, p.slice(1)) : p);
  return env.COPILOT_HOME ? expand(env.COPILOT_HOME) : join(home, '.copilot');
}

/** The folder with one folder per session, each holding its `events.jsonl`. */
export function copilotSessionsDir(env: NodeJS.ProcessEnv): string {
  return join(copilotHome(env), 'session-state');
}

const event = z.looseObject({
  type: z.string(),
  data: z
    .looseObject({
      content: z.unknown().optional(),
      toolRequests: z.array(z.unknown()).optional(),
      context: z.looseObject({ cwd: z.string().optional() }).optional(),
    })
    .optional(),
});

/** The working directory the session started in (its `session.start`), if recorded. */
export function copilotSessionCwd(lines: readonly unknown[]): string | null {
  for (const raw of lines) {
    const e = event.safeParse(raw);
    if (e.success && e.data.type === 'session.start') return e.data.data?.context?.cwd ?? null;
  }
  return null;
}

/**
 * The text of the last assistant message after the last typed message, once the turn is over: the
 * message asks for no tool, and an `assistant.turn_end` follows it with no turn started after.
 */
export function copilotFinalText(lines: readonly unknown[]): string | null {
  let text: string | null = null;
  let ended = false;
  for (const raw of lines) {
    const e = event.safeParse(raw);
    if (!e.success) continue;
    const { type, data } = e.data;
    if (type === 'user.message') [text, ended] = [null, false];
    else if (type === 'assistant.turn_start') ended = false;
    else if (type === 'assistant.turn_end') ended = true;
    else if (type === 'assistant.message' && typeof data?.content === 'string') {
      const asks = (data.toolRequests ?? []).length > 0;
      if (data.content.trim() !== '' && !asks) text = data.content;
      else if (asks) text = null;
    }
  }
  return ended ? text : null;
}
