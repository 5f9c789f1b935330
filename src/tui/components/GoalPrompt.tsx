import { Text } from 'ink';
import type { LineState } from '../line-editor.js';

export type Props = { readonly line: LineState; readonly width: number; readonly error?: string | null };

/** `goal › text` with a block cursor; the line scrolls to keep the cursor in view. */
export default function GoalPrompt({ line, width, error = null }: Props) {
  const label = 'goal › ';
  const room = Math.max(4, width - label.length - 1);
  const start = Math.max(0, line.cursor - room + 1);
  const shown = line.text.slice(start, start + room);
  const c = line.cursor - start;
  return (
    <Text wrap="truncate">
      <Text bold color="cyan">
        {label}
      </Text>
      {shown.slice(0, c)}
      <Text inverse>{shown[c] ?? ' '}</Text>
      {shown.slice(c + 1)}
      {error ? <Text color="yellow">{`  ⚠ ${error}`}</Text> : null}
    </Text>
  );
}
