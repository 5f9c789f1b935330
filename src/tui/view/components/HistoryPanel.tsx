import { Box, Text } from 'ink';
import { columns, fit } from '../../paint/width.js';
import { bodyRows, type HistoryEntry, type HistoryView, historyInner } from '../../state/handoff-history.js';

export type Props = { readonly view: HistoryView; readonly width: number; readonly height: number };

/** Rows the panel keeps for itself (border, title, goal, column names, done line, keys): the rest lists entries or body lines. */
export const HISTORY_CHROME_ROWS = 7;

const STATUS: Readonly<Record<HistoryEntry['status'], { readonly text: string; readonly color: string }>> = {
  acked: { text: 'acked', color: 'green' },
  offered: { text: 'offered', color: 'yellow' },
  pending: { text: 'pending', color: 'yellow' },
  edited: { text: 'edited', color: 'gray' },
  mismatch: { text: 'mismatch', color: 'red' },
};

const statusText = (e: HistoryEntry) => `${STATUS[e.status].text}${e.replacedBy ? ` → ${e.replacedBy}` : ''}`;

/** The list's fixed columns: the mark and round, from → to (`planner → builder`), the status as wide as the widest shown. */
const FROM_TO = 17;
const statusWidth = (entries: readonly HistoryEntry[]) => Math.max('status'.length, ...entries.map((e) => columns(statusText(e))));

type RowProps = { readonly entry: HistoryEntry; readonly selected: boolean; readonly width: number; readonly status: number };

/** One handoff in the list; its first line takes the columns the others leave. */
function Row({ entry, selected, width, status }: RowProps) {
  const head = `${selected ? '▸' : ' '} ${String(entry.round).padStart(2)}  ${`${entry.from} → ${entry.to}`.padEnd(FROM_TO)} `;
  const shown = statusText(entry).padEnd(status);
  const rest = ` ${entry.time}  ${entry.lines[1] ?? ''}`;
  return (
    <Text wrap="truncate" inverse={selected}>
      {head}
      <Text color={STATUS[entry.status].color}>{shown}</Text>
      {fit(rest, Math.max(0, width - columns(head) - columns(shown)))}
    </Text>
  );
}

/** The run's handoffs as a list (round, from → to, status, time, first line), or one handoff whole. */
export default function History({ view, width, height }: Props) {
  const inner = historyInner(width);
  const rows = Math.max(1, height - HISTORY_CHROME_ROWS);
  const open = view.open === null ? null : view.entries[view.open];
  // A body's long lines wrap: the view scrolls by rows, and its footer counts the lines they belong to.
  const body = open ? bodyRows(open, inner) : [];
  const shown = body.slice(view.scroll, view.scroll + rows + 1);
  const status = statusWidth(view.entries);
  const title = `history — run ${view.run} · ${view.state}${view.rebuilt !== undefined ? ` · ${view.rebuilt}` : ''}`;
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
            {shown.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a body's rows are shown in order and never reordered
              <Text key={view.scroll + i} wrap="truncate">
                {row.text === '' ? ' ' : row.text}
              </Text>
            ))}
          </Box>
          <Text dimColor wrap="truncate">
            {`↑ ↓ PgUp PgDn scroll · lines ${(shown[0]?.line ?? 0) + 1}–${(shown.at(-1)?.line ?? 0) + 1} of ${open.lines.length} · Esc back to the list`}
          </Text>
        </>
      ) : (
        <>
          <Text dimColor wrap="truncate">
            {`  ${'#'.padStart(2)}  ${'from → to'.padEnd(FROM_TO)} ${'status'.padEnd(status)} time      first line`}
          </Text>
          <Box flexDirection="column" height={rows}>
            {view.entries.length === 0 ? <Text dimColor>no handoff yet</Text> : null}
            {view.entries.slice(view.scroll, view.scroll + rows).map((entry, i) => (
              <Row key={entry.path} entry={entry} selected={view.scroll + i === view.selected} width={inner} status={status} />
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
