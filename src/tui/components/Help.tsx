import { Box, Text } from 'ink';
import { BINDINGS, COMMANDS, type Command } from '../keys.js';

export type Props = { readonly prefix: string };

const keyName = (key: string) => (key === '\t' ? 'Tab' : key);

/** Every key relevo understands, after the prefix. */
export default function Help({ prefix }: Props) {
  const byCommand = new Map<Command, string[]>();
  for (const [key, command] of Object.entries(BINDINGS)) byCommand.set(command, [...(byCommand.get(command) ?? []), keyName(key)]);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>relevo keys — press {prefix}, then:</Text>
      {(Object.keys(COMMANDS) as Command[]).map((command) => (
        <Text key={command}>
          <Text color="cyan">{(byCommand.get(command) ?? []).join(' or ').padEnd(9)}</Text> {COMMANDS[command]}
        </Text>
      ))}
      <Text>
        <Text color="cyan">{prefix.padEnd(9)}</Text> send {prefix} itself to the focused agent
      </Text>
      <Text>
        <Text color="cyan">{'copy mode'.padEnd(9)}</Text> hjkl ↑↓←→ PgUp PgDn g G move · / ? n N search · v select · y copy
      </Text>
      <Text>
        <Text color="cyan">{'mouse'.padEnd(9)}</Text> a click focuses a pane, the wheel scrolls it (--no-mouse: off)
      </Text>
      <Text dimColor>Every other key goes to the focused agent. Esc or any key closes this help.</Text>
    </Box>
  );
}
