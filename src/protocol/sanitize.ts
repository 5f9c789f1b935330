/**
 * One sanitizer for every text an agent hands relevo (hook report, transcript, screen, output log)
 * and for what relevo types: the same reply gives the same body from every source, and nothing
 * typed can end a bracketed paste, press Ctrl-C or Enter, or hide a round header.
 */

/**
 * CSI (7- and 8-bit); OSC/DCS/SOS/PM/APC strings, ended by BEL or ST, else (as a terminal does) at the
 * next ESC, and at the line's end: an unterminated string never swallows the text after it; SS2/SS3
 * with their character; other escapes. src/pty/escapes.ts reads a stream the same way.
 */
const ESCAPES =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\n\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\)?|\x1b[NO][^\n]?|\x1b[ -/]*[0-~]?/g;
/** C0 controls but LF and TAB, DEL, the C1 controls left over, the BOM, bidi embeddings, overrides and isolates. */
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\u202a-\u202e\u2066-\u2069]/g;

/** CRLF, a lone CR and CRs before an LF (`CR CR LF`, a terminal's ONLCR on a program's CRLF) are one line break. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r+\n?/g, '\n');
}

/** Escape sequences and control strings removed, unterminated ones at their line's end. */
export function stripEscapes(text: string): string {
  return text.replace(ESCAPES, '');
}

/** Control characters (but LF and TAB), the BOM and bidi controls removed. */
export function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/**
 * An agent's reply as relevo reads it, whatever its source: LF line breaks, no escape sequence,
 * no control character but LF and TAB, no BOM, no bidi override. Every other character is kept.
 */
export function normalizeReply(text: string): string {
  return stripControls(stripEscapes(normalizeNewlines(text)));
}

/** A reply made safe to type: normalised, tabs as four spaces. */
export function sanitizeForTyping(text: string): string {
  return normalizeReply(text).replace(/\t/g, '    ');
}

/** Invisible characters (zero-width spaces and joiners, soft hyphen, word joiner, variation selectors, BOM…). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * How a line reads to a person, for spotting forged headers only: compatibility forms folded (NFKC:
 * fullwidth `［ＲＥＬＥＶＯ］` → `[RELEVO]`), invisible characters dropped. Never used for a kept body.
 */
export function readingForm(line: string): string {
  return normalizeReply(line).normalize('NFKC').replace(INVISIBLE, '');
}
