import type { Role } from '../../protocol/index.js';
import type { SshHost } from '../../pty/backends/ssh.js';
import { LocalPane, type Pane } from '../../pty/pane.js';
import { PtyUnavailable } from '../../pty/pty-driver.js';
import { ConfigError } from '../faults/errors.js';

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
  /** The host the agents run on (a host relay): their hooks report through a spool file there. */
  readonly host?: SshHost;
  open(requests: Readonly<Record<Role, PaneRequest>>): Promise<Record<Role, Pane>>;
  /**
   * After `open` of a resumed run: the role's agent lived on while relevo was away (its pane found
   * again, running), so it remembers the run and needs no introduction. Absent: none did.
   */
  livedOn?(role: Role): boolean;
  /** Starts one role's agent again in a new pane of relevo's own (absent: relevo cannot start it again). */
  reopen?(role: Role, request: PaneRequest): Promise<Pane>;
  /**
   * Puts a file the agents read (a checkpoint's HANDOFF.md, at `path` as a message names it) where
   * they run; absent: they read relevo's own files.
   */
  publish?(path: string, text: string): Promise<void>;
};

/**
 * Variables that describe the terminal relevo itself was started in (a tmux, Zellij, Herdr or
 * screen pane, the outer terminal emulator). An agent in a pseudo-terminal of relevo's own is in
 * none of those: inherited, they make it act on a pane that is not its own (Claude Code prints
 * tmux's `focus-events` advice; Herdr's hook reports into relevo's pane).
 */
const OUTER_TERMINAL = [
  /^TMUX(?:_PANE)?$/,
  /^ZELLIJ(?:_.*)?$/,
  /^HERDR_(?:ENV|PANE_ID|TAB_ID|WORKSPACE_ID|SOCKET_PATH)$/,
  /^STY$/,
  /^WINDOW$/,
  /^TERM_PROGRAM(?:_VERSION)?$/,
];

/** `env` without what describes relevo's own terminal (`extra`, what relevo adds, always stays). */
export function ownTerminalEnv(
  env: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const kept = Object.entries(env).filter(([name]) => name in extra || !OUTER_TERMINAL.some((re) => re.test(name)));
  return Object.fromEntries(kept);
}

function local(r: PaneRequest): LocalPane {
  try {
    return new LocalPane({ ...r, env: ownTerminalEnv(r.env, r.extraEnv) });
  } catch (error) {
    if (!(error instanceof PtyUnavailable)) throw error;
    // tmux's panes need no terminal of relevo's own.
    throw new ConfigError('pty', `${error.message}; or run the agents in tmux with --tmux-launch`);
  }
}

/** relevo's own pseudo-terminals (@lydell/node-pty). */
export const localPanes: PaneOpener = {
  attached: false,
  open: async (r) => ({ planner: local(r.planner), builder: local(r.builder) }),
  reopen: async (_role, r) => local(r),
};
