/** A whole TUI state for tests: a run that has not started (no goal, round 0 of 10), claude and codex starting, nothing open. */
import { DEFAULT_DELIVERY, initialState } from '../../src/protocol/index.js';
import type { TuiState } from '../../src/tui/state/store.js';

export function tuiState(patch: Partial<TuiState> = {}): TuiState {
  return {
    relay: initialState({
      maxRounds: 10,
      lang: 'en',
      inlineRolePrompt: { planner: false, builder: false },
      delivery: DEFAULT_DELIVERY,
      runPath: '',
    }),
    agents: { planner: { name: 'claude', state: 'unknown' }, builder: { name: 'codex', state: 'unknown' } },
    focus: 'planner',
    zoom: false,
    toasts: [],
    overlay: 'none',
    prompt: null,
    promptError: null,
    scroll: null,
    armed: false,
    confirmQuit: false,
    prefix: 'C-]',
    memory: null,
    ...patch,
  };
}
