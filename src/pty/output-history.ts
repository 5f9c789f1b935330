/**
 * A pane's output history: a bounded, sanitized text log of what the program printed, fed with the
 * same bytes as its Screen (UTF-8 and escape sequences may be split across chunks). The screen is
 * what a person sees; this is what was said, even where the screen was cleared, redrawn, switched or
 * scrolled past its scrollback. The running text is trimmed to a window; the complete `<handoff>` and
 * `<done>` blocks that leave it are kept, so a turn's last block is found after any amount of output.
 * Output that can hold no tag and start no control string is read only when the text is asked for,
 * so most of a flood leaves the window without ever being stripped.
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
  /**
   * Characters of running text kept: at least the text of the output's last `window` characters
   * (a window of text where it was read, from a line start where it was dropped unread).
   */
  readonly window: number;
  /** A block still open is kept whole up to this many characters (and so are the blocks kept per tag). */
  readonly block: number;
};

export const DEFAULT_LIMITS: HistoryLimits = { window: 256 * 1024, block: 4 * 1024 * 1024 };
/** Blocks kept per tag once their text left the window. */
const KEPT = 8;
/** Characters of one write kept for the next, to find an opening tag split between them: all of one but its last. */
const CARRY = Math.max(...TAGS.map((tag) => tag.length + 1));
/**
 * What a write must be read for at once (one pattern: one scan of it): a `<` that may open a tag in
 * the text — before h or d (`<handoff>`, `<done>`), or before anything but printable ASCII (an
 * escape sequence the text leaves out, a control, the write's end) — or the start of a control
 * string: ESC then ] P X ^ _, or a C1 DCS, SOS, OSC, PM or APC.
 */
const MUST_READ = /<(?:[hd]|[^\x20-\x7e]|$)|\x1b[\]PX^_]|[\x90\x98\x9d-\x9f]/;
/** A control string begun by an ESC that ended the write before. */
const STRING_AFTER_ESC = /^[\]PX^_]/;

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
  /**
   * Writes not read yet: output that can open no tag and start no control string is logged only
   * when the text is read, so a flood that leaves the window unread is never stripped.
   */
  #pending: string[] = [];
  /** Characters in `#pending`. */
  #pendingLength = 0;
  /** The last character written (read or not): an ESC there makes the next write's first character part of a sequence. */
  #last = '';

  constructor(limits: HistoryLimits = DEFAULT_LIMITS) {
    this.#limits = limits;
    this.#trimAt = 2 * limits.window;
  }

  /**
   * Logs `data`; returns it decoded for the pane's Screen, every control string ended at its line's
   * end (a C1 control or an unterminated OSC would otherwise swallow all the later output).
   */
  write(data: Uint8Array | string): string {
    const chunk = typeof data === 'string' ? data : this.#decoder.decode(data, { stream: true });
    const last = this.#last;
    this.#last = chunk === '' ? last : chunk[chunk.length - 1]!;
    if (this.#deferrable(chunk, last)) {
      this.#pending.push(chunk);
      this.#pendingLength += chunk.length;
      if (this.#pendingLength > 2 * this.#limits.window) this.#relieve();
      return chunk;
    }
    this.#flush();
    return this.#log(chunk);
  }

  /**
   * `chunk` can wait to be read: no control string is open or begins in it (so the terminal gets it
   * as it is), it holds no `<` that may open a tag, and no tag was begun by the text before it.
   */
  #deferrable(chunk: string, last: string): boolean {
    if (this.#stripper.inString || this.#carry.includes('<')) return false;
    if (last === '\x1b' && STRING_AFTER_ESC.test(chunk)) return false;
    return !MUST_READ.test(chunk);
  }

  /** Logs the writes that waited, in order. */
  #flush(): void {
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingLength = 0;
    for (const chunk of pending) this.#log(chunk);
  }

  /**
   * Too much output waits unread: unless a block is open or in the text, everything before the last
   * line feed that leaves at least a window of it is dropped without being read (after an LF the
   * text goes on as it would have); else, or with no such line feed, it is read now and trimmed.
   */
  #relieve(): void {
    const cut = this.#lastOpen < this.#base ? this.#lineFeedBefore(this.#pendingLength - this.#limits.window) : null;
    if (cut === null) {
      this.#flush();
      return;
    }
    const [index, at] = cut;
    const dropped = this.#pending.slice(0, index).reduce((n, c) => n + c.length, 0) + at + 1;
    const rest = this.#pending[index]!.slice(at + 1);
    this.#pending = [...(rest === '' ? [] : [rest]), ...this.#pending.slice(index + 1)];
    this.#pendingLength -= dropped;
    // Offsets go on counting the characters of output dropped unread: each stays a place in the log.
    this.#base += this.#length + dropped;
    this.#chunks = [];
    this.#length = 0;
    this.#trimAt = 2 * this.#limits.window;
    this.#carry = '';
    this.#stripper.afterLineFeed();
  }

  /** The last LF in the waiting writes before character `end` of them: [write, index in it], or null. */
  #lineFeedBefore(end: number): [number, number] | null {
    let start = this.#pendingLength;
    for (let i = this.#pending.length - 1; i >= 0; i--) {
      const chunk = this.#pending[i]!;
      start -= chunk.length;
      if (start >= end) continue;
      const at = chunk.lastIndexOf('\n', end - start - 1);
      if (at >= 0) return [i, at];
    }
    return null;
  }

  /** Logs `chunk` now; returns it for the terminal. */
  #log(chunk: string): string {
    const { text, screen } = this.#stripper.feed(chunk);
    if (text === '') return screen;
    this.#noteOpenTags(text);
    this.#chunks.push(text);
    this.#length += text.length;
    if (this.#length > this.#trimAt) this.#trim();
    return screen;
  }

  /** Where the log ends now: a turn reads what comes after it. */
  get offset(): number {
    this.#flush();
    return this.#base + this.#length;
  }

  /** Characters of running text held now (bounded). */
  get size(): number {
    this.#flush();
    return this.#length + TAGS.reduce((n, tag) => n + this.#kept[tag].reduce((m, b) => m + b.text.length, 0), 0);
  }

  /** The running text after `offset`, as far as the window still holds it. */
  textSince(offset: number): string {
    this.#flush();
    return this.#text().slice(Math.max(0, offset - this.#base));
  }

  /** The complete blocks that opened at or after `offset`, oldest first. */
  blocksSince(offset: number): LoggedBlocks {
    this.#flush();
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
