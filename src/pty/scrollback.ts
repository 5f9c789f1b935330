/**
 * The scrollback above a pane's headless terminal: each line leaving xterm's buffer at the top is
 * copied as xterm holds it, up to its last non-blank cell, into reused segments — far smaller than
 * xterm's own lines, and a long flood allocates nothing. screen.ts's helper.
 */
import { type CellSlot, CODE_MASK, WIDTH_ONE, WIDTH_SHIFT, WORDS_PER_CELL, type XtermLine } from './xterm-internals.js';

/** A line's record: [cells << 1 | wrapped, cols], then its cells' words. */
const HEAD = 2;
/** 256 KiB segments: above glibc's mmap threshold, so a dropped one goes back to the system. */
const SEGMENT_WORDS = 1 << 16;

type Segment = {
  readonly words: Uint32Array;
  used: number;
  /** Lines in the segment. */
  lines: number;
  /** Where each line's record starts, for the first `offsets.length` lines (built when read). */
  readonly offsets: number[];
};

/** The line's extra parts, kept aside (rare): combined characters and extended attributes. */
type Extras = { readonly combined: Readonly<Record<number, string>>; readonly extended: Readonly<Record<number, unknown>> };

const hasKeys = (o: object): boolean => {
  for (const _ in o) return true;
  return false;
};

/** Cells of `data` up to the last one that is not a default blank (no character, default colours). */
function usedCells(data: Uint32Array, cols: number): number {
  let c = cols;
  while (c > 0) {
    const k = (c - 1) * WORDS_PER_CELL;
    const content = data[k]!;
    if ((content !== 0 && content !== WIDTH_ONE) || data[k + 1] !== 0 || data[k + 2] !== 0) break;
    c--;
  }
  return c;
}

export class Scrollback {
  readonly #keep: number;
  readonly #segments: Segment[] = [];
  /** A segment emptied by eviction, kept for the next one. */
  #spare: Uint32Array | undefined;
  #length = 0;
  #dropped = 0;
  /** Lines of the oldest segment already gone (it goes itself once all of them are). */
  #gone = 0;
  readonly #extras = new Map<number, Extras>();

  /** Keeps the last `keep` lines (a segment's memory goes with its last line). */
  constructor(keep: number) {
    this.#keep = Math.max(0, keep);
  }

  /** Lines kept. */
  get length(): number {
    return this.#length;
  }

  /** Lines gone from the top so far: line `i` is the `dropped + i`-th line ever kept here. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Keeps `line` (the newest). */
  add(line: XtermLine): void {
    const data = line._data;
    const cols = line.length;
    let segment = this.#segments[this.#segments.length - 1];
    if (segment === undefined || segment.used + HEAD + data.length > segment.words.length) segment = this.#grow(data.length);
    const at = segment.used;
    const words = segment.words;
    // The whole line (one copy, no allocation); only its used cells count, the next line overwrites the rest.
    words.set(data, at + HEAD);
    const cells = usedCells(data, cols);
    words[at] = (cells << 1) | (line.isWrapped ? 1 : 0);
    words[at + 1] = cols;
    segment.used = at + HEAD + cells * WORDS_PER_CELL;
    segment.lines++;
    if (hasKeys(line._combined) || hasKeys(line._extendedAttrs)) {
      this.#extras.set(this.#dropped + this.#length, { combined: { ...line._combined }, extended: { ...line._extendedAttrs } });
    }
    this.#length++;
    if (this.#length > this.#keep) this.#dropOldest();
  }

  /** A line left the terminal and is not kept (it was erased): the lines after it count on. */
  skip(): void {
    this.#dropped++;
  }

  /** Forgets every line (the terminal's scrollback was erased). */
  clear(): void {
    this.#dropped += this.#length;
    this.#length = 0;
    this.#segments.length = 0;
    this.#gone = 0;
    this.#spare = undefined;
    this.#extras.clear();
  }

  /** Line `i`: read like a line of xterm's buffer (`slot` is the cell its reads fill). */
  row(i: number, slot: CellSlot): ScrollbackRow {
    const [segment, at] = this.#find(i);
    return new ScrollbackRow(segment.words, at, this.#extras.get(this.#dropped + i), slot);
  }

  /** Line `i` continues the one above it (the terminal wrapped it there). */
  wrapped(i: number): boolean {
    const [segment, at] = this.#find(i);
    return (segment.words[at]! & 1) === 1;
  }

  /** The oldest line goes; its segment too once it holds no line kept (its memory is reused by the next one). */
  #dropOldest(): void {
    this.#extras.delete(this.#dropped);
    this.#dropped++;
    this.#length--;
    const oldest = this.#segments[0]!;
    if (++this.#gone < oldest.lines) return;
    this.#segments.shift();
    this.#gone = 0;
    this.#spare = oldest.words;
  }

  /** A new last segment, for a line of `words` cell words. */
  #grow(words: number): Segment {
    const size = Math.max(SEGMENT_WORDS, HEAD + words);
    const reuse = this.#spare !== undefined && this.#spare.length >= size ? this.#spare : undefined;
    this.#spare = undefined;
    const segment: Segment = { words: reuse ?? new Uint32Array(size), used: 0, lines: 0, offsets: [] };
    this.#segments.push(segment);
    return segment;
  }

  /** Line `i`'s segment and where its record starts. */
  #find(i: number): [Segment, number] {
    if (i < 0 || i >= this.#length) throw new RangeError(`scrollback: no line ${i} of ${this.#length}`);
    let k = i + this.#gone;
    for (const segment of this.#segments) {
      if (k >= segment.lines) {
        k -= segment.lines;
        continue;
      }
      const offsets = segment.offsets;
      let at = offsets.length === 0 ? 0 : offsets[offsets.length - 1]!;
      if (offsets.length === 0) offsets.push(0);
      while (offsets.length <= k) {
        at += HEAD + (segment.words[at]! >>> 1) * WORDS_PER_CELL;
        offsets.push(at);
      }
      return [segment, offsets[k]!];
    }
    throw new RangeError(`scrollback: no line ${i}`);
  }
}

/** A kept line, read as xterm's lines are (`length`, `isWrapped`, `getCell`, `translateToString`). */
export class ScrollbackRow {
  readonly #words: Uint32Array;
  readonly #at: number;
  readonly #cells: number;
  readonly #extras: Extras | undefined;
  readonly #slot: CellSlot;
  /** The line's width when it left the terminal. */
  readonly length: number;
  readonly isWrapped: boolean;

  constructor(words: Uint32Array, at: number, extras: Extras | undefined, slot: CellSlot) {
    this.#words = words;
    this.#at = at;
    this.#cells = words[at]! >>> 1;
    this.#extras = extras;
    this.#slot = slot;
    this.length = words[at + 1]!;
    this.isWrapped = (words[at]! & 1) === 1;
  }

  /** Cell `x` into `slot` (the row's own by default); a default blank past the cells kept. */
  getCell(x: number, slot: CellSlot = this.#slot): CellSlot {
    if (x >= 0 && x < this.#cells) {
      const k = this.#at + HEAD + x * WORDS_PER_CELL;
      slot.content = this.#words[k]!;
      slot.fg = this.#words[k + 1]!;
      slot.bg = this.#words[k + 2]!;
      slot.combinedData = this.#extras?.combined[x] ?? '';
      const extended = this.#extras?.extended[x];
      if (extended !== undefined) slot.extended = extended;
    } else {
      slot.content = WIDTH_ONE;
      slot.fg = 0;
      slot.bg = 0;
      slot.combinedData = '';
    }
    return slot;
  }

  /** The text of columns `from` to `to`, as xterm's own lines give it (a blank cell is a space). */
  translateToString(trimRight = false, from = 0, to = this.length): string {
    const end = trimRight ? Math.min(to, this.#trimmedLength()) : to;
    let out = '';
    for (let x = from; x < end; ) {
      const cell = this.getCell(x);
      const chars = cell.getChars();
      out += chars === '' ? ' ' : chars;
      x += cell.getWidth() || 1;
    }
    return out;
  }

  /** Columns up to the end of the last character (xterm's trimmed length). */
  #trimmedLength(): number {
    for (let x = this.#cells - 1; x >= 0; x--) {
      const content = this.#words[this.#at + HEAD + x * WORDS_PER_CELL]!;
      if ((content & CODE_MASK) !== 0) return x + (content >>> WIDTH_SHIFT);
    }
    return 0;
  }
}
