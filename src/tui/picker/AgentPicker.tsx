import { Box, Text } from 'ink';
import { columns } from '../paint/width.js';
import type { PickerState } from './picker-state.js';

export type Props = { readonly state: PickerState; readonly width: number; readonly home: string | undefined };

/** `~/…` for a path under the person's home. */
const short = (path: string, home: string | undefined) => (home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);

/** The list of one step: each agent found, its path dimmed, the highlighted one marked `▸` and bold. */
function List({ state, width, home }: Props) {
  const name = Math.max(...state.found.map((a) => columns(a.program)));
  return (
    <Box flexDirection="column" width={width}>
      {state.found.map((agent, i) => {
        const on = i === state.index;
        return (
          <Text key={agent.program} wrap="truncate">
            {on ? (
              <Text bold color="cyan">
                {`  ▸ ${agent.program.padEnd(name)}`}
              </Text>
            ) : (
              `    ${agent.program.padEnd(name)}`
            )}
            <Text dimColor>{`  ${short(agent.path, home)}`}</Text>
          </Text>
        );
      })}
    </Box>
  );
}

/**
 * `relevo-tui` with nothing naming the agents: which of the agent CLIs found on the PATH plays the
 * planner, then which the builder; the other role's pick (or default) shown beside; the relevo.toml
 * toggle when it is offered; the keys.
 */
export default function AgentPicker(props: Props) {
  const { state, width } = props;
  const found = state.found.map((a) => a.program).join(', ');
  const only = state.found.length === 1 ? `only ${state.found[0]!.program} is on the PATH: it can play both roles` : null;
  const box = state.writeConfig === null ? null : state.writeConfig ? '[x]' : '[ ]';
  return (
    <Box flexDirection="column" width={width} paddingX={1}>
      <Text bold wrap="truncate">
        relevo-tui · which agents? <Text dimColor>found on the PATH: {found}</Text>
      </Text>
      {only !== null ? (
        <Text dimColor wrap="truncate">
          {only}
        </Text>
      ) : null}
      <Text> </Text>
      {state.step === 'planner' ? (
        <>
          <Text bold>planner</Text>
          <List {...props} width={width - 2} />
          <Text dimColor wrap="truncate">
            builder: {state.defaults.builder}, picked next
          </Text>
        </>
      ) : (
        <>
          <Text wrap="truncate">
            planner: <Text bold>{state.planner}</Text>
          </Text>
          <Text bold>builder</Text>
          <List {...props} width={width - 2} />
        </>
      )}
      <Text> </Text>
      {box !== null ? (
        <Text wrap="truncate">
          {box} also write relevo.toml naming them (t) <Text dimColor>— else the choice is remembered in the state dir</Text>
        </Text>
      ) : null}
      <Text dimColor wrap="truncate">
        ↑ ↓ choose · Enter picks · ← back · Esc quits
      </Text>
    </Box>
  );
}
