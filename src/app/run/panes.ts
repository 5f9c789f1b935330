import type { Role } from '../../protocol/index.js';
import { LocalPane, type Pane } from '../../pty/pane.js';

/** What starting an agent needs: its command line and environment as relevo would launch it. */
export type PaneRequest = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly cols: number;
  readonly rows: number;
  readonly osc: readonly number[];
  /** The part of `env` that relevo adds (role, run, hook token): what a multiplexer-launched agent needs. */
  readonly extraEnv: Readonly<Record<string, string>>;
};

/**
 * Opens the agents' panes: `attached` ones already run their agent (relevo mirrors them, cannot add
 * launch flags or hooks, so the role prompt goes in the first message).
 */
export type PaneOpener = {
  readonly attached: boolean;
  open(requests: Readonly<Record<Role, PaneRequest>>): Promise<Record<Role, Pane>>;
};

/** relevo's own pseudo-terminals (node-pty). */
export const localPanes: PaneOpener = {
  attached: false,
  open: async (r) => ({ planner: new LocalPane({ ...r.planner }), builder: new LocalPane({ ...r.builder }) }),
};
