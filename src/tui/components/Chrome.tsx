import { Box, Text } from 'ink';
import { ROLES } from '../../protocol/index.js';
import type { BandInfo } from '../band.js';
import type { TuiState } from '../store.js';
import GoalPrompt from './GoalPrompt.js';
import StatusBand from './StatusBand.js';

export type Props = { readonly state: TuiState; readonly width: number };

export function bandInfo(state: TuiState): BandInfo {
  const r = state.relay;
  return {
    agents: { planner: state.agents.planner.name, builder: state.agents.builder.name },
    round: r.round,
    budget: r.budget,
    turn: r.turn,
    phase: r.phase,
    pause: r.pause?.reason ?? null,
    stale: r.stale !== null,
    memory: state.memory,
    notes: ROLES.flatMap((role) => state.notes?.[role] ?? []),
  };
}

/** The bottom of the screen: the status band, then the goal prompt or the key hint (toasts stack in a corner). */
export default function Chrome({ state, width }: Props) {
  const hint =
    state.scroll !== null
      ? `scroll mode (${state.focus}): ↑ ↓ PgUp PgDn · ${state.scroll} lines up · Esc or q leaves`
      : state.confirmQuit
        ? `Quit relevo-tui? ${state.prefix} q again quits (or y) and ends the agents; the run stays on disk. Any other key stays.`
        : state.armed
          ? `${state.prefix} … o focus · z zoom · p pause · r resume · ? help · q quit`
          : `${state.prefix} ? help · ${state.prefix} o focus · ${state.prefix} p pause · ${state.prefix} r resume · ${state.prefix} q quit`;
  return (
    <Box flexDirection="column" width={width}>
      <StatusBand info={bandInfo(state)} width={width} />
      {state.prompt ? (
        <GoalPrompt line={state.prompt} width={width} error={state.promptError} />
      ) : (
        <Text wrap="truncate" dimColor={!state.confirmQuit} {...(state.confirmQuit ? { color: 'yellow' } : {})}>
          {hint}
        </Text>
      )}
    </Box>
  );
}
