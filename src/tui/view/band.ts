import type { AgentState, PauseReason, Phase, Role } from '../../protocol/index.js';
import { columns, cut, fit } from '../paint/width.js';

/** What the status band shows. */
export type BandInfo = {
  readonly agents: Readonly<Record<Role, string>>;
  readonly round: number;
  readonly budget: number;
  readonly turn: Role | null;
  readonly phase: Phase;
  readonly pause: PauseReason | null;
  readonly stale: boolean;
  /** `memory: blocked` when --memory asked for mnemosyne and it is not installed. */
  readonly memory?: string | null;
  /** What needs the person: a delivery held by their draft, a stalled agent (kept to the last). */
  readonly notes?: readonly string[];
  /** Each agent's live state, shown beside its name (also for the agent whose pane is hidden). */
  readonly states: Readonly<Record<Role, AgentState | 'exited'>>;
  /** The agent whose pane has the keys: its name is marked as the focused frame is. */
  readonly focus?: Role;
};

/** How an agent's state reads in the band: a mark, then a word. */
export const STATE_MARK: Readonly<Record<AgentState | 'exited', { readonly mark: string; readonly word: string }>> = {
  busy: { mark: '●', word: 'working' },
  idle: { mark: '○', word: 'idle' },
  blocked: { mark: '◆', word: 'blocked' },
  limited: { mark: '◇', word: 'limited' },
  exited: { mark: '✕', word: 'exited' },
  unknown: { mark: '·', word: 'starting' },
};

/** The agents' segment: `planner: claude ● working ▸ builder: codex ○ idle`, in three lengths. */
function agentsPart(info: BandInfo, names: 'long' | 'roles' | 'letters', words: boolean): string {
  const one = (role: Role) => {
    const label = names === 'long' ? `${role}: ${info.agents[role]}` : names === 'roles' ? role : role[0]!.toUpperCase();
    const state = STATE_MARK[info.states[role]];
    return `${label} ${state.mark}${words ? ` ${state.word}` : ''}`;
  };
  return `${one('planner')} ▸ ${one('builder')}`;
}

const BAR_CELLS = 10;
/** The fewest columns a cut note keeps: fewer and the band shows the states without it. */
const NOTE_ROOM = 16;

/** `▰▰▰▱▱▱▱▱▱▱ 3/10`: the bar is scaled to ten cells whatever the budget. */
export function roundsBar(round: number, budget: number, cells = BAR_CELLS): string {
  const filled = budget <= 0 ? 0 : Math.min(cells, Math.round((cells * Math.min(round, budget)) / budget));
  return `${'▰'.repeat(filled)}${'▱'.repeat(cells - filled)} ${round}/${budget}`;
}

export function runState(info: BandInfo): string {
  if (info.stale && info.phase !== 'done') return info.phase === 'paused' ? `STALE · paused: ${info.pause ?? 'user'}` : 'STALE';
  switch (info.phase) {
    case 'ready':
      return 'starting';
    case 'running':
      return 'running';
    case 'paused':
      return `paused: ${info.pause ?? 'user'}`;
    case 'done':
      return 'done';
  }
}

/** The band's parts, most important first; `bandParts` drops and shortens them to fit `width` columns. */
export function bandParts(info: BandInfo, width: number): string[] {
  const turn = info.turn ? `turn: ${info.turn}` : info.phase === 'running' ? 'relaying' : '';
  const state = runState(info);
  const full = ['relevo', agentsPart(info, 'long', true), roundsBar(info.round, info.budget), turn, state, info.memory ?? ''].filter(
    (p) => p !== '',
  );
  const fits = (parts: string[]) => columns(parts.join(' · ')) <= width;
  const rounds = `${info.round}/${info.budget}`;
  const candidates = [
    full,
    [full[0]!, agentsPart(info, 'roles', true), ...full.slice(2)],
    [full[0]!, agentsPart(info, 'roles', true), roundsBar(info.round, info.budget), state, info.memory ?? ''].filter((p) => p !== ''),
    [full[0]!, agentsPart(info, 'roles', true), rounds, state],
    [full[0]!, agentsPart(info, 'letters', true), rounds, state],
    [agentsPart(info, 'letters', true), rounds, state],
    [agentsPart(info, 'letters', false), rounds, state],
    [rounds, state],
    [state],
  ];
  const notes = info.notes ?? [];
  if (notes.length === 0) return candidates.find(fits) ?? [cut(state, width)];
  // Notes come last, after the richest parts that keep both agents' states: whole, else each without
  // what follows its dash (`… holds round 1`), else cut after the marks (and the rounds and run state
  // while the note keeps a readable start).
  const states = candidates.slice(0, -2);
  const short = notes.map((note) => note.split(' — ')[0]!);
  const kept = [notes, short].flatMap((said) => states.map((c) => [...c, ...said])).find(fits);
  if (kept) return kept;
  for (const floor of [states.at(-1)!, [agentsPart(info, 'letters', false), state], [agentsPart(info, 'letters', false)]]) {
    const room = width - columns([...floor, ''].join(' · '));
    if (room >= NOTE_ROOM) return [...floor, fit(notes.join(' · '), room)];
  }
  return candidates.find(fits) ?? [cut(state, width)];
}
