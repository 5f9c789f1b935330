import type { Role } from './roles.js';

// What the relay's messages need of a checkpoint without its schemas (and zod with them):
// messages.ts and restart.ts are on the TUI's first frame, the schemas are not.

/** `<from>/checkpoints/<seq>`: a checkpoint's directory inside its run, always with `/`. */
export function checkpointPath(from: Role, seq: number): string {
  return `${from}/checkpoints/${seq}`;
}

/** Size of the body, as the limits count it. */
export function bodySize(body: string): { bytes: number; lines: number } {
  return { bytes: new TextEncoder().encode(body).length, lines: body.split('\n').length };
}
