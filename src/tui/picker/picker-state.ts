import type { AgentChoice } from '../../app/config/agent-choice.js';
import type { InstalledAgent } from '../../app/config/installed.js';
import type { Role } from '../../protocol/index.js';

/**
 * The agent picker's state, before any agent runs: two steps (the planner, then the builder), each a
 * list of the agent CLIs found on the PATH with a highlighted one; "also write relevo.toml" is a
 * toggle, offered only when the project has none.
 */
export type PickerState = {
  readonly found: readonly InstalledAgent[];
  readonly step: Role;
  /** The highlighted agent of this step's list. */
  readonly index: number;
  /** The planner picked in the first step (null during it). */
  readonly planner: string | null;
  readonly defaults: AgentChoice;
  /** Also write relevo.toml: null when it is not offered (the project has one). */
  readonly writeConfig: boolean | null;
};

export type PickerKey = 'up' | 'down' | 'enter' | 'back' | 'toggle' | 'quit';

export type PickerOutcome =
  | { readonly kind: 'picking'; readonly state: PickerState }
  | { readonly kind: 'chosen'; readonly choice: AgentChoice; readonly writeConfig: boolean }
  | { readonly kind: 'quit' };

const indexOf = (found: readonly InstalledAgent[], program: string) =>
  Math.max(
    0,
    found.findIndex((a) => a.program === program),
  );

export function initialPicker(found: readonly InstalledAgent[], defaults: AgentChoice, offerConfig: boolean): PickerState {
  return {
    found,
    step: 'planner',
    index: indexOf(found, defaults.planner),
    planner: null,
    defaults,
    writeConfig: offerConfig ? false : null,
  };
}

/** One key: move the highlight, pick (the planner, then the builder), go back a step, toggle relevo.toml, or quit. */
export function pickerStep(state: PickerState, key: PickerKey): PickerOutcome {
  const picking = (next: Partial<PickerState>): PickerOutcome => ({ kind: 'picking', state: { ...state, ...next } });
  const last = state.found.length - 1;
  switch (key) {
    case 'up':
      return picking({ index: Math.max(0, state.index - 1) });
    case 'down':
      return picking({ index: Math.min(last, state.index + 1) });
    case 'toggle':
      return state.writeConfig === null ? picking({}) : picking({ writeConfig: !state.writeConfig });
    case 'back':
      return state.step === 'builder'
        ? picking({ step: 'planner', planner: null, index: indexOf(state.found, state.planner ?? '') })
        : picking({});
    case 'quit':
      return { kind: 'quit' };
    case 'enter': {
      const program = state.found[state.index]!.program;
      if (state.step === 'planner')
        return picking({ step: 'builder', planner: program, index: indexOf(state.found, state.defaults.builder) });
      return { kind: 'chosen', choice: { planner: state.planner ?? program, builder: program }, writeConfig: state.writeConfig === true };
    }
  }
}

const SEQUENCES: Readonly<Record<string, PickerKey>> = {
  '\x1b[A': 'up',
  '\x1bOA': 'up',
  '\x1b[B': 'down',
  '\x1bOB': 'down',
  '\x1b[D': 'back',
  '\x1bOD': 'back',
};
const CHARS: Readonly<Record<string, PickerKey>> = {
  k: 'up',
  j: 'down',
  '\r': 'enter',
  '\n': 'enter',
  '\x7f': 'back',
  '\b': 'back',
  t: 'toggle',
  ' ': 'toggle',
  '\x03': 'quit',
};
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * The picker's keys in what the terminal sent (one read may hold several: Enter Enter): arrows (CSI
 * or SS3), j/k, Enter, Backspace or ← back, t or Space toggles relevo.toml, Esc or Ctrl-C quits.
 * Anything else, a paste included, is ignored.
 */
export function pickerKeys(data: string): PickerKey[] {
  const keys: PickerKey[] = [];
  let i = 0;
  while (i < data.length) {
    if (data.startsWith(PASTE_START, i)) {
      const end = data.indexOf(PASTE_END, i);
      i = end < 0 ? data.length : end + PASTE_END.length;
      continue;
    }
    if (data[i] === '\x1b') {
      const csi = /^\x1b(\[[0-9;]*[\x40-\x7e]|O.)/.exec(data.slice(i));
      if (csi) {
        const key = SEQUENCES[csi[0]];
        if (key) keys.push(key);
        i += csi[0].length;
        continue;
      }
      // A lone Esc (or Esc before another key, as Alt sends it): quit.
      keys.push('quit');
      i += 1;
      continue;
    }
    const key = CHARS[data[i]!];
    if (key) keys.push(key);
    i += 1;
  }
  return keys;
}
