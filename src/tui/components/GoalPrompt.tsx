import { Text } from 'ink';
import type { LineState } from '../line-editor.js';
import { cells, columns } from '../width.js';

export type Props = { readonly line: LineState; readonly width: number; readonly error?: string | null };

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

/** `goal › text` with a block cursor; the line scrolls to keep the cursor in view. */
export default function GoalPrompt({ line, width, error = null }: Props) {
  const label = 'goal › ';
  const room = Math.max(4, width - columns(label) - 1);
  const { before, under, after } = visible(line.text, line.cursor, room);
  return (
    <Text wrap="truncate">
      <Text bold color="cyan">
        {label}
      </Text>
      {before}
      <Text inverse>{under}</Text>
      {after}
      {error ? <Text color="yellow">{`  ⚠ ${error}`}</Text> : null}
    </Text>
  );
}
