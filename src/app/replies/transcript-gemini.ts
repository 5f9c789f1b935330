/**
 * Gemini CLI's session transcripts (0.61): `<gemini home>/tmp/<project id>/chats/session-<time>-<id8>.jsonl`,
 * where `<gemini home>` is `$GEMINI_CLI_HOME/.gemini` or `~/.gemini` and the project id is the one
 * `<gemini home>/projects.json` gives the project's directory. Each line is a record: the session's
 * metadata (with `projectHash`, the SHA-256 of the project's directory), a message (`id`, `type`
 * `user` / `gemini` / …, `content`; a later record with the same id replaces it), `{"$set": {…}}`
 * (metadata, or the whole `messages` list), or `{"$rewindTo": id}` (the messages from that id on are gone).
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** Where Gemini CLI keeps its state: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function geminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

const projects = z.looseObject({ projects: z.record(z.string(), z.string()) });

/** The project's chats directory when `projects.json` knows the directory, else the folder all projects' are under. */
export function geminiChatsDir(env: NodeJS.ProcessEnv, cwd: string): string {
  const dir = geminiDir(env);
  try {
    const parsed = projects.safeParse(JSON.parse(readFileSync(join(dir, 'projects.json'), 'utf8')));
    const id = parsed.success ? (parsed.data.projects[cwd] ?? parsed.data.projects[realpath(cwd)]) : undefined;
    if (id !== undefined && /^[^/\\]+$/.test(id) && id !== '..') return join(dir, 'tmp', id, 'chats');
  } catch {
    // not written yet
  }
  return join(dir, 'tmp');
}

function realpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The `projectHash`es a session of `cwd` may carry (Gemini CLI hashes the directory it was started in). */
export function geminiProjectHashes(cwd: string): Set<string> {
  const hash = (s: string) => createHash('sha256').update(s).digest('hex');
  return new Set([hash(cwd), hash(realpath(cwd))]);
}

const part = z.looseObject({ text: z.string().optional(), thought: z.boolean().optional() });
const content = z.union([z.string(), z.array(part), part]);
const message = z.looseObject({ id: z.string(), type: z.string(), content: content.optional() });
const setRecord = z.looseObject({ $set: z.looseObject({ messages: z.array(z.unknown()).optional() }) });
const rewind = z.looseObject({ $rewindTo: z.string() });
const meta = z.looseObject({ sessionId: z.string(), projectHash: z.string() });

type Message = z.infer<typeof message>;

function textOf(c: Message['content']): string {
  if (c === undefined) return '';
  if (typeof c === 'string') return c;
  const parts = Array.isArray(c) ? c : [c];
  return parts.flatMap((p) => (typeof p.text === 'string' && p.thought !== true ? [p.text] : [])).join('');
}

/** Context the CLI adds as user messages, not something typed (it skips them the same way when it resumes a session). */
const isContext = (text: string) => /^\s*<(?:session_context|hook_context)>/.test(text);

/** The session's `projectHash`, from its metadata record (the first one). */
export function geminiSessionHash(lines: readonly unknown[]): string | null {
  for (const raw of lines) {
    const m = meta.safeParse(raw);
    if (m.success) return m.data.projectHash;
  }
  return null;
}

/** The messages a transcript holds once every record is applied, in order. */
export function geminiMessages(lines: readonly unknown[]): Message[] {
  let messages = new Map<string, Message>();
  const add = (raw: unknown) => {
    const m = message.safeParse(raw);
    if (m.success) messages.set(m.data.id, m.data);
  };
  for (const raw of lines) {
    const r = rewind.safeParse(raw);
    if (r.success) {
      const ids = [...messages.keys()];
      const at = ids.indexOf(r.data.$rewindTo);
      messages = new Map(at < 0 ? [] : ids.slice(0, at).map((id) => [id, messages.get(id)!] as const));
      continue;
    }
    const s = setRecord.safeParse(raw);
    if (s.success) {
      if (s.data.$set.messages !== undefined) {
        messages = new Map();
        s.data.$set.messages.forEach(add);
      }
      continue;
    }
    add(raw);
  }
  return [...messages.values()];
}

/** The text of the last `gemini` message with text after the last typed user message, or null (the turn is not written yet). */
export function geminiFinalText(lines: readonly unknown[]): string | null {
  let text: string | null = null;
  for (const m of geminiMessages(lines)) {
    const t = textOf(m.content);
    if (m.type === 'user' && t.trim() !== '' && !isContext(t)) text = null;
    else if (m.type === 'gemini' && t.trim() !== '') text = t;
  }
  return text;
}
