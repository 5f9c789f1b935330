import { isLookalike } from './header.js';

export type Extracted = {
  /** Body of the last complete `<handoff>…</handoff>`, or null. */
  readonly handoff: string | null;
  /** Summary of the last complete `<done>…</done>`, or null. */
  readonly done: string | null;
};

/** Body of the last complete `<tag>…</tag>` in `text`, normalized; null when there is none. */
export function lastBlock(text: string, tag: string): string | null {
  const close = `</${tag}>`;
  const open = `<${tag}>`;
  const end = text.lastIndexOf(close);
  if (end < 0) return null;
  const start = text.lastIndexOf(open, end);
  if (start < 0) return null;
  return normalizeBody(text.slice(start + open.length, end));
}

/** Trailing spaces dropped, blank lines around the body dropped; inner indentation kept. */
export function normalizeBody(body: string): string {
  const lines = body.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/**
 * What a finished turn hands over, from a reply already through `normalizeReply`. Header-like lines
 * inside the handoff body are cut: the receiving agent must never see a forged round header.
 */
export function extract(reply: string): Extracted {
  const done = lastBlock(reply, 'done')?.trim() ?? null;
  const raw = lastBlock(reply, 'handoff');
  if (raw === null) return { handoff: null, done };
  const handoff = normalizeBody(
    raw
      .split('\n')
      .filter((line) => !isLookalike(line))
      .join('\n'),
  );
  return { handoff: handoff === '' ? null : handoff, done };
}
