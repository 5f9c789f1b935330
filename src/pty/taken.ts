import { chromeStart, parseHeader, type ReplyLayout } from '../protocol/index.js';
import type { Pane } from './pane.js';

/** How many of a message's words must show, in order, for it to count as the agent's. */
const WORDS = 40;

/** Text with every run of white space one space: as a box or a conversation shows it, whatever its wrapping. */
export const words = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The last of `lines` above `chrome` where `message` shows from its round header on (a notice before
 * it, such as a restart's, may show folded): the header, then its first words in order; else -1.
 */
function takenLine(lines: readonly string[], message: string, chrome: number): number {
  const all = message.split('\n');
  const at = Math.max(
    0,
    all.findIndex((line) => parseHeader(line) !== null),
  );
  const header = all[at]!.trim();
  const wanted = words(all.slice(at).join('\n')).split(' ').slice(0, WORDS).join(' ');
  if (header === '' || chrome < 0) return -1;
  for (let i = Math.min(chrome, lines.length) - 1; i >= 0; i--) {
    const from = lines[i]!.indexOf(header);
    if (from >= 0 && words([lines[i]!.slice(from), ...lines.slice(i + 1, chrome)].join('\n')).startsWith(wanted)) return i;
  }
  return -1;
}

/**
 * On a re-offer: the visible row where `message` shows in the agent's conversation, above its input
 * box; 0 when it scrolled above the screen (the pane's recent output shows it). The agent lived on
 * and took it before relevo stopped (submitted, its ack not written): typed again, it would have it
 * twice. Null when it is not there, or when the input box cannot be told apart.
 */
export async function takenRow(pane: Pane, layout: ReplyLayout, message: string): Promise<number | null> {
  const screen = pane.screen;
  const rows = screen.rowsFrom(0);
  const top = Math.max(0, rows.length - screen.rows);
  const chrome = chromeStart(screen.snapshot().viewport, layout);
  if (chrome < 0) return null;
  const lines: { text: string; at: number }[] = [];
  rows.slice(0, top + chrome).forEach((row, at) => {
    const last = lines.at(-1);
    if (row.wrapped && last) last.text += row.text;
    else lines.push({ text: row.text, at });
  });
  const found = takenLine(
    lines.map((l) => l.text),
    message,
    lines.length,
  );
  if (found >= 0) return Math.max(0, lines[found]!.at - top);
  const recent = (await (pane.readHistory?.() ?? pane.readRecent?.() ?? null)?.catch(() => null))?.split('\n');
  return recent !== undefined && takenLine(recent, message, chromeStart(recent, layout)) >= 0 ? 0 : null;
}
