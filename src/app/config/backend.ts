/** Where a run's agents are, from the flags: relevo's own terminals, tmux or Herdr panes (found or launched), or tmux on a host. */
import { ConfigError } from '../faults/errors.js';

type PanePair = Readonly<Record<'planner' | 'builder', string>>;
export type Backend =
  | { readonly kind: 'local' }
  | { readonly kind: 'tmux'; readonly socket: string | null; readonly panes: PanePair | null }
  | { readonly kind: 'herdr'; readonly panes: PanePair | null }
  /** Agents on another machine, in tmux there, reached by ssh (`--host`): launched, or found again by pane id. */
  | { readonly kind: 'host'; readonly destination: string; readonly socket: string | null; readonly panes: PanePair | null };

export type BackendFlags = {
  host?: string | undefined;
  tmux: boolean;
  'tmux-socket'?: string | undefined;
  'tmux-launch': boolean;
  herdr: boolean;
  'herdr-launch': boolean;
  'planner-pane'?: string | undefined;
  'builder-pane'?: string | undefined;
};

/** Where the agents run: one of local, tmux (attach or launch), Herdr (attach or launch), a host. */
export function backendOf(v: BackendFlags): Backend {
  const planner = v['planner-pane'];
  const builder = v['builder-pane'];
  const chosen = (['tmux', 'tmux-launch', 'herdr', 'herdr-launch'] as const).filter((f) => v[f]);
  if (chosen.length > 1) throw new ConfigError(`--${chosen[1]}`, `not with --${chosen[0]}: pick one place for the agents`);
  const mode = chosen[0];
  if (v.host !== undefined) {
    if (mode !== undefined) throw new ConfigError(`--${mode}`, 'not with --host: the agents run in tmux on the host');
    if (v['tmux-socket'] !== undefined) throw new ConfigError('--tmux-socket', 'not with --host: relevo runs its own tmux server there');
    if (planner !== undefined || builder !== undefined)
      throw new ConfigError(planner !== undefined ? '--planner-pane' : '--builder-pane', 'not with --host, which opens new panes');
    return { kind: 'host', destination: v.host, socket: null, panes: null };
  }
  if (v['tmux-socket'] !== undefined && mode !== 'tmux' && mode !== 'tmux-launch')
    throw new ConfigError('--tmux-socket', 'needs --tmux or --tmux-launch');
  if (mode === undefined) {
    if (planner !== undefined) throw new ConfigError('--planner-pane', 'needs --tmux or --herdr');
    if (builder !== undefined) throw new ConfigError('--builder-pane', 'needs --tmux or --herdr');
    return { kind: 'local' };
  }
  if (mode.endsWith('-launch')) {
    if (planner !== undefined || builder !== undefined)
      throw new ConfigError(planner !== undefined ? '--planner-pane' : '--builder-pane', `not with --${mode}, which opens new panes`);
    return mode === 'tmux-launch' ? { kind: 'tmux', socket: v['tmux-socket'] ?? null, panes: null } : { kind: 'herdr', panes: null };
  }
  if (planner === undefined) throw new ConfigError('--planner-pane', `required with --${mode} (or use --${mode}-launch)`);
  if (builder === undefined) throw new ConfigError('--builder-pane', `required with --${mode} (or use --${mode}-launch)`);
  if (planner === builder) throw new ConfigError('--builder-pane', `the same pane as the planner's (${planner})`);
  return mode === 'tmux'
    ? { kind: 'tmux', socket: v['tmux-socket'] ?? null, panes: { planner, builder } }
    : { kind: 'herdr', panes: { planner, builder } };
}
