import { realpathSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { TranscriptKind } from '../../protocol/index.js';
import { parseJsonLines } from '../../protocol/json-lines.js';
import { copilotFinalText, copilotSessionCwd, copilotSessionsDir } from './transcript-copilot.js';
import { geminiChatsDir, geminiFinalText, geminiProjectHashes, geminiSessionHash } from './transcript-gemini.js';
import { qwenChatsDir, qwenFinalText } from './transcript-qwen.js';

export type TranscriptQuery = {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Only a transcript written at or after this time (ms since epoch) can hold the turn. */
  readonly since: number;
  /** The transcript file, when the agent's hook named it. */
  readonly path?: string | null;
};

/** Claude Code keeps a project's sessions under `~/.claude/projects/<cwd with every non-alphanumeric as ->/`. */
export function claudeProjectDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return join(env.HOME ?? homedir(), '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}

/** Files written at or after `since`, newest first. */
async function recent(files: string[], since: number): Promise<string[]> {
  const dated: { file: string; mtime: number }[] = [];
  for (const file of files) {
    const mtime = (await stat(file).catch(() => null))?.mtimeMs ?? -1;
    if (mtime >= since) dated.push({ file, mtime });
  }
  return dated.sort((a, b) => b.mtime - a.mtime).map((d) => d.file);
}

/** The first final text found in the given files (an agent may also write side sessions, e.g. to name the session). */
async function firstFinal(files: readonly string[], read: (lines: unknown[]) => string | null): Promise<string | null> {
  for (const file of files) {
    const text = read(parseJsonLines(await readFile(file, 'utf8').catch(() => ''), z.unknown()));
    if (text !== null) return text;
  }
  return null;
}

async function listJsonl(dir: string, depth: number): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && depth > 0) files.push(...(await listJsonl(path, depth - 1)));
    else if (e.isFile() && e.name.endsWith('.jsonl')) files.push(path);
  }
  return files;
}

const claudeEntry = z.looseObject({
  type: z.string(),
  timestamp: z.string().optional(),
  message: z
    .looseObject({
      id: z.string().optional(),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
    })
    .optional(),
});

/**
 * The final text of the last assistant message after the last prompt of a Claude Code transcript.
 * The file is not always in time order (Claude Code may write a turn's entries after rewriting the
 * file's head, e.g. for the session title): entries are taken in the order of their timestamps.
 */
export function claudeFinalText(lines: readonly unknown[]): string | null {
  let texts: string[] = [];
  let lastId: string | undefined;
  let previous = -Infinity; // an entry without a timestamp stays after the one before it
  const entries = lines.flatMap((raw, index) => {
    const e = claudeEntry.safeParse(raw);
    if (!e.success || !e.data.message) return [];
    const at = Date.parse(e.data.timestamp ?? '');
    previous = Number.isNaN(at) ? previous : at;
    return [{ data: e.data, message: e.data.message, at: previous, index }];
  });
  entries.sort((a, b) => a.at - b.at || a.index - b.index);
  for (const e of entries) {
    const content = e.message.content;
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
    if (e.data.type === 'user' && blocks.some((b) => b.type === 'text')) {
      texts = [];
      lastId = undefined;
    }
    if (e.data.type !== 'assistant') continue;
    const text = blocks.flatMap((b) => (b.type === 'text' && b.text !== undefined ? [b.text] : []));
    if (text.length === 0) continue;
    if (e.message.id === undefined || e.message.id !== lastId) texts = [];
    lastId = e.message.id;
    texts.push(...text);
  }
  return texts.length === 0 ? null : texts.join('');
}

const codexEntry = z.looseObject({
  type: z.string(),
  payload: z.looseObject({ type: z.string().optional(), last_agent_message: z.string().nullish(), cwd: z.string().optional() }).optional(),
});

/** The working directory a Codex rollout recorded (its `session_meta`, or its latest `turn_context`), if any. */
export function codexSessionCwd(lines: readonly unknown[]): string | null {
  let cwd: string | null = null;
  for (const raw of lines) {
    const e = codexEntry.safeParse(raw);
    if (e.success && (e.data.type === 'session_meta' || e.data.type === 'turn_context') && e.data.payload?.cwd !== undefined)
      cwd = e.data.payload.cwd;
  }
  return cwd;
}

/** Two spellings of one directory (a symlinked /tmp, a trailing slash). */
function sameDir(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return resolve(a) === resolve(b) || real(a) === real(b);
}

/** `last_agent_message` of the `task_complete` that follows the last user message of a Codex rollout file. */
export function codexFinalText(lines: readonly unknown[]): string | null {
  let text: string | null = null;
  for (const raw of lines) {
    const e = codexEntry.safeParse(raw);
    if (!e.success) continue;
    if (e.data.payload?.type === 'user_message') text = null; // a new turn began
    if (e.data.payload?.type === 'task_complete') text = e.data.payload.last_agent_message ?? null;
  }
  return text;
}

/** The turn's final reply from the agent's transcript, or null when none was written since the turn began. */
export async function readTranscriptReply(kind: TranscriptKind, q: TranscriptQuery): Promise<string | null> {
  switch (kind) {
    case 'claude-projects': {
      const files = q.path ? [q.path] : await recent(await listJsonl(claudeProjectDir(q.env, q.cwd), 0), q.since);
      return firstFinal(files, claudeFinalText);
    }
    case 'codex-rollout': {
      const home = q.env.CODEX_HOME ?? join(q.env.HOME ?? homedir(), '.codex');
      const files = q.path ? [q.path] : await recent(await listJsonl(join(home, 'sessions'), 3), q.since);
      // Codex keeps every project's sessions together: one recorded in another directory is not this agent's.
      return firstFinal(files, (lines) => {
        const cwd = codexSessionCwd(lines);
        return cwd === null || sameDir(cwd, q.cwd) ? codexFinalText(lines) : null;
      });
    }
    case 'qwen-projects': {
      const files = q.path ? [q.path] : await recent(await listJsonl(qwenChatsDir(q.env, q.cwd), 0), q.since);
      return firstFinal(files, qwenFinalText);
    }
    case 'gemini-chats': {
      const dir = geminiChatsDir(q.env, q.cwd);
      const files = q.path ? [q.path] : await recent(await listJsonl(dir, dir.endsWith('chats') ? 0 : 2), q.since);
      // Without projects.json every project's chats are searched: a session of another directory is not this agent's.
      const hashes = geminiProjectHashes(q.cwd);
      return firstFinal(files, (lines) => {
        const hash = geminiSessionHash(lines);
        return hash === null || hashes.has(hash) ? geminiFinalText(lines) : null;
      });
    }
    case 'copilot-session-state': {
      const all = await listJsonl(copilotSessionsDir(q.env), 1);
      const files = q.path
        ? [q.path]
        : await recent(
            all.filter((f) => f.endsWith('/events.jsonl')),
            q.since,
          );
      // Every project's sessions are kept together: one started in another directory is not this agent's.
      return firstFinal(files, (lines) => {
        const cwd = copilotSessionCwd(lines);
        return cwd === null || sameDir(cwd, q.cwd) ? copilotFinalText(lines) : null;
      });
    }
  }
}
