import type { PauseReason, Phase, Role } from '../protocol/index.js';
import { columns, cut } from './width.js';

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
};

const BAR_CELLS = 10;

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
  const full = [
    'relevo',
    `planner: ${info.agents.planner} ▸ builder: ${info.agents.builder}`,
    roundsBar(info.round, info.budget),
    turn,
    state,
    info.memory ?? '',
  ].filter((p) => p !== '');
  const fits = (parts: string[]) => columns(parts.join(' · ')) <= width;
  const candidates = [
    full,
    [full[0]!, `P: ${info.agents.planner} ▸ B: ${info.agents.builder}`, ...full.slice(2)],
    [full[0]!, ...full.slice(2)],
    [full[0]!, `${info.round}/${info.budget}`, ...full.slice(3)],
    [`${info.round}/${info.budget}`, state],
    [state],
  ];
  const notes = info.notes ?? [];
  if (notes.length === 0) return candidates.find(fits) ?? [cut(state, width)];
  const noted = [...candidates.map((c) => [...c, ...notes]), [...notes], notes.slice(0, 1)];
  return noted.find(fits) ?? [cut(notes[0]!, width)];
}
