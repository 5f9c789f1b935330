import type { Options } from '../app/config/options.js';
import type { RelayOpen } from '../app/run/setup.js';
import type { Store } from './state/store.js';
import type { Toaster } from './state/toaster.js';
import type { Compositor } from './view/compositor.js';
import type { RealTerminal } from './view/terminal.js';

/**
 * The TUI's first frame, before the run opens: the pane frames, the status band (`starting`) and the
 * key hint, painted with only Ink and the chrome loaded. The agents' terminals, the relay and its
 * store (app.tsx, imported after this paints) fill the frame in as they come.
 */
export type EarlyTui = {
  readonly options: Options;
  /** A relay of several (`relevo-tui new`): its worktree and setup. */
  readonly relay: RelayOpen;
  /** The dashboard opens first (`--resume --all`, or relays wait to go on): no relay is opened on the first frame. */
  readonly dashboard: boolean;
  readonly term: RealTerminal;
  readonly store: Store;
  readonly compositor: Compositor;
  /** The size the agents' terminals start at: the planner's pane inside. */
  readonly firstInner: { readonly width: number; readonly height: number };
  /** What the agent picker keeps once the run has started. */
  readonly started: (toast: Toaster) => void;
  /**
   * The TUI's own handlers exist: keys typed while the run opened go to `onData` in order, a
   * SIGTERM or SIGHUP that came meanwhile to `onSignal`; nothing is held from then on.
   */
  handOff(onData: (data: string) => void, onSignal: (signal: string) => void): void;
};
