/**
 * Undoes an agent CLI's rendering of its reply: soft wraps re-joined, the agent's chrome
 * (input box, status lines) cut off the bottom, the echo of what relevo typed skipped,
 * the reply gutter and indent removed, trailing spaces dropped. Pure: works on rows read from a screen.
 */

/** One screen row; `wrapped` means the terminal soft-wrapped the previous row into this one. */
export type ScreenRow = { readonly text: string; readonly wrapped: boolean };

export type ReplyLayout = {
  readonly gutter: readonly string[];
  readonly indent: number;
  readonly echo?: RegExp | undefined;
  readonly prompt: RegExp;
  readonly chrome: readonly RegExp[];
  readonly drop: readonly RegExp[];
  readonly interrupted?: readonly RegExp[] | undefined;
};

/** Rows → logical lines, soft wraps re-joined, trailing spaces dropped. */
export function joinRows(rows: readonly ScreenRow[]): string[] {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
  }
  return lines.map((l) => l.replace(/[ \t]+$/, ''));
}

function lastMatch(lines: readonly string[], re: RegExp): number {
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i]!)) return i;
  return -1;
}

/** Index of the first line of the agent's chrome (its input line and what is stacked on it), or -1. */
export function chromeStart(lines: readonly string[], layout: ReplyLayout): number {
  let at = lastMatch(lines, layout.prompt);
  if (at < 0) return -1;
  while (at > 0) {
    const above = lines[at - 1]!;
    if (above !== '' && !layout.chrome.some((re) => re.test(above))) break;
    at--;
  }
  return at;
}

/** Everything above the agent's input line and the chrome stacked on it. */
export function cutChrome(lines: readonly string[], layout: ReplyLayout): string[] {
  const end = chromeStart(lines, layout);
  return end < 0 ? [...lines] : lines.slice(0, end);
}

const startsWithGutter = (line: string, layout: ReplyLayout): boolean => layout.gutter.some((g) => line.startsWith(g));

/** What follows the echo of the last message the agent was sent. */
export function skipEcho(lines: readonly string[], layout: ReplyLayout, sent?: string): string[] {
  const echoAt = layout.echo ? lastMatch(lines, layout.echo) : -1;
  if (echoAt >= 0) {
    let from = echoAt + 1;
    if (layout.gutter.length > 0) while (from < lines.length && !startsWithGutter(lines[from]!, layout)) from++;
    return lines.slice(from);
  }
  const lastSent = sent
    ?.split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .pop();
  if (lastSent !== undefined) {
    const at = lines.findIndex((l) => l.trimEnd().endsWith(lastSent));
    if (at >= 0) return lines.slice(at + 1);
  }
  return [...lines];
}

/**
 * The profile's drop patterns, reply gutter and indent undone, line by line. Chrome rows (a status or
 * spinner row) are dropped too: one that scrolled into the history sits among the reply's rows.
 */
export function stripGutter(lines: readonly string[], layout: ReplyLayout): string[] {
  const pad = ' '.repeat(layout.indent);
  const out: string[] = [];
  for (const line of lines) {
    if (layout.drop.some((re) => re.test(line)) || layout.chrome.some((re) => re.test(line))) continue;
    const gutter = layout.gutter.find((g) => line.startsWith(g));
    if (line === '') out.push('');
    else if (gutter !== undefined) out.push(line.slice(gutter.length));
    else if (layout.indent > 0 && line.startsWith(pad)) out.push(line.slice(layout.indent));
    else out.push(line);
  }
  return out;
}

export type Reconstructed = {
  /** The reply text, rendering undone. */
  readonly text: string;
  /** The turn shows the agent's interruption marker: its partial reply must not be relayed. */
  readonly interrupted: boolean;
};

/** The reply an agent's turn left on screen (`rows` start where the turn began). */
export function reconstructReply(rows: readonly ScreenRow[], layout: ReplyLayout, sent?: string): Reconstructed {
  const turn = skipEcho(cutChrome(joinRows(rows), layout), layout, sent);
  const interrupted = turn.some((line) => layout.interrupted?.some((re) => re.test(line)) ?? false);
  const lines = stripGutter(turn, layout).map((l) => l.replace(/[ \t]+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return { text: lines.join('\n'), interrupted };
}
