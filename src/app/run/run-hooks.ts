import { ROLES } from '../../protocol/index.js';
import { HookChannel } from '../replies/hook-channel.js';
import type { HookSite } from '../replies/hook-site.js';
import { HostSpool } from '../replies/host-spool.js';
import { orHostError } from './host-backend.js';
import type { PaneOpener } from './panes.js';
import type { RunnerOptions } from './run-options.js';

/** Where a run's agents' hooks report, and how relevo hears them. */
export type RunHooks = {
  readonly channel: HookChannel;
  /** What launch.ts installs the hooks with. */
  readonly site: HookSite;
  /** The agents' hook files are in place (on a host: written there). */
  ready(): Promise<void>;
  /** The agents run: reports are read from now on. */
  start(): void;
  /** The next run after `done` goes on with the same agents: what the hooks keep goes to its directory. */
  moved(runDir: string): void;
  close(): Promise<void>;
};

const local = (channel: HookChannel): RunHooks => ({
  channel,
  site: channel,
  ready: async () => {},
  start: () => {},
  moved: () => {},
  close: () => channel.close(),
});

const remote = (spool: HostSpool): RunHooks => ({
  channel: spool.channel,
  site: spool,
  ready: () => orHostError(() => spool.flush()),
  start: () => spool.start(),
  moved: (runDir) => spool.keepIn(runDir),
  close: () => spool.close(),
});

/**
 * The hooks of a run whose profiles have one: relevo's own channel for agents it launches here; a
 * spool on the host for a host relay's agents, new, or as the run kept it when its panes are found
 * again (`--resume`). None for agents relevo did not launch here (it could not add their hooks).
 */
export async function openHooks(options: Pick<RunnerOptions, 'agents' | 'runId' | 'runDir'>, opener: PaneOpener): Promise<RunHooks | null> {
  if (!ROLES.some((role) => options.agents[role].profile.data.hook !== undefined)) return null;
  if (opener.host !== undefined) {
    const spool = opener.attached
      ? await HostSpool.resume(opener.host, options.runDir)
      : await HostSpool.open(opener.host, options.runId, options.runDir);
    return spool === null ? null : remote(spool);
  }
  return opener.attached ? null : local(await HookChannel.open());
}
