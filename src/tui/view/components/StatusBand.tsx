import { Box, Text } from 'ink';
import { ROLES, type Role } from '../../../protocol/index.js';
import { type BandInfo, bandParts, STATE_MARK } from '../band.js';

export type Props = { readonly info: BandInfo; readonly width: number };

const MARK_COLOR: Readonly<Record<string, string>> = {
  [STATE_MARK.busy.mark]: 'yellow',
  [STATE_MARK.idle.mark]: 'green',
  [STATE_MARK.blocked.mark]: 'red',
  [STATE_MARK.exited.mark]: 'red',
};

/** One agent in the agents' segment: its name bold cyan when its pane has the keys (as its frame is), its state mark in colour. */
function Agent({ text, role, info }: { readonly text: string; readonly role: Role; readonly info: BandInfo }) {
  const mark = STATE_MARK[info.states[role]].mark;
  const at = text.lastIndexOf(` ${mark}`);
  const label = at < 0 ? text : text.slice(0, at);
  const rest = at < 0 ? '' : text.slice(at + 1 + mark.length);
  const color = MARK_COLOR[mark];
  return (
    <Text>
      <Text {...(info.focus === role ? { bold: true, color: 'cyan' } : {})}>{label}</Text>
      {at < 0 ? null : (
        <>
          {' '}
          <Text {...(color ? { color } : { dimColor: true })}>{mark}</Text>
          {rest}
        </>
      )}
    </Text>
  );
}

/** One line: relevo, the two roles with their agents and states, the rounds, whose turn, and the run state. */
export default function StatusBand({ info, width }: Props) {
  const parts = bandParts(info, width);
  const alert = info.stale || info.phase === 'paused' || (info.notes?.length ?? 0) > 0;
  return (
    <Box width={width} height={1}>
      {parts.map((part, i) => {
        const last = i === parts.length - 1;
        const agents = part.split(' ▸ ');
        return (
          // The parts are distinct texts (relevo, the agents, the rounds, the turn, the state).
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
            ) : agents.length === 2 ? (
              <Text>
                <Agent text={agents[0]!} role={ROLES[0]} info={info} />
                <Text dimColor> ▸ </Text>
                <Agent text={agents[1]!} role={ROLES[1]} info={info} />
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
