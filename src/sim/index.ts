// `relevo-tui sim-agent`: a simulated agent CLI for demos and tests.

import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runAgent } from './agent.js';
import { runStopHooks, stopHookCommands } from './hooks.js';
import { parseSimArgs } from './options.js';
import type { Block } from './script.js';

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
  let printed: ((block: Block) => void) | undefined;
  if (parsed.options.record !== undefined) {
    const file = resolve(parsed.options.record);
    try {
      appendFileSync(file, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      process.stderr.write(`sim-agent: --record: cannot write ${file} (${reason})\n`);
      return 2;
    }
    const append = (line: Record<string, string>) => {
      try {
        appendFileSync(file, `${JSON.stringify(line)}\n`);
      } catch {
        // The file was writable at start; losing a record is better than killing the session.
      }
    };
    // `{"text": …}` a message received; `{"handoff": …}` or `{"done": …}` a block printed at the end of a turn.
    record = (message) => append({ text: message });
    printed = (block) => append({ [block.tag]: block.body });
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
    ...(printed ? { printed } : {}),
  });
}
