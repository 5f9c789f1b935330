/** Which lines of a pane's history tail scrolled off since the last look, from one capture with wrapped lines joined. */

/** SGR escapes, as `capture-pane -e` writes them. */
const SGR = /\x1b\[[0-9;:]*m/g;
/** Characters whose width is not one column (combining marks, East Asian wide, emoji): the rows they take are not counted. */
const NOT_ONE_COLUMN =
  /[\u0300-\u036f\u1100-\u115f\u200b-\u200f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f000}-\u{1faff}]/u;

/**
 * `tail`: the last `whole` rows of history as `capture-pane -J` gives them (a line wrapped over
 * several rows comes as one). The lines that make up the last `grown` rows, or null when that
 * cannot be told for sure (a line straddles the boundary, or the rows do not add up): then the
 * caller asks tmux for exactly those rows. A line takes ⌈its width / cols⌉ rows, one at least.
 */
export function scrolledLines(tail: readonly string[], whole: number, grown: number, cols: number): string[] | null {
  if (grown <= 0 || grown > whole || cols <= 0) return null;
  const rowsOf: number[] = [];
  for (const line of tail) {
    const text = line.replace(SGR, '');
    if (NOT_ONE_COLUMN.test(text)) return null;
    rowsOf.push(Math.max(1, Math.ceil([...text].length / cols)));
  }
  if (rowsOf.reduce((a, b) => a + b, 0) !== whole) return null;
  let rows = 0;
  for (let i = tail.length - 1; i >= 0; i--) {
    rows += rowsOf[i]!;
    if (rows === grown) return tail.slice(i);
    if (rows > grown) return null;
  }
  return null;
}
