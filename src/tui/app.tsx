import type { EarlyTui } from './early-tui.js';
import { RelaysTui } from './relays-tui.js';
import type { TerminalIo } from './view/terminal.js';

/**
 * `relevo-tui` without `--headless`: both agents live on one screen, relevo's state always visible.
 * This is the wiring: the relay opened on the first frame's store and compositor, more relays and
 * their dashboard beside it (relays-tui.ts), the terminal's keys, resizes and signals routed to them,
 * then everything taken down again in order.
 */
export async function runTui(early: EarlyTui, version: string, env: NodeJS.ProcessEnv, io: TerminalIo): Promise<number> {
  const { options, term, store, compositor } = early;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolveExit) => (finish = resolveExit));
  const relays = new RelaysTui({ options, version, env, term, io, finish: (code) => finish(code) });
  const size = { cols: early.firstInner.width, rows: early.firstInner.height };
  // The dashboard first (`--resume --all`, or relays waiting): the first frame's relay view is not used.
  const first = early.dashboard ? null : await relays.openFirst(store, compositor, size, early.relay);
  if (first) early.started(first.toast);
  else {
    compositor.dispose();
    store.dispose();
  }
  const onData = relays.onData;

  const onResize = () => relays.resized();
  io.stdout.on('resize', onResize);
  // A signal, or a terminal that went away (writes fail), pauses the relays and ends the agents.
  // Once: a write to a terminal that is gone fails again on each repaint the pause causes.
  let ended = false;
  const onSignal = (signal: string) => {
    if (ended) return;
    ended = true;
    relays.stopAll(signal);
    finish(relays.exitCode());
  };
  const onWriteError = (error: NodeJS.ErrnoException) => onSignal(`terminal gone (${error.code ?? error.message})`);
  io.stdout.on('error', onWriteError);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Keys typed while the run opened reach the agents now, in order (and a signal that came then stops it).
  io.stdin.on('data', onData);
  early.handOff(onData, onSignal);
  const restore = () => term.leave();
  process.once('exit', restore);

  if (!ended && first) first.begin();
  else if (!ended) relays.showDashboard(options.all);
  const code = await finished;
  ended = true;

  io.stdin.off('data', onData);
  io.stdout.off('resize', onResize);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  const lines = await relays.close();
  term.leave();
  process.off('exit', restore);
  io.stdout.write(`${lines.join('\n')}\n`);
  return code;
}
