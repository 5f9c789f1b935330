/** Opening agent panes in tmux: `--tmux-launch` here, or a pair on a host's own tmux server. */
import type { SshHost } from './ssh.js';
import { type TmuxServer, tmux, tmuxStarting } from './tmux-control.js';

export type TmuxLaunch = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The size of relevo's box for this agent: the pane gets it where tmux lets relevo choose. */
  readonly cols: number;
  readonly rows: number;
};

/**
 * `--tmux-launch`: the planner in a new window of the current session (inside tmux, opened in the
 * background), or of a new detached session `name` sized to relevo's two boxes (outside), the
 * builder split to its right. Resolves with their pane ids.
 */
export async function launchInTmux(
  server: TmuxServer,
  inside: boolean,
  name: string,
  planner: TmuxLaunch,
  builder: TmuxLaunch,
): Promise<{ planner: string; builder: string }> {
  const envArgs = (l: TmuxLaunch) => Object.entries(l.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  // tmux reads a word ending in `;` as the end of its command: `\;` keeps it the program's.
  const words = (argv: readonly string[]) => argv.map((a) => a.replace(/;$/, '\\;'));
  const size = ['-x', String(planner.cols + 1 + builder.cols), '-y', String(Math.max(planner.rows, builder.rows))];
  const where = inside ? ['new-window', '-d', '-n', name] : ['new-session', '-d', '-s', name, ...size];
  const first = [...where, '-P', '-F', '#{pane_id}', '-c', planner.cwd, ...envArgs(planner), '--', ...words(planner.argv)];
  const plannerPane = (await (inside ? tmux(server, first) : tmuxStarting(server, first))).trim();
  const builderPane = (
    await tmux(server, [
      'split-window',
      '-h',
      ...(inside ? ['-d'] : ['-l', String(builder.cols)]),
      '-P',
      '-F',
      '#{pane_id}',
      '-t',
      plannerPane,
      '-c',
      builder.cwd,
      ...envArgs(builder),
      '--',
      ...words(builder.argv),
    ])
  ).trim();
  return { planner: plannerPane, builder: builderPane };
}

/**
 * An agent pair on a host: a new detached session `name` on the host's tmux server `-L socket`
 * (started, if it is not running, so it outlives the ssh session), the builder split to its right.
 */
export function launchOnHost(
  host: SshHost,
  socket: string,
  name: string,
  planner: TmuxLaunch,
  builder: TmuxLaunch,
): Promise<{ planner: string; builder: string }> {
  return launchInTmux({ socket, host }, false, name, planner, builder);
}
