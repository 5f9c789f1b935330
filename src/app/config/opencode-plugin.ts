/**
 * relevo's end-of-turn hook for OpenCode: a plugin module (OpenCode runs plugins in its own Bun
 * runtime, with an SDK client of its server) that, when a session goes idle, reads the session's
 * last user and assistant messages and hands them to `relevo-tui hook opencode-plugin` on stdin;
 * it also adds the agent's role prompt (RELEVO_ROLE_PROMPT) to OpenCode's own system prompt.
 * It is added through OPENCODE_CONFIG_CONTENT, a config layer OpenCode merges over the user's own
 * (their plugins, providers and settings still load; plugin lists are concatenated).
 */

/** The plugin's source: `command` (relevo's hook program and its arguments) is embedded as JSON, never as shell text. */
export function opencodePluginSource(command: readonly string[]): string {
  return `// Written by relevo-tui for one run: reports each finished turn to the relevo that launched OpenCode.
import { spawn } from 'node:child_process';

const COMMAND = ${JSON.stringify(command)};

const textOf = (message) =>
  (message?.parts ?? [])
    .filter((part) => part.type === 'text' && !part.synthetic && !part.ignored && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');

function report(payload) {
  try {
    const child = spawn(COMMAND[0], COMMAND.slice(1), { stdio: ['pipe', 'ignore', 'ignore'], env: process.env });
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  } catch {
    // relevo is gone: OpenCode must not notice.
  }
}

// The agent's role in the relay, added to OpenCode's own system prompt (relevo sets it per agent).
const ROLE_PROMPT = process.env.RELEVO_ROLE_PROMPT ?? '';

export const RelevoTurnEnd = async ({ client }) => ({
  'experimental.chat.system.transform': async (_input, output) => {
    if (ROLE_PROMPT !== '' && Array.isArray(output?.system)) output.system.push(ROLE_PROMPT);
  },
  event: async ({ event }) => {
    if (event?.type !== 'session.status' || event.properties?.status?.type !== 'idle') return;
    const sessionID = event.properties.sessionID;
    let messages = [];
    try {
      const answer = await client.session.messages({ path: { id: sessionID } });
      messages = Array.isArray(answer?.data) ? answer.data : [];
    } catch {
      // No messages to read: the report still says the turn ended.
    }
    const user = messages.findLast((m) => m?.info?.role === 'user');
    const assistant = messages.findLast((m) => m?.info?.role === 'assistant');
    // An interrupted turn (Esc) leaves a partial reply: never reported as the turn's text.
    const aborted = assistant?.info?.error?.name === 'MessageAbortedError';
    const text = assistant === undefined || aborted ? null : textOf(assistant);
    report({
      type: 'turn-end',
      session_id: sessionID,
      last_assistant_message: text === '' ? null : text,
      ...(user === undefined ? {} : { input: [textOf(user)] }),
    });
  },
});
`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parsed(content: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = content === undefined ? {} : JSON.parse(content);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * The OPENCODE_CONFIG_CONTENT that adds the plugin, over `layers` (oldest first: the user's own
 * OPENCODE_CONFIG_CONTENT, then the profile's `[launch] env` one): each a JSON object, merged one
 * level deep (`experimental` keys add up), `plugin` lists concatenated and the plugin appended. A
 * layer that is not a JSON object is left out (OpenCode would have rejected it too).
 */
export function opencodeConfigContent(pluginUrl: string, layers: readonly (string | undefined)[]): string {
  const merged: Record<string, unknown> = {};
  const plugins: unknown[] = [];
  for (const layer of layers.map(parsed)) {
    for (const [key, value] of Object.entries(layer)) {
      if (key === 'plugin') plugins.push(...(Array.isArray(value) ? value : []));
      else merged[key] = isObject(value) && isObject(merged[key]) ? { ...merged[key], ...value } : value;
    }
  }
  return JSON.stringify({ ...merged, plugin: [...plugins, pluginUrl] });
}
