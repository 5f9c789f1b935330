import type { Role } from '../protocol/index.js';
import { MirrorPane } from '../pty/mirror.js';
import { foregroundArgv, isShell, launchInTmux, paneInfo, TmuxError, TmuxSource, type TmuxServer } from '../pty/tmux.js';
import { ConfigError } from './errors.js';
import type { Options } from './options.js';
import { loadProfile, profileForCommand } from './profiles.js';
import { localPanes, type AgentSpec, type PaneOpener, type PaneRequest } from './runner.js';

export type Agents = Readonly<Record<Role, AgentSpec>>;

/** A tmux failure as a usage error naming the flag it came from (exit 2, one line). */
async function orConfigError<T>(flag: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof TmuxError) throw new ConfigError(flag, `tmux: ${error.message}`);
    throw error;
  }
}

/** The agent running in an existing tmux pane: its foreground command, and the profile it calls for. */
async function attachedAgent(server: TmuxServer, role: Role, target: string, profileName: string | undefined): Promise<{ spec: AgentSpec; pane: string }> {
  const flag = `--${role}-pane`;
  const info = await orConfigError(flag, () => paneInfo(server, target));
  if (info.dead) throw new ConfigError(flag, `tmux pane ${info.id} is dead`);
  if (isShell(info.command)) throw new ConfigError(flag, `tmux pane ${info.id} runs ${info.command}, not an agent: start the agent in it first`);
  const argv = foregroundArgv(info);
  const profile = profileName !== undefined ? loadProfile(profileName, `--${role}-profile`) : profileForCommand(argv, `--${role}-profile`);
  return { spec: { argv, profile }, pane: info.id };
}

const mirror = (server: TmuxServer, pane: string, request: PaneRequest) => MirrorPane.attach(new TmuxSource(server, pane), request.osc);

/**
 * The agents and where they run, from the options: relevo's own terminals; tmux panes that already
 * run the agents (`--tmux`); or new tmux panes relevo starts them in (`--tmux-launch`).
 */
export async function backendFor(
  options: Options,
  env: NodeJS.ProcessEnv,
  /** The agents as the command-line flags give them (for relevo-launched backends). */
  commanded: () => Agents,
  /** A name for a new tmux session or window (asked when the panes open). */
  name: () => string,
): Promise<{ agents: Agents; panes: PaneOpener }> {
  const backend = options.backend;
  if (backend.kind === 'local') return { agents: commanded(), panes: localPanes };
  const server: TmuxServer = { socket: backend.socket };
  if (backend.panes === null) {
    const inside = backend.socket === null && (env.TMUX ?? '') !== '';
    return {
      agents: commanded(),
      panes: {
        attached: false,
        open: (r) =>
          orConfigError('--tmux-launch', async () => {
            const launch = (q: PaneRequest) => ({ argv: q.argv, env: q.extraEnv, cwd: q.cwd });
            const ids = await launchInTmux(server, inside, name(), launch(r.planner), launch(r.builder));
            return { planner: await mirror(server, ids.planner, r.planner), builder: await mirror(server, ids.builder, r.builder) };
          }),
      },
    };
  }
  const planner = await attachedAgent(server, 'planner', backend.panes.planner, options.plannerProfile);
  const builder = await attachedAgent(server, 'builder', backend.panes.builder, options.builderProfile);
  if (planner.pane === builder.pane) throw new ConfigError('--builder-pane', `the same tmux pane as the planner's (${planner.pane})`);
  return {
    agents: { planner: planner.spec, builder: builder.spec },
    panes: {
      attached: true,
      open: (r) =>
        orConfigError('--tmux', async () => ({ planner: await mirror(server, planner.pane, r.planner), builder: await mirror(server, builder.pane, r.builder) })),
    },
  };
}
