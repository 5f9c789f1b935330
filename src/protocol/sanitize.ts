/**
 * Makes a text safe to type into an agent: no escape sequence, no control character
 * (so no `ESC[201~` to end a bracketed paste, no Ctrl-C, no stray Enter), only LF for newlines.
 */
// CSI (7- and 8-bit), OSC/DCS/SOS/PM/APC strings, SS2/SS3, other escapes, the remaining C1 controls.
const ESCAPES =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[NO][\s\S]?|\x1b[ -/]*[0-~]?|[\x80-\x9f]/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

export function sanitizeForTyping(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(ESCAPES, '')
    .replace(/\t/g, '    ')
    .replace(CONTROLS, '');
}
