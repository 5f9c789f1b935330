/** Typed builders of what the TUI shows, for tests. */
import { initialState } from '../../src/protocol/index.js';
import type { TuiState } from '../../src/tui/state/store.js';
import type { BandInfo } from '../../src/tui/view/band.js';
import { machineConfig } from './machine.js';

/** A whole TUI state: a run that has not started (no goal, round 0 of 10), claude and codex starting, nothing open. */
export function tuiState(patch: Partial<TuiState> = {}): TuiState {
  return {
    relay: initialState(machineConfig('en', { runPath: '' })),
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

/** What the status band shows, for tests: claude planning (idle) and codex building (busy) in round 3 of 10, running. */
export function bandInfo(patch: Partial<BandInfo> = {}): BandInfo {
  return {
    agents: { planner: 'claude', builder: 'codex' },
    round: 3,
    budget: 10,
    turn: 'builder',
    phase: 'running',
    pause: null,
    stale: false,
    states: { planner: 'idle', builder: 'busy' },
    ...patch,
  };
}
