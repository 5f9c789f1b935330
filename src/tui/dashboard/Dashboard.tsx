import { Box, Text } from 'ink';
import { type DashboardView, dashboardLines, type Span, type Tone } from './table.js';

export type Props = { readonly view: DashboardView; readonly width: number; readonly height: number };

/** Each tone's weight and colour (NO_COLOR keeps the weights: the screen strips the colours). */
const STYLE: Readonly<Record<Tone, { bold?: boolean; dimColor?: boolean; color?: string }>> = {
  plain: {},
  title: { bold: true },
  dim: { dimColor: true },
  label: { bold: true },
  urgent: { bold: true, color: 'yellow' },
  working: { color: 'cyan' },
  done: { color: 'green' },
  ask: { bold: true, color: 'yellow' },
};

function Spans({ spans }: { readonly spans: readonly Span[] }) {
  return spans.map((span) => (
    <Text key={span.id} {...STYLE[span.tone]}>
      {span.text}
    </Text>
  ));
}

/**
 * Every relay of the repository, one row each, "needs you" first: the title with the counts, the
 * columns' header, the rows under their group labels (the selected one inverse), the keys or the
 * question or filter being typed at the bottom. Laid out by `table.ts` at exactly `width` × `height`.
 */
export default function Dashboard({ view, width, height }: Props) {
  const lines = dashboardLines(view, width, height);
  return (
    <Box flexDirection="column" width={width}>
      {lines.map((line) => (
        <Text key={line.id} wrap="truncate" inverse={line.selected}>
          {line.spans.length === 0 ? ' ' : <Spans spans={line.spans} />}
        </Text>
      ))}
    </Box>
  );
}
