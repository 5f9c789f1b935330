import { Box, Text } from 'ink';
import { noteFor, ROLES } from '../../../protocol/index.js';
import { bindingsHint } from '../../input/keyboard.js';
import { columns, fit, wrap } from '../../paint/width.js';
import { copyQuestion } from '../../state/copy-text.js';
import type { ToastLevel, TuiState } from '../../state/store.js';
import type { BandInfo } from '../band.js';
import GoalPrompt, { promptParts } from './GoalPrompt.js';
import StatusBand from './StatusBand.js';

export type Props = { readonly state: TuiState; readonly width: number };

export function bandInfo(state: TuiState): BandInfo {
  const r = state.relay;
  return {
    agents: { planner: state.agents.planner.name, builder: state.agents.builder.name },
    states: { planner: state.agents.planner.state, builder: state.agents.builder.state },
    focus: state.focus,
    round: r.round,
    budget: r.budget,
    turn: r.turn,
    phase: r.phase,
    pause: r.pause?.reason ?? null,
    stale: r.stale !== null,
    memory: state.memory,
    // A person's note waiting for its handoff is shown until it is sent (then the journal has it).
    notes: [
      ...(state.unreachable ? [state.unreachable] : []),
      ...ROLES.flatMap((role) => (noteFor(r, role) !== null ? [`note → ${role}`] : [])),
      ...ROLES.flatMap((role) => state.notes?.[role] ?? []),
      ...(state.others ? [state.others] : []),
    ],
  };
}

/** Rows of the message area above the band: a toast wraps onto both before it is cut. */
export const MESSAGE_ROWS = 2;

const LEVEL: Readonly<Record<ToastLevel, { readonly icon: string; readonly color: string }>> = {
  info: { icon: '●', color: 'cyan' },
  warn: { icon: '▲', color: 'yellow' },
  error: { icon: '✖', color: 'red' },
  done: { icon: '✔', color: 'green' },
};

/** The help key as the goal line and the goal prompt show it. */
const helpHint = (state: TuiState) => `${state.prefix} ? help`;

/** What asks for the person's answer or explains the keys right now (quit, copy mode, the prefix), if anything. */
function question(state: TuiState): string | null {
  if (state.scroll !== null) return copyQuestion(state.focus, state.scroll, state.copy);
  if (state.confirmQuit)
    return `Quit relevo-tui? ${state.prefix} q again quits (or y) and ends the agents; the run stays on disk. Any other key stays.`;
  if (state.armed) return `${state.prefix} … ${bindingsHint()}`;
  return null;
}

/** Why the prompt's line was refused, when the reason is too long to say beside it on the prompt's row. */
function refusal(state: TuiState, width: number): string | null {
  const error = state.prompt !== null ? state.promptError : null;
  return error !== null && promptParts(width, error, helpHint(state)).beside === '' ? error : null;
}

/** One message: its icon in its own column, so a wrapped message's next line starts under its text. */
function Message({
  icon,
  color,
  text,
  width,
}: {
  readonly icon: string;
  readonly color: string;
  readonly text: string;
  readonly width: number;
}) {
  return (
    <Box flexShrink={0}>
      <Box width={2} flexShrink={0}>
        <Text color={color}>{icon}</Text>
      </Box>
      <Text>{wrap(text, Math.max(1, width - 2)).join('\n')}</Text>
    </Box>
  );
}

/**
 * The message area, in relevo's chrome and never over an agent's pane: the question of the moment
 * (yellow), a refused prompt line's reason, then the toasts, newest first, each wrapped to the width
 * (a cut only past the area's rows).
 */
function Messages({ state, width }: Props) {
  const asked = question(state);
  const refused = refusal(state, width);
  const toasts = [...state.toasts].reverse();
  return (
    <Box flexDirection="column" width={width} height={MESSAGE_ROWS} overflow="hidden">
      {asked !== null ? (
        <Box flexShrink={0}>
          <Text wrap="wrap" color="yellow">
            {asked}
          </Text>
        </Box>
      ) : null}
      {refused !== null ? <Message icon="⚠" color="yellow" text={refused} width={width} /> : null}
      {toasts.map((t) => (
        <Message key={t.id} icon={LEVEL[t.level].icon} color={LEVEL[t.level].color} text={t.text} width={width} />
      ))}
    </Box>
  );
}

/** The goal of the run, cut to fit, with the help key at the right. */
function GoalLine({ state, width }: Props) {
  const help = helpHint(state);
  const room = Math.max(0, width - columns(help) - 2);
  const goal = state.relay.goal === null ? `no goal yet: ${state.prefix} g` : fit(`goal: ${state.relay.goal.replace(/\s+/g, ' ')}`, room);
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <Text wrap="truncate">{goal}</Text>
      <Text dimColor>{help}</Text>
    </Box>
  );
}

/**
 * relevo's chrome below the panes, always the same rows: the message area (questions and toasts),
 * the status band, and the goal line (or the goal prompt while it is open).
 */
export default function Chrome({ state, width }: Props) {
  return (
    <Box flexDirection="column" width={width}>
      <Messages state={state} width={width} />
      <StatusBand info={bandInfo(state)} width={width} />
      {state.prompt ? (
        <GoalPrompt line={state.prompt} width={width} error={state.promptError} hint={helpHint(state)} />
      ) : (
        <GoalLine state={state} width={width} />
      )}
    </Box>
  );
}
