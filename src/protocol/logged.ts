/**
 * The reply a turn's output log holds (src/pty/output-history.ts): what the agent printed, even where
 * its screen was cleared, redrawn or scrolled away. Pure: works on the blocks the log kept.
 */
import { lastBlock } from './blocks.js';
import { type ReplyLayout, stripGutter } from './reply.js';
import { normalizeReply } from './sanitize.js';

/** Complete blocks from the log, oldest first, each from its opening tag through its closing tag. */
export type LoggedBlocks = { readonly handoff: readonly string[]; readonly done: readonly string[] };

const collapsed = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A block is the echo of what relevo typed this turn (a role prompt shows `<handoff>` examples). */
export function isEcho(body: string, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const b = collapsed(body);
  return b !== '' && collapsed(normalizeReply(sent)).includes(b);
}

/** The last of `blocks` that is the agent's own (not an echo), rendering undone; null when none is. */
function lastOwn(blocks: readonly string[], tag: string, layout: ReplyLayout, sent: string | undefined): string | null {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const text = stripGutter(normalizeReply(blocks[i]!).split('\n'), layout).join('\n');
    const body = lastBlock(text, tag);
    if (body !== null && body !== '' && !isEcho(body, sent)) return text;
  }
  return null;
}

/** The turn's last handoff and done blocks from its output log, as a reply; null when it has neither. */
export function replyFromLog(blocks: LoggedBlocks, layout: ReplyLayout, sent?: string): string | null {
  const parts = [lastOwn(blocks.handoff, 'handoff', layout, sent), lastOwn(blocks.done, 'done', layout, sent)].filter((p) => p !== null);
  return parts.length === 0 ? null : parts.join('\n');
}

/** The log shows the agent's interruption marker (its partial reply must not be relayed). */
export function logShowsInterruption(text: string, layout: ReplyLayout): boolean {
  const markers = layout.interrupted ?? [];
  if (markers.length === 0) return false;
  return normalizeReply(text)
    .split('\n')
    .some((line) => markers.some((re) => re.test(line)));
}
