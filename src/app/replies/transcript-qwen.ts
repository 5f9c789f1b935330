/**
 * Qwen Code's session transcripts: `<runtime>/projects/<cwd with every non-alphanumeric as ->/chats/<session>.jsonl`,
 * one entry a line, `{ type: 'user' | 'assistant' | 'system', message: { role, parts: [{ text } | { functionCall } …] } }`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * Where Qwen Code keeps its runtime files: `QWEN_RUNTIME_DIR`, else `QWEN_HOME`, else `~/.qwen`
 * (a `advanced.runtimeOutputDir` setting moves it too; the hook's transcript_path covers that case).
 */
export function qwenRuntimeDir(env: NodeJS.ProcessEnv): string {
  const home = env.HOME ?? homedir();
  const expand = (p: string) => resolve(p === '~' || p.startsWith('~/') ? join(home, p.slice(1)) : p);
  if (env.QWEN_RUNTIME_DIR) return expand(env.QWEN_RUNTIME_DIR);
  if (env.QWEN_HOME) return expand(env.QWEN_HOME);
  return join(home, '.qwen');
}

/** The folder a project's session transcripts are in. */
export function qwenChatsDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return join(qwenRuntimeDir(env), 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'chats');
}

const qwenEntry = z.looseObject({
  type: z.string(),
  message: z
    .looseObject({
      parts: z.array(z.looseObject({ text: z.string().optional(), thought: z.boolean().optional() })).default([]),
    })
    .optional(),
});

/**
 * The text of the last assistant message (its thoughts left out) after the last prompt of a Qwen
 * Code transcript: a user entry with text starts a turn; one with only tool results does not.
 */
export function qwenFinalText(lines: readonly unknown[]): string | null {
  let text: string | null = null;
  for (const raw of lines) {
    const e = qwenEntry.safeParse(raw);
    if (!e.success || !e.data.message) continue;
    const texts = e.data.message.parts.flatMap((p) => (p.text !== undefined && p.thought !== true ? [p.text] : []));
    if (e.data.type === 'user' && texts.length > 0) text = null;
    else if (e.data.type === 'assistant' && texts.length > 0) text = texts.join('');
  }
  return text;
}
