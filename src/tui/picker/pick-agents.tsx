import type { AgentChoice } from '../../app/config/agent-choice.js';
import { agentsUnnamed, type Options } from '../../app/config/options.js';
import { stateDirPath } from '../../app/store/state-dir.js';
import { noColor } from '../paint/no-color.js';
import type { Toaster } from '../state/toaster.js';
import { RealTerminal, type TerminalIo } from '../view/terminal.js';
import { PickerScreen } from './picker-screen.js';
import { initialPicker, type PickerState, pickerKeys, pickerStep } from './picker-state.js';

/** The agents to run, and what to say (and keep) once the run has started with them. */
export type Picked = { readonly options: Options; readonly started: (toast: Toaster) => void };

/** Exit codes when no agent was picked: Esc (one line says so), or a signal (as a run stopped by one). */
const EXIT_QUIT = 0;
const EXIT_SIGNAL = 3;

/**
 * Before any agent starts: when nothing names the agents (no flags, no relevo.toml), the person picks
 * them among the agent CLIs on the PATH. Resolves with the options to run, or with the exit code when
 * the person quit (Esc) or a signal came. None found is a ConfigError (one line, exit 2). The choice is
 * remembered in `<state-dir>/agents.json` once the run has started, and relevo.toml is written when asked.
 */
export async function pickAgents(options: Options, env: NodeJS.ProcessEnv, io: TerminalIo, cwd: string): Promise<Picked | number> {
  if (!agentsUnnamed(options)) return { options, started: () => {} };
  // Loaded only to pick: finding the agents reads the shipped profiles (TOML, their schemas).
  const [{ canWriteConfig, rememberChoice, unnamedChoice, writeConfig }, { noAgentsError }] = await Promise.all([
    import('../../app/config/agent-choice.js'),
    import('../../app/config/installed.js'),
  ]);
  const stateDir = stateDirPath(options.stateDir, cwd);
  const { found, choice: defaults } = unnamedChoice(stateDir, env.PATH ?? '');
  if (defaults === null) throw noAgentsError(found);
  const picked = await runPicker(io, env, initialPicker(found, defaults, canWriteConfig(cwd)));
  if (picked === 'signal') return EXIT_SIGNAL;
  if (picked === 'quit') {
    io.stdout.write('relevo-tui: no agents picked: nothing was started\n');
    return EXIT_QUIT;
  }
  const { choice } = picked;
  return {
    options: { ...options, planner: choice.planner, builder: choice.builder },
    started: (toast) => {
      try {
        rememberChoice(stateDir, choice);
      } catch (error) {
        toast(`the agents picked could not be remembered: ${(error as Error).message.split('\n')[0]}`, 'warn');
      }
      if (!picked.writeConfig) return;
      try {
        writeConfig(cwd, choice);
        toast(`wrote relevo.toml: planner = "${choice.planner}", builder = "${choice.builder}"`);
      } catch (error) {
        toast(`relevo.toml was not written: ${(error as Error).message.split('\n')[0]}`, 'warn');
      }
    },
  };
}

type PickerEnd = { readonly choice: AgentChoice; readonly writeConfig: boolean } | 'quit' | 'signal';

/** The picker on the terminal (the alternate screen, raw keys) until a choice or quit; the terminal is given back either way. */
function runPicker(io: TerminalIo, env: NodeJS.ProcessEnv, first: PickerState): Promise<PickerEnd> {
  const term = new RealTerminal(io);
  let state = first;
  const screen = new PickerScreen(term, state, { home: env.HOME, plain: noColor(env) });
  return new Promise((done) => {
    const finish = (result: PickerEnd) => {
      io.stdin.off('data', onData);
      io.stdout.off('resize', onResize);
      for (const signal of SIGNALS) process.off(signal, onSignal);
      process.off('exit', leave);
      screen.dispose();
      term.leave();
      done(result);
    };
    const onData = (data: string) => {
      for (const key of pickerKeys(data)) {
        const outcome = pickerStep(state, key);
        if (outcome.kind === 'quit') return finish('quit');
        if (outcome.kind === 'chosen') return finish({ choice: outcome.choice, writeConfig: outcome.writeConfig });
        state = outcome.state;
      }
      screen.show(state);
    };
    const onResize = () => screen.show();
    const onSignal = () => finish('signal');
    const leave = () => term.leave();
    term.enter();
    screen.show();
    io.stdin.on('data', onData);
    io.stdout.on('resize', onResize);
    for (const signal of SIGNALS) process.on(signal, onSignal);
    process.once('exit', leave);
  });
}

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const;
