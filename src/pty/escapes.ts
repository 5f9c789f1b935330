/**
 * A terminal output stream as plain text, fed in chunks as they come (an escape sequence may be split
 * across chunks): escape sequences and control strings removed as `normalizeReply` removes them (a
 * control string ends at BEL, ST, the next ESC or the line's end), CRs with or without an LF after them as one line break,
 * other controls dropped. A sequence that moves the cursor to another row, clears the screen, sets a
 * scroll region or switches screens ends the line, so redrawn text does not run into what came before.
 */

type State = 'ground' | 'esc' | 'escInter' | 'csi' | 'string' | 'stringEsc' | 'ss' | 'ssLow';

/** CSI finals that leave the cursor on another row (CUU, CUD, CNL, CPL, CUP, HVP, VPA), ED, DECSTBM. */
const ROW_FINALS = new Set(['A', 'B', 'E', 'F', 'H', 'f', 'd', 'J', 'r']);
/** DEC private modes that switch to or from the alternate screen. */
const ALT_SCREEN = /^\?(?:.*;)?(?:47|1047|1049)(?:;|$)/;
/** Longest CSI parameter string kept (the rest of a longer one is read and ignored). */
const MAX_PARAMS = 32;

export class EscapeStripper {
  #state: State = 'ground';
  #params = '';
  /** CRs were read: one line break, whether an LF follows them or not (CR CR LF is one break too). */
  #cr = false;
  /** Nothing but line breaks was emitted since the last line break. */
  #lineStart = true;
  /** Where, in the chunk being read, a control string was ended by a line end. */
  #ends: number[] = [];
  /** The last code unit read again ended a control string at a line end. */
  #ended = false;
  /** The text of the chunk being read. */
  #out = '';

  /** Inside a control string (OSC, DCS, APC, PM, SOS), which the next line end would end. */
  get inString(): boolean {
    return this.#state === 'string' || this.#state === 'stringEsc';
  }

  /**
   * Reads on as if it had just read an LF outside any control string, as the output it skipped
   * ended: in every other state an LF ends what it was in and breaks the line.
   */
  afterLineFeed(): void {
    this.#state = 'ground';
    this.#params = '';
    this.#cr = false;
    this.#lineStart = true;
  }

  /**
   * The text of `chunk`, given what came before it; and `chunk` for a terminal: the same, with an ST
   * (ESC backslash) wherever a control string meets a line end, so no terminal swallows the lines after it.
   */
  feed(chunk: string): { readonly text: string; readonly screen: string } {
    this.#out = '';
    this.#ends = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === 'ground') {
        const end = nextSpecial(chunk, i);
        if (end > i) this.#text(chunk.slice(i, end));
        if (end === chunk.length) break;
        const c = chunk.charCodeAt(end);
        if (this.#cr && c !== 0x0d && c !== 0x0a) this.#lineBreak();
        // A CSI whole in this chunk (SGR between words, a cursor move) is read in one go.
        const final = c === 0x1b && chunk.charCodeAt(end + 1) === 0x5b ? csiFinalAt(chunk, end + 2) : -1;
        if (final >= 0) {
          const f = chunk.charCodeAt(final);
          this.#csiDone(f, f === 0x68 || f === 0x6c ? csiParams(chunk.slice(end + 2, final)) : '');
          i = final + 1;
          continue;
        }
        this.#ground(c);
        i = end + 1;
      } else if (this.#step(chunk.charCodeAt(i))) i++;
      else if (this.#ended) this.#ends.push(i);
    }
    const text = this.#out;
    this.#out = '';
    return { text, screen: this.#ends.length === 0 ? chunk : terminated(chunk, this.#ends) };
  }

  #text(text: string): void {
    if (this.#cr) this.#lineBreak();
    this.#out += text;
    this.#lineStart = false;
  }

  #lineBreak(): void {
    this.#out += '\n';
    this.#lineStart = true;
    this.#cr = false;
  }

  /** Ends the current line, unless nothing is on it. */
  #boundary(): void {
    if (this.#cr || !this.#lineStart) this.#lineBreak();
  }

  #ground(c: number): void {
    if (c === 0x1b) this.#state = 'esc';
    else if (c === 0x9b) this.#csi();
    else if (c === 0x90 || c === 0x98 || (c >= 0x9d && c <= 0x9f)) this.#state = 'string';
    else if (c === 0x0d) this.#cr = true;
    else if (c === 0x0a) this.#lineBreak();
    else if (c === 0x09) this.#text('\t');
  }

  #csi(): void {
    this.#state = 'csi';
    this.#params = '';
  }

  /** One code unit outside ground; false when it ended the sequence without being part of it (read it again). */
  #step(c: number): boolean {
    this.#ended = false;
    switch (this.#state) {
      case 'esc':
        return this.#esc(c);
      case 'escInter':
        if (c >= 0x20 && c <= 0x2f) return true;
        this.#state = 'ground';
        return c >= 0x30 && c <= 0x7e;
      case 'csi':
        return this.#csiByte(c);
      case 'string':
        if (c === 0x07 || c === 0x9c) this.#state = 'ground';
        else if (c === 0x1b) this.#state = 'stringEsc';
        else if (c === 0x0a || c === 0x0d) {
          this.#state = 'ground';
          this.#ended = true;
          return false;
        }
        return true;
      case 'stringEsc':
        if (c === 0x5c) {
          this.#state = 'ground';
          return true;
        }
        this.#state = 'esc';
        return false;
      case 'ss':
        if (c === 0x0a || c === 0x0d) {
          this.#state = 'ground';
          return false;
        }
        this.#state = c >= 0xd800 && c <= 0xdbff ? 'ssLow' : 'ground';
        return true;
      default:
        // 'ssLow': the second half of the character SS2/SS3 took.
        this.#state = 'ground';
        return c >= 0xdc00 && c <= 0xdfff;
    }
  }

  #esc(c: number): boolean {
    const ch = String.fromCharCode(c);
    if (c === 0x1b) return true;
    this.#state = 'ground';
    if (ch === '[') this.#csi();
    else if (ch === ']' || ch === 'P' || ch === 'X' || ch === '^' || ch === '_') this.#state = 'string';
    else if (ch === 'N' || ch === 'O') this.#state = 'ss';
    else if (c >= 0x20 && c <= 0x2f) this.#state = 'escInter';
    else if (ch === 'D' || ch === 'E' || ch === 'M' || ch === 'c') this.#boundary();
    else if (c < 0x30 || c > 0x7e) return false;
    return true;
  }

  #csiByte(c: number): boolean {
    if (c >= 0x30 && c <= 0x3f) {
      if (this.#params.length < MAX_PARAMS) this.#params += String.fromCharCode(c);
      return true;
    }
    if (c >= 0x20 && c <= 0x2f) return true;
    this.#state = 'ground';
    if (c < 0x40 || c > 0x7e) return false;
    this.#csiDone(c, this.#params);
    return true;
  }

  /** A CSI ended with `c`; `params`: its parameter bytes, the first MAX_PARAMS (needed for DECSET/DECRST only). */
  #csiDone(c: number, params: string): void {
    if (c === 0x6d) return; // SGR, the commonest by far: colours only
    const final = String.fromCharCode(c);
    if (ROW_FINALS.has(final) || ((final === 'h' || final === 'l') && ALT_SCREEN.test(params))) this.#boundary();
    else if (final === 'C') this.#text(' ');
  }
}

/** Where the next C0, DEL or C1 control is in `chunk` from `i` (its length when there is none). */
function nextSpecial(chunk: string, i: number): number {
  let j = i;
  for (; j < chunk.length; j++) {
    const c = chunk.charCodeAt(j);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) break;
  }
  return j;
}

/** The index of the final byte of a CSI whose parameter and intermediate bytes start at `i`, or -1 when it does not end in `chunk` as a CSI may. */
function csiFinalAt(chunk: string, i: number): number {
  let j = i;
  while (j < chunk.length && chunk.charCodeAt(j) >= 0x20 && chunk.charCodeAt(j) <= 0x3f) j++;
  const c = j < chunk.length ? chunk.charCodeAt(j) : -1;
  return c >= 0x40 && c <= 0x7e ? j : -1;
}

/** A CSI's parameter bytes as the byte-by-byte reader keeps them: intermediates left out, the first MAX_PARAMS. */
const csiParams = (body: string): string => body.replace(/[\x20-\x2f]/g, '').slice(0, MAX_PARAMS);

/** `chunk` with an ST inserted before each of `at` (ascending). */
function terminated(chunk: string, at: readonly number[]): string {
  let out = '';
  let from = 0;
  for (const i of at) {
    out += `${chunk.slice(from, i)}\x1b\\`;
    from = i;
  }
  return out + chunk.slice(from);
}
