import { guardProcess } from '../app/faults/fault.js';
import { exitCode } from './actions/commands.js';
import type { EarlyTui } from './early-tui.js';
import { openRelayView } from './relay-view.js';
import type { TerminalIo } from './view/terminal.js';

/**
 * `relevo-tui` without `--headless`: both agents live on one screen, relevo's state always visible.
 * This is the wiring: the relay opened on the first frame's store and compositor (relay-view.ts),
 * the terminal's keys, resizes and signals routed to it, then everything taken down again in order.
 */
export async function runTui(early: EarlyTui, version: string, env: NodeJS.ProcessEnv, io: TerminalIo): Promise<number> {
  const { options, term, store, compositor } = early;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolveExit) => (finish = resolveExit));

  /** While another program (the editor) runs, relevo neither paints nor reads the keyboard. */
  const handOver = async <T,>(program: () => Promise<T>): Promise<T> => {
    compositor.suspend();
    io.stdin.off('data', onData);
    term.leave();
    try {
      return await program();
    } finally {
      term.enter();
      io.stdin.on('data', onData);
      compositor.resume();
    }
  };
  const size = { cols: early.firstInner.width, rows: early.firstInner.height };
  const view = await openRelayView(
    { options, version, env, term, finish: (code) => finish(code), handOver },
    { store, compositor, size },
    early.relay,
  );
  const { runner } = view;
  early.started(view.toast);
  const onData = (data: string) => view.onData(data);

  const onResize = () => compositor.resized();
  io.stdout.on('resize', onResize);
  // A signal, or a terminal that went away (writes fail), pauses the relay and ends the agents.
  // Once: a write to a terminal that is gone fails again on each repaint the pause causes.
  let ended = false;
  const onSignal = (signal: string) => {
    if (ended) return;
    ended = true;
    runner.dispatch({ type: 'stop', detail: signal });
    finish(exitCode(runner.state));
  };
  const onWriteError = (error: NodeJS.ErrnoException) => onSignal(`terminal gone (${error.code ?? error.message})`);
  io.stdout.on('error', onWriteError);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  // Keys typed while the run opened reach the agents now, in order (and a signal that came then stops it).
  io.stdin.on('data', onData);
  early.handOff(onData, onSignal);
  const unguard = guardProcess(runner.fault);
  const restore = () => term.leave();
  process.once('exit', restore);

  if (!ended) view.begin();
  const code = await finished;
  ended = true;

  io.stdin.off('data', onData);
  io.stdout.off('resize', onResize);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  const last = await view.close();
  unguard();
  store.dispose();
  term.leave();
  process.off('exit', restore);
  io.stdout.write(`${last}\n`);
  return code;
}
