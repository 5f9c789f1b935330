/**
 * How relevo reads the keys a terminal sends in raw mode: one grammar for the TUI's key router, the
 * goal prompt's line editor, scroll mode, and the draft counted from a person's keys. Pure: a string
 * in, keys out. (The sim agent reads its own input: it stands apart from relevo's code.)
 */

/** Bracketed paste markers: what the terminal puts around a paste once `ESC[?2004h` asked for them. */
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

/**
 * One key, tried in this order: a bracketed paste (to its end marker, or to the end of the input
 * when the end has not come yet), a CSI sequence (arrows, Delete, PgUp, function keys, mouse
 * reports: parameters, intermediates, a final byte), an SS3 sequence (`ESC O A`), ESC with the key
 * typed after it in the same read (Alt-key) or alone, one character (a whole code point, so an
 * emoji is one key).
 */
const KEY = /\x1b\[200~[\s\S]*?(?:\x1b\[201~|$)|\x1b\[[0-?]*[ -/]*[@-~]|\x1bO[@-~]|\x1b[\s\S]?|[\s\S]/uy;

/** The key that starts at `index` of `data` ('' at its end). */
export function keyAt(data: string, index: number): string {
  KEY.lastIndex = index;
  return KEY.exec(data)?.[0] ?? '';
}

/** Splits raw input into keys: escape sequences, a paste (as one key), single characters. */
export function splitKeys(data: string): string[] {
  const keys: string[] = [];
  for (let i = 0; i < data.length; ) {
    const key = keyAt(data, i);
    keys.push(key);
    i += key.length;
  }
  return keys;
}

/** A key that is a bracketed paste. */
export function isPaste(key: string): boolean {
  return key.startsWith(PASTE_START);
}

/** A paste key's text, its markers removed. */
export function pastedText(key: string): string {
  const text = key.slice(PASTE_START.length);
  return text.endsWith(PASTE_END) ? text.slice(0, -PASTE_END.length) : text;
}

/**
 * Escape pressed: ESC alone, or glued to the key typed after it in one read (Alt-key) — not an
 * escape sequence such as an arrow.
 */
export function isEscape(key: string): boolean {
  return key === '\x1b' || (key.startsWith('\x1b') && !/^\x1b[[O]./u.test(key));
}

/**
 * How many characters at the end of `data` (at least `min`) begin `marker`: a marker cut in two
 * by the reads, to be kept until the next read completes it.
 */
export function markerTail(data: string, marker: string, min: number): number {
  for (let n = Math.min(marker.length - 1, data.length); n >= min; n--) if (data.endsWith(marker.slice(0, n))) return n;
  return 0;
}
