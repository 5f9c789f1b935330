import { Box, Text } from 'ink';
import type { LineState } from '../../input/line-editor.js';
import { cells, columns } from '../../paint/width.js';

export type Props = {
  readonly line: LineState;
  readonly width: number;
  readonly error?: string | null;
  /** The help key (`C-] ? help`), kept at the right while the line scrolls in the room left of it. */
  readonly hint?: string;
};

const LABEL = 'goal › ';
/** Columns the text keeps beside a refusal: a longer refusal is said in the message rows instead (see `promptParts`). */
const MIN_TEXT = 20;

/**
 * How the prompt's row is shared: the label, the text's room (the cursor's cell included), the
 * refusal beside it when it fits whole, and the hint at the right when there is room for it.
 */
export function promptParts(width: number, error: string | null, hint: string) {
  const withHint = hint !== '' && width - columns(LABEL) - columns(hint) - 2 >= MIN_TEXT / 2;
  const free = Math.max(4, width - columns(LABEL) - (withHint ? columns(hint) + 2 : 0));
  const beside = error !== null && columns(`  ⚠ ${error}`) + MIN_TEXT <= free ? `  ⚠ ${error}` : '';
  return { room: Math.max(1, free - columns(beside) - 1), beside, hint: withHint ? hint : '' };
}

/**
 * The part of the line on screen: `room` columns around the cursor, counted in columns (a CJK
 * character or an emoji takes two), so the cursor stays in view however wide the text is.
 */
function visible(text: string, cursor: number, room: number) {
  const all = cells(text);
  // The cell under the cursor (a cursor inside a grapheme shows on it), or past the end.
  let at = all.findIndex((cell) => cell.index + cell.text.length > cursor);
  if (at < 0) at = all.length;
  let used = all[at]?.width ?? 1;
  let start = at;
  while (start > 0 && used + all[start - 1]!.width <= room) used += all[--start]!.width;
  let end = Math.min(at + 1, all.length);
  while (end < all.length && used + all[end]!.width <= room) used += all[end++]!.width;
  const join = (from: number, to: number) =>
    all
      .slice(from, to)
      .map((cell) => cell.text)
      .join('');
  return { before: join(start, at), under: all[at]?.text ?? ' ', after: join(at + 1, end) };
}

/** `goal › text` with a block cursor and the help key at the right; the line scrolls to keep the cursor in view. */
export default function GoalPrompt({ line, width, error = null, hint = '' }: Props) {
  const parts = promptParts(width, error, hint);
  const { before, under, after } = visible(line.text, line.cursor, parts.room);
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <Text wrap="truncate">
        <Text bold color="cyan">
          {LABEL}
        </Text>
        {before}
        <Text inverse>{under}</Text>
        {after}
        {parts.beside !== '' ? <Text color="yellow">{parts.beside}</Text> : null}
      </Text>
      {parts.hint !== '' ? <Text dimColor>{parts.hint}</Text> : null}
    </Box>
  );
}
