// `relevo-tui sim-agent`: a simulated agent CLI for demos and tests.

import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runAgent } from './agent.js';
import { runStopHooks, stopHookCommands } from './hooks.js';
import { parseSimArgs } from './options.js';

export { runAgent, type SimIO } from './agent.js';
export { parseSimArgs, type SimOptions } from './options.js';
export type { Misbehaviour, MisbehaviourKind, Role } from './script.js';

/** Run the sim on process.stdin/stdout; resolves with the exit code (2 for bad flags). */
export async function runSimAgent(args: string[]): Promise<number> {
  const parsed = parseSimArgs(args);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  let record: ((message: string) => void) | undefined;
  if (parsed.options.record !== undefined) {
    const file = resolve(parsed.options.record);
    try {
      appendFileSync(file, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      process.stderr.write(`sim-agent: --record: cannot write ${file} (${reason})\n`);
      return 2;
    }
    record = (message) => {
      try {
        appendFileSync(file, `${JSON.stringify({ text: message })}\n`);
      } catch {
        // The file was writable at start; losing a record is better than killing the session.
      }
    };
  }
  let onStop: ((reply: string) => void) | undefined;
  if (parsed.options.settings !== undefined) {
    let commands: string[];
    try {
      commands = stopHookCommands(parsed.options.settings);
    } catch (error) {
      process.stderr.write(`sim-agent: --settings: ${(error as Error).message}\n`);
      return 2;
    }
    const sessionId = randomUUID();
    onStop = (reply) =>
      runStopHooks(commands, { session_id: sessionId, transcript_path: '', cwd: process.cwd(), last_assistant_message: reply });
  }
  return runAgent(parsed.options, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    ...(onStop ? { onStop } : {}),
    ...(record ? { record } : {}),
  });
}
