import { readFileSync } from 'node:fs';

/** A file's text, or null when it cannot be read (a HANDOFF.md the message names, say). */
export function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
