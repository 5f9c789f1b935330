import { Box, Text } from 'ink';
import type { HistoryEntry, HistoryView } from '../history.js';
import { fit } from '../width.js';

export type Props = { readonly view: HistoryView; readonly width: number; readonly height: number };

/** Rows the panel keeps for itself (border, title, goal, column names, done line, keys): the rest lists entries or body lines. */
export const HISTORY_CHROME_ROWS = 7;

const STATUS: Readonly<Record<HistoryEntry['status'], { readonly text: string; readonly color: string }>> = {
  acked: { text: 'acked', color: 'green' },
  offered: { text: 'offered', color: 'yellow' },
  pending: { text: 'pending', color: 'yellow' },
  edited: { text: 'edited', color: 'gray' },
};

const statusText = (e: HistoryEntry) => `${STATUS[e.status].text}${e.replacedBy ? ` → ${e.replacedBy}` : ''}`;

function Row({ entry, selected, width }: { readonly entry: HistoryEntry; readonly selected: boolean; readonly width: number }) {
  const head = `${selected ? '▸' : ' '} ${String(entry.round).padStart(2)}  ${`${entry.from} → ${entry.to}`.padEnd(19)} `;
  const status = statusText(entry).padEnd(26);
  const rest = ` ${entry.time}  ${entry.lines[1] ?? ''}`;
  return (
    <Text wrap="truncate" inverse={selected}>
      {head}
      <Text color={STATUS[entry.status].color}>{status}</Text>
      {fit(rest, Math.max(0, width - head.length - status.length))}
    </Text>
  );
}

/** The run's handoffs as a list (round, from → to, status, time, first line), or one handoff whole. */
export default function History({ view, width, height }: Props) {
  const inner = Math.max(10, width - 4);
  const rows = Math.max(1, height - HISTORY_CHROME_ROWS);
  const open = view.open === null ? null : view.entries[view.open];
  const title = `history — run ${view.run} · ${view.state}`;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width} height={height}>
      <Text bold wrap="truncate">
        {title}
      </Text>
      <Text wrap="truncate">
        <Text color="cyan">goal </Text>
        {fit((view.goal ?? '-').replace(/\s+/g, ' '), inner - 5)}
      </Text>
      {open ? (
        <>
          <Text dimColor wrap="truncate">
            {`${open.path} · round ${open.round} · ${open.from} → ${open.to} · ${statusText(open)} · ${open.time}`}
          </Text>
          <Box flexDirection="column" height={rows + 1}>
            {open.lines.slice(view.scroll, view.scroll + rows + 1).map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a body's lines are shown in order and never reordered
              <Text key={view.scroll + i} wrap="truncate">
                {line === '' ? ' ' : line}
              </Text>
            ))}
          </Box>
          <Text dimColor wrap="truncate">
            {`↑ ↓ PgUp PgDn scroll · lines ${view.scroll + 1}–${Math.min(open.lines.length, view.scroll + rows + 1)} of ${open.lines.length} · Esc back to the list`}
          </Text>
        </>
      ) : (
        <>
          <Text dimColor wrap="truncate">
            {`  ${'#'.padStart(2)}  ${'from → to'.padEnd(19)} ${'status'.padEnd(26)} time      first line`}
          </Text>
          <Box flexDirection="column" height={rows}>
            {view.entries.length === 0 ? <Text dimColor>no handoff yet</Text> : null}
            {view.entries.slice(view.scroll, view.scroll + rows).map((entry, i) => (
              <Row key={entry.path} entry={entry} selected={view.scroll + i === view.selected} width={inner} />
            ))}
          </Box>
          <Text wrap="truncate" {...(view.done !== null ? { color: 'green' } : { dimColor: true })}>
            {view.done !== null ? `done: ${fit(view.done.replace(/\s+/g, ' '), inner - 6)}` : 'not done yet'}
          </Text>
          <Text dimColor wrap="truncate">
            ↑ ↓ select · Enter shows the whole handoff · Esc closes
          </Text>
        </>
      )}
    </Box>
  );
}
