/**
 * A pane's output history: a bounded, sanitized text log of what the program printed, fed with the
 * same bytes as its Screen (UTF-8 and escape sequences may be split across chunks). The screen is
 * what a person sees; this is what was said, even where the screen was cleared, redrawn, switched or
 * scrolled past its scrollback. The running text is trimmed to a window; the complete `<handoff>` and
 * `<done>` blocks that leave it are kept, so a turn's last block is found after any amount of output.
 */
import {
  type LoggedBlocks,
  lastBlock,
  logShowsInterruption,
  normalizeReply,
  type Reconstructed,
  type ReplyLayout,
  replyFromLog,
} from '../protocol/index.js';
import { EscapeStripper } from './escapes.js';

const TAGS = ['handoff', 'done'] as const;
type Tag = (typeof TAGS)[number];

/** A complete block and the log offset of its opening tag. */
type Block = { readonly at: number; readonly text: string };

export type HistoryLimits = {
  /** Characters of running text kept. */
  readonly window: number;
  /** A block still open is kept whole up to this many characters (and so are the blocks kept per tag). */
  readonly block: number;
};

export const DEFAULT_LIMITS: HistoryLimits = { window: 256 * 1024, block: 4 * 1024 * 1024 };
/** Blocks kept per tag once their text left the window. */
const KEPT = 8;
/** Characters of one write kept for the next, to find an opening tag split between them: all of one but its last. */
const CARRY = Math.max(...TAGS.map((tag) => tag.length + 1));

/** Every complete block of `tag` in `text`, oldest first: each closing tag with the nearest opening one before it. */
function blocksIn(text: string, tag: Tag, base: number): Block[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const found: Block[] = [];
  let end = text.lastIndexOf(close);
  while (end >= 0) {
    const start = text.lastIndexOf(open, end);
    if (start < 0) break;
    found.push({ at: base + start, text: text.slice(start, end + close.length) });
    end = start === 0 ? -1 : text.lastIndexOf(close, start - 1);
  }
  return found.reverse();
}

export class OutputHistory {
  readonly #decoder = new TextDecoder('utf-8');
  readonly #stripper = new EscapeStripper();
  readonly #limits: HistoryLimits;
  /**
   * The running text, as the writes appended it (joined only when read): appending to one string
   * would copy the whole window at every trim — the flood's largest cost after parsing.
   */
  #chunks: string[] = [];
  /** Characters in `#chunks`. */
  #length = 0;
  /** Log offset of the running text's first character: what was trimmed before it. */
  #base = 0;
  /** Trim again once the running text is this long (not on every write while a long block is open). */
  #trimAt: number;
  readonly #kept: Record<Tag, Block[]> = { handoff: [], done: [] };
  /** Log offset of the last opening tag written (-1: none yet): a trim with none left in the text only cuts. */
  #lastOpen = -1;
  /** The end of the text written last, where an opening tag split across writes begins. */
  #carry = '';

  constructor(limits: HistoryLimits = DEFAULT_LIMITS) {
    this.#limits = limits;
    this.#trimAt = 2 * limits.window;
  }

  /**
   * Logs `data`; returns it decoded for the pane's Screen, every control string ended at its line's
   * end (a C1 control or an unterminated OSC would otherwise swallow all the later output).
   */
  write(data: Uint8Array | string): string {
    const { text, screen } = this.#stripper.feed(typeof data === 'string' ? data : this.#decoder.decode(data, { stream: true }));
    if (text === '') return screen;
    this.#noteOpenTags(text);
    this.#chunks.push(text);
    this.#length += text.length;
    if (this.#length > this.#trimAt) this.#trim();
    return screen;
  }

  /** Where the log ends now: a turn reads what comes after it. */
  get offset(): number {
    return this.#base + this.#length;
  }

  /** Characters of running text held now (bounded). */
  get size(): number {
    return this.#length + TAGS.reduce((n, tag) => n + this.#kept[tag].reduce((m, b) => m + b.text.length, 0), 0);
  }

  /** The running text after `offset`, as far as the window still holds it. */
  textSince(offset: number): string {
    return this.#text().slice(Math.max(0, offset - this.#base));
  }

  /** The complete blocks that opened at or after `offset`, oldest first. */
  blocksSince(offset: number): LoggedBlocks {
    const text = this.#text();
    const of = (tag: Tag) => [...this.#kept[tag], ...blocksIn(text, tag, this.#base)].filter((b) => b.at >= offset).map((b) => b.text);
    return { handoff: of('handoff'), done: of('done') };
  }

  /** The running text as one string (kept joined until the next write). */
  #text(): string {
    if (this.#chunks.length > 1) this.#chunks = [this.#chunks.join('')];
    return this.#chunks[0] ?? '';
  }

  /** Keeps `#lastOpen` up to date with `text`, about to be appended (read once, not at every trim). */
  #noteOpenTags(text: string): void {
    const carry = this.#carry;
    this.#carry = text.length >= CARRY ? text.slice(-CARRY) : (carry + text).slice(-CARRY);
    if (!text.includes('<') && !carry.includes('<')) return;
    const seen = carry + text;
    const from = this.offset - carry.length;
    for (const tag of TAGS) {
      const at = seen.lastIndexOf(`<${tag}>`);
      if (at >= 0) this.#lastOpen = Math.max(this.#lastOpen, from + at);
    }
  }

  /** Cuts the running text to the window, never inside a block still open (unless it outgrew its limit). */
  #trim(): void {
    if (this.#lastOpen < this.#base) {
      // No opening tag in the text: no block to keep, none open; whole writes are dropped.
      let cut = this.#length - this.#limits.window;
      this.#base += cut;
      this.#length -= cut;
      while (cut > 0 && this.#chunks[0]!.length <= cut) cut -= this.#chunks.shift()!.length;
      if (cut > 0) this.#chunks[0] = this.#chunks[0]!.slice(cut);
      this.#trimAt = 2 * this.#limits.window;
      return;
    }
    const text = this.#text();
    let cut = text.length - this.#limits.window;
    for (const tag of TAGS) {
      const open = text.lastIndexOf(`<${tag}>`, cut - 1);
      if (open < 0) continue;
      const close = text.indexOf(`</${tag}>`, open);
      const closedBefore = close >= 0 && close + tag.length + 3 <= cut;
      if (!closedBefore && text.length - open <= this.#limits.block) cut = Math.min(cut, open);
    }
    this.#trimAt = Math.max(2 * this.#limits.window, text.length - Math.max(cut, 0) + this.#limits.window);
    if (cut <= 0) return;
    for (const tag of TAGS) this.#keep(tag, blocksIn(text.slice(0, cut), tag, this.#base));
    this.#chunks = [text.slice(cut)];
    this.#length -= cut;
    this.#base += cut;
  }

  #keep(tag: Tag, blocks: readonly Block[]): void {
    const kept = [...this.#kept[tag], ...blocks.filter((b) => b.text.length <= this.#limits.block)].slice(-KEPT);
    let total = kept.reduce((n, b) => n + b.text.length, 0);
    while (kept.length > 1 && total > this.#limits.block) total -= kept.shift()!.text.length;
    this.#kept[tag] = kept;
  }
}

/**
 * The turn's reply from its screen, or from the pane's output history (what the agent printed since
 * `from`) when the screen shows no handoff and no done block: cleared, redrawn, switched or scrolled
 * away. Either shows the agent's interruption marker: interrupted.
 */
export function withHistory(
  screen: Reconstructed,
  history: OutputHistory | undefined,
  from: number,
  layout: ReplyLayout,
  sent?: string,
): Reconstructed {
  if (history === undefined) return screen;
  const interrupted = screen.interrupted || logShowsInterruption(history.textSince(from), layout);
  const shown = normalizeReply(screen.text);
  if (lastBlock(shown, 'handoff') !== null || lastBlock(shown, 'done') !== null) return { text: screen.text, interrupted };
  return { text: replyFromLog(history.blocksSince(from), layout, sent) ?? screen.text, interrupted };
}
