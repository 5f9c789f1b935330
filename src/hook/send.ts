/**
 * `relevo-tui hook KIND [ARG]`: run by an agent's own end-of-turn hook (Claude Code's Stop hook
 * reads its JSON on stdin; Codex's notify program gets it as the last argument). Sends it to the
 * relevo-tui that launched the agent, over the Unix socket and with the token found in the
 * environment (for agents on a host, appended to the spool file RELEVO_HOOK_FILE names). It never
 * fails the agent: any problem exits 0 quietly.
 */
import { appendFileSync } from 'node:fs';
import { connect } from 'node:net';

const MAX_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 3000;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BYTES) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(socketPath: string, line: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, TIMEOUT_MS);
    socket.on('error', done);
    socket.on('close', done);
    socket.end(line);
  });
}

/** On a host: the report as one line appended to the role's spool file (see app/replies/host-spool.ts). */
function append(file: string, token: string, kind: string, raw: string): void {
  JSON.parse(raw);
  const at = Math.floor(Date.now() / 1000);
  appendFileSync(file, `${JSON.stringify({ token, kind, at, b64: Buffer.from(raw, 'utf8').toString('base64') })}\n`);
}

export async function runHook(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [kind, arg] = args;
  const file = env.RELEVO_HOOK_FILE;
  if (kind && file && env.RELEVO_HOOK_TOKEN) {
    try {
      append(file, env.RELEVO_HOOK_TOKEN, kind, arg ?? (await readStdin()));
    } catch {
      // Not JSON, or the spool is gone: the agent must not notice.
    }
    return 0;
  }
  const socketPath = env.RELEVO_HOOK_SOCKET;
  const token = env.RELEVO_HOOK_TOKEN;
  const role = env.RELEVO_ROLE;
  if (!kind || !socketPath || !token || !role) return 0;
  // Stamped before anything slow: a report that reaches relevo late still says which turn it ended.
  const at = Date.now();
  try {
    const raw = arg ?? (await readStdin());
    const payload: unknown = JSON.parse(raw);
    await send(socketPath, `${JSON.stringify({ token, role, kind, payload, at })}\n`);
  } catch {
    // Not JSON, or relevo is gone: the agent must not notice.
  }
  return 0;
}
