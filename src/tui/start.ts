import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from '../app/config/options.js';
import type { RelayOpen } from '../app/run/setup.js';
import { stateDirPath } from '../app/store/state-dir.js';
import type { EarlyTui } from './early-tui.js';
import { firstStore } from './first-store.js';
import { pickAgents } from './picker/pick-agents.js';
import { Compositor, firstLayout } from './view/compositor.js';
import { RealTerminal, type TerminalIo } from './view/terminal.js';

/** `relevo-tui` with nothing to start: no goal, demo, run to resume, relay to make or panes to attach to. */
const plainStart = (o: Options, site: RelayOpen): boolean =>
  o.resume === false && o.goal === undefined && !o.demo && site.site === undefined && o.backend.kind === 'local';

/**
 * Relays of this repository wait to go on (not done, held by no live relevo). Only relays claim
 * ports: without `<state dir>/ports/` no journal is read, and the first frame waits for nothing.
 */
async function relaysWaiting(stateDir: string): Promise<boolean> {
  if (!existsSync(join(stateDir, 'ports'))) return false;
  const { resumableRelays } = await import('../app/commands/fleet.js');
  return resumableRelays(stateDir).length > 0;
}

/**
 * `relevo-tui` without `--headless`: the agents picked if nothing names them, the terminal taken and
 * the first frame painted, then the run (app.tsx). The terminal is given back whatever happens.
 */
export async function startTui(
  given: Options,
  version: string,
  env: NodeJS.ProcessEnv,
  io: TerminalIo,
  site: RelayOpen = {},
): Promise<number> {
  const cwd = process.cwd();
  // `--resume --all`, or a plain start where relays wait to go on: the dashboard first, no relay opened.
  const dashboard = given.all || (plainStart(given, site) && (await relaysWaiting(stateDirPath(given.stateDir, cwd))));
  // Nothing names the agents: the person picks them before any starts (pick-agents.tsx), or quits.
  const picked = dashboard ? { options: given, started: () => {} } : await pickAgents(given, env, io, cwd);
  if (typeof picked === 'number') return picked;
  const { options } = picked;
  const term = new RealTerminal(io, { mouse: options.mouse });
  const store = firstStore(options, env, options.goal !== undefined || options.demo || site.site !== undefined);
  const firstInner = firstLayout(term.cols, term.rows).panes.planner?.inner ?? { width: options.cols, height: options.rows };

  // Keys and signals that come while the run opens are kept for the TUI's handlers (handOff).
  const held: string[] = [];
  let signal: string | null = null;
  const hold = (data: string) => held.push(data);
  const onSignal = (name: string) => (signal ??= name);
  io.stdin.on('data', hold);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const release = () => {
    io.stdin.off('data', hold);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  };
  term.enter();
  const compositor = new Compositor(term, store);
  compositor.relayout();
  const early: EarlyTui = {
    options,
    relay: site,
    dashboard,
    term,
    store,
    compositor,
    firstInner,
    started: picked.started,
    handOff(onData, onTuiSignal) {
      release();
      for (const data of held.splice(0)) onData(data);
      if (signal !== null) onTuiSignal(signal);
    },
  };
  try {
    const { runTui } = await import('./app.js');
    return await runTui(early, version, env, io);
  } catch (error) {
    compositor.dispose();
    store.dispose();
    term.leave();
    throw error;
  } finally {
    release();
  }
}
