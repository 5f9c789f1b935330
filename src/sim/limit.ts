// The simulated usage limit (`--misbehave limit:N`): a turn stopped with a reset a few seconds ahead.
import type { InputEvent } from './input.js';

/** How far ahead the simulated limit resets. */
export const LIMIT_RESET_MS = 3000;

/** The line a limited turn ends with, Claude Code-like; `resets in Ns` is when it goes away. */
export function limitLines(leftMs: number): string[] {
  return [`  ⎿ Usage limit reached · resets in ${Math.max(1, Math.ceil(leftMs / 1000))}s`, ''];
}

/** Until when the sim's limit holds: a message sent before then gets the limit screen again. */
export class UsageLimit {
  #until = 0;

  active(now: number): boolean {
    return now < this.#until;
  }

  /** The limit is hit now (or is still on): the lines that end the turn. */
  hit(now: number): string[] {
    if (!this.active(now)) this.#until = now + LIMIT_RESET_MS;
    return limitLines(this.#until - now);
  }
}

/** A key on the permission prompt: allow (Enter, 1), deny (Esc, 2), or null for any other. */
export function permissionAnswer(event: InputEvent): boolean | null {
  const key = event.type === 'text' ? event.text[0] : undefined;
  if (event.type === 'enter' || key === '1') return true;
  if (event.type === 'escape' || key === '2') return false;
  return null;
}
