// Incremental parser of the raw byte stream a terminal sends in raw mode.
// No I/O and no clock: feed it chunks, get key events back.
//
// ESC followed by anything but `[` / `O` is the Escape key. A bare ESC at the
// very end of a chunk is held back (it may be the first byte of a paste marker
// cut in two); the owner calls flush() when nothing follows within ESC_TIMEOUT_MS.

export type InputEvent =
  | { type: 'text'; text: string }
  | { type: 'paste'; text: string }
  | { type: 'enter' }
  | { type: 'newline' }
  | { type: 'backspace' }
  | { type: 'escape' }
  | { type: 'ctrl-c' }
  | { type: 'ctrl-d' }
  /** Ctrl-U: the input box cleared, as in Claude Code. */
  | { type: 'ctrl-u' }
  /** Any other escape sequence (arrows, function keys, focus events): to be ignored. */
  | { type: 'sequence'; sequence: string };

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

const ESC = '\x1b';
/** How long a bare ESC waits for the rest of a sequence before it counts as the Escape key. */
export const ESC_TIMEOUT_MS = 30;
/** An unterminated escape sequence longer than this is dropped. */
const MAX_SEQUENCE = 64;

/** CRLF and lone CR become LF. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialMarkerLength(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n -= 1) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}

function isTextChar(code: number): boolean {
  return code === 0x09 || (code >= 0x20 && code !== 0x7f);
}

export class InputParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** Undecided tail of the previous chunk (an escape sequence or paste marker cut in two). */
  private pending = '';
  private pasting = false;
  private pasteText = '';

  /** True while inside a bracketed paste that has not ended yet. */
  get inPaste(): boolean {
    return this.pasting;
  }

  /** True when the input so far ends with a bare ESC: call flush() if nothing follows soon. */
  get pendingEscape(): boolean {
    return !this.pasting && this.pending === ESC;
  }

  /** Nothing followed a bare ESC in time: it was the Escape key. */
  flush(): InputEvent[] {
    if (!this.pendingEscape) return [];
    this.pending = '';
    return [{ type: 'escape' }];
  }

  push(chunk: Uint8Array | string): InputEvent[] {
    const decoded = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const text = this.pending + decoded;
    this.pending = '';
    const events: InputEvent[] = [];
    const emit = (event: InputEvent): void => {
      const last = events[events.length - 1];
      if (event.type === 'text' && last?.type === 'text') last.text += event.text;
      else events.push(event);
    };

    let i = 0;
    while (i < text.length) {
      if (this.pasting) {
        const end = text.indexOf(PASTE_END, i);
        if (end === -1) {
          const keep = partialMarkerLength(text.slice(i), PASTE_END);
          this.pasteText += text.slice(i, text.length - keep);
          this.pending = text.slice(text.length - keep);
          return events;
        }
        this.pasteText += text.slice(i, end);
        emit({ type: 'paste', text: normalizeNewlines(this.pasteText) });
        this.pasting = false;
        this.pasteText = '';
        i = end + PASTE_END.length;
        continue;
      }

      const ch = text[i]!;
      if (ch === ESC) {
        const next = text[i + 1];
        if (next === '[') {
          let j = i + 2;
          while (j < text.length) {
            const code = text.charCodeAt(j);
            if (code >= 0x20 && code <= 0x3f)
              j += 1; // parameter and intermediate bytes
            else break;
          }
          if (j >= text.length) {
            // Sequence cut at the chunk's end: wait for the rest.
            if (text.length - i <= MAX_SEQUENCE) this.pending = text.slice(i);
            return events;
          }
          const final = text.charCodeAt(j);
          if (final >= 0x40 && final <= 0x7e) {
            const sequence = text.slice(i, j + 1);
            i = j + 1;
            if (sequence === PASTE_START) {
              this.pasting = true;
              this.pasteText = '';
            } else {
              emit({ type: 'sequence', sequence });
            }
          } else {
            // Malformed: drop what we have, handle the odd byte normally.
            emit({ type: 'sequence', sequence: text.slice(i, j) });
            i = j;
          }
          continue;
        }
        if (next === 'O') {
          if (i + 2 >= text.length) {
            this.pending = text.slice(i);
            return events;
          }
          emit({ type: 'sequence', sequence: text.slice(i, i + 3) });
          i += 3;
          continue;
        }
        if (next === undefined) {
          // ESC ends the chunk: it may start a sequence (a paste marker) whose
          // rest is still on its way. Wait for the next chunk, or flush().
          this.pending = ESC;
          return events;
        }
        // Followed by something other than [ or O: the Escape key itself.
        emit({ type: 'escape' });
        i += 1;
        continue;
      }

      const code = text.charCodeAt(i);
      if (ch === '\r') emit({ type: 'enter' });
      else if (ch === '\n') emit({ type: 'newline' });
      else if (ch === '\x7f' || ch === '\b') emit({ type: 'backspace' });
      else if (ch === '\x03') emit({ type: 'ctrl-c' });
      else if (ch === '\x04') emit({ type: 'ctrl-d' });
      else if (ch === '\x15') emit({ type: 'ctrl-u' });
      else if (isTextChar(code)) {
        let j = i + 1;
        while (j < text.length && isTextChar(text.charCodeAt(j)) && text[j] !== ESC) j += 1;
        emit({ type: 'text', text: text.slice(i, j) });
        i = j;
        continue;
      }
      // Other control bytes are ignored.
      i += 1;
    }
    return events;
  }
}
