/**
 * The bench's terminals: a program (relevo's TUI, a tmux client, a stand-in agent) in a
 * pseudo-terminal of the bench's size, run by the shared runner (test/helpers/pty/program.ts)
 * without answering terminal queries, and killed on cleanup however the bench ends.
 */
import { BIN } from '../src/app/config/paths.js';
import { Program } from '../test/helpers/pty/program.js';
import { onCleanup } from './cleanup.js';

/** The built command (`npm run build` first). */
export { BIN };
/** The size of the bench's terminals. */
export const COLS = 160;
export const ROWS = 40;

export type TerminalOptions = { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly screen?: boolean };

/** Starts `argv` in a bench terminal; `screen: false` keeps no screen (a flood would spend the bench's CPU on it). */
export function openTerminal(argv: readonly string[], o: TerminalOptions): Program {
  const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'C.UTF-8', TERM: 'xterm-256color', COLORTERM: 'truecolor', ...o.env };
  delete env.TMUX;
  delete env.NO_COLOR;
  const program = new Program({
    file: argv[0]!,
    args: argv.slice(1),
    cwd: o.cwd,
    env,
    cols: COLS,
    rows: ROWS,
    answerQueries: false,
    screen: o.screen !== false,
  });
  const undo = onCleanup(() => program.killNow());
  void program.ended.then(undo);
  return program;
}
