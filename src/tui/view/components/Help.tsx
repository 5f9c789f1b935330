import { Box, Text } from 'ink';
import { BINDINGS, COMMANDS, type Command, keyName } from '../../input/keyboard.js';

export type Props = {
  readonly prefix: string;
  /** Columns the box takes, border included. */
  readonly width: number;
  /** When the keys do not all fit: the rows the box may take, border included; they are cut and the last line says so. */
  readonly rows?: number;
};

/** Rows around the list of keys: the border, the title and the closing line. */
const FRAME_ROWS = 4;
const KEY_COLUMN = 10;

/** A key (or a name) in the cyan column, its description wrapped beside it with a hanging indent. */
function Entry({ name, children }: { readonly name: string; readonly children: string }) {
  return (
    <Box flexShrink={0}>
      <Box width={KEY_COLUMN} flexShrink={0}>
        <Text color="cyan">{name}</Text>
      </Box>
      <Text wrap="wrap">{children}</Text>
    </Box>
  );
}

/** Every key relevo understands, after the prefix. */
export default function Help({ prefix, width, rows }: Props) {
  const byCommand = new Map<Command, string[]>();
  for (const [key, command] of Object.entries(BINDINGS)) byCommand.set(command, [...(byCommand.get(command) ?? []), keyName(key)]);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold wrap="truncate">
        relevo keys — press {prefix}, then:
      </Text>
      <Box flexDirection="column" {...(rows === undefined ? {} : { height: Math.max(1, rows - FRAME_ROWS), overflow: 'hidden' as const })}>
        {(Object.keys(COMMANDS) as Command[]).map((command) => (
          <Entry key={command} name={(byCommand.get(command) ?? []).join(' or ')}>
            {COMMANDS[command]}
          </Entry>
        ))}
        <Entry name="copy mode">hjkl ↑↓←→ PgUp PgDn g G · / ? n N search · v select · y copy</Entry>
        <Entry name="mouse">click focuses · drag copies · the wheel scrolls the pane under it</Entry>
      </Box>
      <Text dimColor wrap="truncate">
        {rows === undefined
          ? `Other keys go to the focused agent; ${prefix} ${prefix} sends ${prefix}. Any key closes.`
          : 'a taller terminal shows every key · any key closes'}
      </Text>
    </Box>
  );
}
