import type { AgentState, RelayState, Role } from '../../protocol/index.js';
import { Emitter } from '../../pty/emitter.js';
import type { LineState } from '../input/line-editor.js';
import type { CopyState } from './copy-text.js';
import type { HistoryView } from './handoff-history.js';

export type ToastLevel = 'info' | 'warn' | 'error' | 'done';
export type Toast = { readonly id: number; readonly text: string; readonly level: ToastLevel };

export type TuiState = {
  readonly relay: RelayState;
  readonly agents: Readonly<Record<Role, { readonly name: string; readonly state: AgentState | 'exited' }>>;
  readonly focus: Role;
  readonly zoom: boolean;
  readonly toasts: readonly Toast[];
  readonly overlay: 'none' | 'help' | 'history';
  /** The history panel's view while it is open (`overlay: 'history'`). */
  readonly history?: HistoryView | null;
  /** The goal prompt, when open. */
  readonly prompt: LineState | null;
  /** Why the last line given to the goal prompt was refused, until the next key. */
  readonly promptError: string | null;
  /** Copy mode (it grew from scroll mode): the focused pane's view is this many lines above its live screen (null = off). */
  readonly scroll: number | null;
  /** Copy mode's cursor, selection and search while `scroll` is not null (see copy-mode.ts). */
  readonly copy?: CopyState | null;
  /** The pane the wheel scrolled back without focusing it, this many lines above its live screen (null = live). */
  readonly peek?: { readonly role: Role; readonly lines: number } | null;
  /** The prefix key was pressed: the next key is a command. */
  readonly armed: boolean;
  /** Quit was asked once while a run is active: asking again quits. */
  readonly confirmQuit: boolean;
  readonly prefix: string;
  /** Shown in the band: `memory: blocked` (mnemosyne missing), or null. */
  readonly memory: string | null;
  /** False with NO_COLOR: relevo's chrome has no colours (agents' screens are left as they are). */
  readonly color?: boolean;
  /** The other relays of this relevo that need the person (`2 others need you`), or null. */
  readonly others?: string | null;
  /** `unreachable: box — retrying in 4 s` while the agents' host cannot be reached (see app/run/reachability.ts), else null. */
  readonly unreachable?: string | null;
  /** Per role, a held delivery or a stall to show in the band (see app/attention.ts). */
  readonly notes?: Readonly<Record<Role, string | null>>;
};

/** The one store the TUI's views read: plain state, replaced on every change, with a change event. */
export class Store {
  readonly #onChange = new Emitter<TuiState>();
  readonly onChange = this.#onChange.event;
  #state: TuiState;

  constructor(initial: TuiState) {
    this.#state = initial;
  }

  get state(): TuiState {
    return this.#state;
  }

  update(patch: Partial<TuiState> | ((s: TuiState) => Partial<TuiState>)): void {
    const next = { ...this.#state, ...(typeof patch === 'function' ? patch(this.#state) : patch) };
    this.#state = next;
    this.#onChange.fire(next);
  }

  dispose(): void {
    this.#onChange.dispose();
  }
}
