import { WholeScreen, type WholeTerminal } from '../paint/whole-screen.js';
import AgentPicker from './AgentPicker.js';
import type { PickerState } from './picker-state.js';

/** The agent picker on the whole terminal, laid out at its size each time it is shown (see WholeScreen). */
export class PickerScreen extends WholeScreen<PickerState> {
  constructor(term: WholeTerminal, state: PickerState, options: { readonly home: string | undefined; readonly plain: boolean }) {
    super(term, state, (s, cols) => <AgentPicker state={s} width={cols} home={options.home} />, options.plain);
  }
}
