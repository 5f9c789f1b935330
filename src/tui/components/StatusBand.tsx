import { Box, Text } from 'ink';
import { type BandInfo, bandParts } from '../band.js';

export type Props = { readonly info: BandInfo; readonly width: number };

/** One line: relevo, the two roles with their agents, the rounds, whose turn, and the run state. */
export default function StatusBand({ info, width }: Props) {
  const parts = bandParts(info, width);
  const alert = info.stale || info.phase === 'paused' || (info.notes?.length ?? 0) > 0;
  return (
    <Box width={width} height={1}>
      {parts.map((part, i) => {
        const last = i === parts.length - 1;
        return (
          // The parts are distinct texts (relevo, each role, the rounds, the turn, the state).
          <Text key={part} wrap="truncate">
            {i > 0 ? <Text dimColor> · </Text> : null}
            {i === 0 && part === 'relevo' ? (
              <Text bold color="cyan">
                {part}
              </Text>
            ) : last ? (
              <Text bold {...(alert ? { color: 'yellow' } : info.phase === 'done' ? { color: 'green' } : {})}>
                {part}
              </Text>
            ) : (
              <Text>{part}</Text>
            )}
          </Text>
        );
      })}
    </Box>
  );
}
