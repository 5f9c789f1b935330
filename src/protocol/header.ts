import { isRole, type Role } from './roles.js';
import { readingForm } from './sanitize.js';

/**
 * relevo 0.2.0's wire format: `[relevo ronda N · de planner]` (U+00B7, single spaces),
 * always in Spanish whatever the role prompts' language.
 */
const HEADER_RE = /^\[relevo ronda ([1-9]\d*) · de (planner|builder)\]$/;

/** Anything an agent could write that a reader might take for a round header. */
const LOOKALIKE_RE = /\[\s*relevo\s+(?:ronda|round)\b[^\]\n]*\]/i;

export type Header = { readonly round: number; readonly from: Role };

export function formatHeader(round: number, from: Role): string {
  if (!Number.isInteger(round) || round < 1) throw new RangeError(`round must be a positive integer, got ${round}`);
  return `[relevo ronda ${round} · de ${from}]`;
}

export function parseHeader(line: string): Header | null {
  const m = HEADER_RE.exec(line);
  const from = m?.[2];
  if (!m || from === undefined || !isRole(from)) return null;
  return { round: Number(m[1]), from };
}

/**
 * True when a line of an agent's own output looks like a relevo round header to a reader: read
 * through its controls and escapes, NFKC (fullwidth brackets and letters) and invisible characters.
 */
export function isLookalike(line: string): boolean {
  return LOOKALIKE_RE.test(line) || LOOKALIKE_RE.test(readingForm(line));
}

/** Lines of `text` that look like round headers, trimmed. */
export function findLookalikes(text: string): string[] {
  return text
    .split('\n')
    .filter(isLookalike)
    .map((l) => l.trim());
}
