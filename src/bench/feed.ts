/**
 * Synthetic agent traffic for the render bench: what an Ink-style agent CLI writes to its pane while
 * it streams a reply, and a coloured log as a flood. Deterministic (seeded), so runs compare.
 */

/** The pane the feed draws for, and how often it updates. */
export const COLS = 98;
export const ROWS = 46;
export const UPDATES_PER_S = 20;

const E = '\x1b[';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the handler now returns a page object with items and a cursor so callers can fetch the next page without offsets we keep the default size at fifty and cap it at two hundred tests cover empty pages'.split(
    ' ',
  );

/**
 * An agent CLI's screen traffic, the way Ink-style CLIs draw it: a dynamic region at the bottom
 * (streaming line, spinner, input box, footer) erased and rewritten on every update; when the
 * streaming line is full it is committed above the region and the screen scrolls.
 */
export class AgentFeed {
  readonly #rand = rng(42);
  #line = '';
  #lineCols = 0;
  #tick = 0;
  #first = true;

  /** Fills the screen with an earlier transcript. */
  preamble(): string {
    const lines: string[] = [];
    for (let i = 0; i < ROWS; i++) lines.push(this.#sentence(COLS - 8));
    return `${lines.join('\r\n')}\r\n`;
  }

  next(): string {
    this.#tick++;
    let committed: string | undefined;
    const add = 2 + Math.floor(this.#rand() * 2); // ~12 characters an update: ~240 chars/s
    for (let i = 0; i < add; i++) {
      const word = this.#word();
      if (this.#lineCols + word.cols + 1 > COLS - 4) {
        committed = this.#line;
        this.#line = '';
        this.#lineCols = 0;
      }
      this.#line += (this.#lineCols ? ' ' : '  ') + word.text;
      this.#lineCols += word.cols + (this.#lineCols ? 1 : 2);
    }
    const spinner = '✢✳✶✻✽'[this.#tick % 5]!;
    const secs = Math.floor(this.#tick / UPDATES_PER_S);
    const region = [
      ...(committed === undefined ? [] : [committed]),
      this.#line,
      '',
      `${E}38;2;215;119;87m${spinner}${E}0m ${E}1mPondering…${E}0m ${E}2m(${secs}s · ↓ ${(this.#tick * 3.1).toFixed(0)} tokens · esc to interrupt)${E}0m`,
      '',
      `${E}38;5;244m╭${'─'.repeat(COLS - 2)}╮${E}0m`,
      `${E}38;5;244m│${E}0m > ${' '.repeat(COLS - 5)}${E}38;5;244m│${E}0m`,
      `${E}38;5;244m╰${'─'.repeat(COLS - 2)}╯${E}0m`,
      `  ${E}2m⏵⏵ accept edits on ${E}22;38;2;120;120;120m(shift+tab to cycle)${E}0m`,
    ];
    const up = this.#first ? '' : `${E}7A\r`; // back to the streaming line (the region is 8 rows)
    this.#first = false;
    return `${E}?2026h${up}${region.map((l) => `${E}2K${l}`).join('\r\n')}${E}?2026l`;
  }

  #word(): { text: string; cols: number } {
    const w = WORDS[Math.floor(this.#rand() * WORDS.length)]!;
    const r = this.#rand();
    if (r < 0.08) return { text: `${E}1m${w}${E}22m`, cols: w.length };
    if (r < 0.16) return { text: `${E}38;5;75m\`${w}()\`${E}39m`, cols: w.length + 4 };
    if (r < 0.2) return { text: `${E}3;38;2;180;140;255m${w}${E}0m`, cols: w.length };
    return { text: w, cols: w.length };
  }

  #sentence(cols: number): string {
    let s = '';
    let n = 0;
    for (;;) {
      const w = this.#word();
      if (n + w.cols + 1 > cols) return s;
      s += (n ? ' ' : '  ') + w.text;
      n += w.cols + (n ? 1 : 2);
    }
  }
}

/** A coloured log, like `cat` of a build log: ~100 columns a line. */
export function floodChunk(bytes: number, seed: number): string {
  const rand = rng(seed);
  let s = '';
  let i = seed * 1000;
  while (s.length < bytes) {
    const level = rand() < 0.1 ? `${E}31mERROR${E}0m` : rand() < 0.3 ? `${E}33mWARN ${E}0m` : `${E}32mINFO ${E}0m`;
    s += `${E}2m2025-01-01T00:00:${String(i % 60).padStart(2, '0')}Z${E}0m ${level} ${E}36mworker-${i % 8}${E}0m request ${i} handled in ${(rand() * 90).toFixed(1)} ms path=/users?page=${i % 97}\r\n`;
    i++;
  }
  return s;
}
