import type { RelayConfig, RelayState, Step } from './relay-types.js';
import { restartNotice } from './restart.js';

/**
 * A `rate_limited` pause ends (at the reset time, or the person resumed): what was pending goes; an
 * agent whose own turn the limit stopped is told to go on (a notice: the handoff it holds is never
 * typed again). `resume` is the machine's (machine.ts imports this file).
 */
export function afterLimit(config: RelayConfig, state: RelayState, byReset: boolean, resume: (state: RelayState) => Step): Step {
  const role = state.pause?.role;
  const stopped = state.pending === null && !state.delivering && role !== undefined && state.turn === role;
  const held: RelayState = stopped ? { ...state, turn: null, pending: restartNotice(config, state, role, null, 'limit') } : state;
  const resumed = resume({ ...held, pause: { reason: 'user' } });
  if (!byReset) return resumed;
  const effects = resumed.effects.map((e) =>
    e.type === 'journal' && e.entry.type === 'resumed' ? { ...e, entry: { ...e.entry, limit_reset: true as const } } : e,
  );
  return { state: resumed.state, effects };
}
