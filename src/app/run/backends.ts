import { quote } from 'shell-quote';
import { z } from 'zod';
import type { Role } from '../../protocol/index.js';
import {
  checkHerdrVersion,
  findHerdr,
  type Herdr,
  HerdrError,
  HerdrSource,
  herdr,
  herdrPane,
  herdrSplit,
} from '../../pty/backends/herdr.js';
import { MirrorPane } from '../../pty/backends/mirror.js';
import { foregroundArgv, isShell, launchInTmux, paneInfo, TmuxError, type TmuxServer, TmuxSource } from '../../pty/backends/tmux.js';
import type { AgentSpec } from '../config/launch.js';
import type { Options } from '../config/options.js';
import { loadProfile, profileForCommand, shippedProfileNames } from '../config/profiles.js';
import { ConfigError } from '../faults/errors.js';
import { hostBackend } from './host-backend.js';
import { localPanes, type PaneOpener, type PaneRequest } from './panes.js';

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
async function attachedAgent(
  server: TmuxServer,
  role: Role,
  target: string,
  profileName: string | undefined,
): Promise<{ spec: AgentSpec; pane: string }> {
  const flag = `--${role}-pane`;
  const info = await orConfigError(flag, () => paneInfo(server, target));
  if (info.dead) throw new ConfigError(flag, `tmux pane ${info.id} is dead`);
  if (isShell(info.command))
    throw new ConfigError(flag, `tmux pane ${info.id} runs ${info.command}, not an agent: start the agent in it first`);
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
): Promise<{ agents: Agents; panes: PaneOpener; tmuxSocket?: string }> {
  const backend = options.backend;
  if (backend.kind === 'local') return { agents: commanded(), panes: localPanes };
  if (backend.kind === 'host') return hostBackend(backend, options, commanded, name);
  if (backend.kind === 'herdr') return herdrBackend(backend.panes, options, env, commanded);
  const server: TmuxServer = { socket: backend.socket };
  if (backend.panes === null) {
    const inside = backend.socket === null && (env.TMUX ?? '') !== '';
    return {
      agents: commanded(),
      panes: {
        attached: false,
        open: (r) =>
          orConfigError('--tmux-launch', async () => {
            const launch = (q: PaneRequest) => ({ argv: q.argv, env: q.extraEnv, cwd: q.cwd, cols: q.cols, rows: q.rows });
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
      livedOn: () => true,
      open: (r) =>
        orConfigError('--tmux', async () => ({
          planner: await mirror(server, planner.pane, r.planner),
          builder: await mirror(server, builder.pane, r.builder),
        })),
    },
  };
}

/** A herdr failure as a usage error: about a pane, named by its flag; about herdr itself, by --herdr. */
async function orHerdrError<T>(flag: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof HerdrError)) throw error;
    const paneError = ['pane_not_found', 'agent_not_found', 'agent_not_running'].includes(error.code);
    throw new ConfigError(paneError ? flag : '--herdr', `herdr: ${error.message}${paneError ? '' : ` (${error.code})`}`);
  }
}

const processInfo = z.object({
  result: z.object({ foreground_processes: z.array(z.looseObject({ argv: z.array(z.string()).optional(), name: z.string().optional() })) }),
});

/** The agent in a Herdr pane: its foreground command (`pane process-info`) and the profile it calls for. */
async function herdrAgent(h: Herdr, role: Role, target: string, profileName: string | undefined): Promise<AgentSpec> {
  const flag = `--${role}-pane`;
  const info = await orHerdrError(flag, () => herdrPane(h, target));
  if (info.agent === undefined)
    throw new ConfigError(
      flag,
      `herdr pane ${info.pane_id} runs no agent (agent_status ${info.agent_status}): start the agent in it first`,
    );
  const out = await orHerdrError(flag, () => herdr(h, ['pane', 'process-info', '--pane', info.pane_id]));
  const processes = processInfo.parse(JSON.parse(out)).result.foreground_processes;
  const argv = processes.map((p) => p.argv ?? [p.name ?? '']).find((a) => profileForCommand(a, flag).data.id !== 'generic') ?? [info.agent];
  if (profileName !== undefined) return { argv, profile: loadProfile(profileName, `--${role}-profile`) };
  const byCommand = profileForCommand(argv, `--${role}-profile`);
  const byHerdr = shippedProfileNames().includes(info.agent) ? loadProfile(info.agent, `--${role}-profile`) : null;
  return { argv, profile: byCommand.data.id !== 'generic' || byHerdr === null ? byCommand : byHerdr };
}

const herdrMirror = (h: Herdr, pane: string, request: PaneRequest) =>
  MirrorPane.attach(new HerdrSource(h, pane, request.cols), request.osc);

/**
 * Herdr: attach to panes that run agents (`--herdr`), or split two new panes in the current workspace
 * and start the agents there (`--herdr-launch`). herdr is `$HERDR_BIN_PATH` or on PATH, its version checked.
 */
async function herdrBackend(
  panes: Readonly<Record<Role, string>> | null,
  options: Options,
  env: NodeJS.ProcessEnv,
  commanded: () => Agents,
) {
  const flag = panes === null ? '--herdr-launch' : '--herdr';
  const h = await orHerdrError(flag, () => findHerdr(env));
  await orHerdrError(flag, () => checkHerdrVersion(h));
  if (panes === null) {
    // Inside Herdr the new panes open next to this one; outside, next to the focused one.
    const here = env.HERDR_ENV === '1' && env.HERDR_PANE_ID ? env.HERDR_PANE_ID : null;
    const opener: PaneOpener = {
      attached: false,
      open: (r) =>
        orHerdrError(flag, async () => {
          const planner = await herdrSplit(h, here, 'right', r.planner.cwd, r.planner.extraEnv);
          const builder = await herdrSplit(h, planner, 'down', r.builder.cwd, r.builder.extraEnv);
          // The pane's shell runs the agent: each argument quoted, nothing of it interpreted.
          await herdr(h, ['pane', 'run', planner, quote([...r.planner.argv])]);
          await herdr(h, ['pane', 'run', builder, quote([...r.builder.argv])]);
          return { planner: await herdrMirror(h, planner, r.planner), builder: await herdrMirror(h, builder, r.builder) };
        }),
    };
    return { agents: commanded(), panes: opener };
  }
  const agents = {
    planner: await herdrAgent(h, 'planner', panes.planner, options.plannerProfile),
    builder: await herdrAgent(h, 'builder', panes.builder, options.builderProfile),
  };
  const opener: PaneOpener = {
    attached: true,
    livedOn: () => true,
    open: (r) =>
      orHerdrError(flag, async () => ({
        planner: await herdrMirror(h, panes.planner, r.planner),
        builder: await herdrMirror(h, panes.builder, r.builder),
      })),
  };
  return { agents, panes: opener };
}
