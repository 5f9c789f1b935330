// Claude Code-style `Stop` hooks for the simulator: `--settings FILE` names a settings file whose
// `hooks.Stop[].hooks[]` commands run through the shell, with the hook's JSON on stdin, each time
// a turn has been answered. An interrupted turn runs no hook, as in Claude Code.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const settingsSchema = z.looseObject({
  hooks: z
    .looseObject({
      Stop: z.array(z.looseObject({ hooks: z.array(z.looseObject({ type: z.string(), command: z.string().optional() })) })).optional(),
    })
    .optional(),
});

/** The Stop hook commands of a settings file; throws with a one-line reason when it cannot be read. */
export function stopHookCommands(file: string): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: not a settings object`);
  return (parsed.data.hooks?.Stop ?? []).flatMap((m) => m.hooks.flatMap((h) => (h.type === 'command' && h.command ? [h.command] : [])));
}

/** Runs each command with the Stop payload on stdin; never waits for it, never fails the sim. */
export function runStopHooks(commands: readonly string[], payload: Record<string, unknown>): void {
  const input = JSON.stringify({ hook_event_name: 'Stop', stop_hook_active: false, ...payload });
  for (const command of commands) {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  }
}
