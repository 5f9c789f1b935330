import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from './app/config/paths.js';
import { ConfigError } from './app/faults/errors.js';

// Only what every command needs is imported up front; each command loads its own modules.

const EXIT_USAGE = 2;
const EXIT_INTERNAL = 1;
const EXIT_PAUSED = 3;

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(`${PACKAGE_ROOT}package.json`, 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The TUI's modules: React in its production build whatever NODE_ENV says (a person's NODE_ENV is
 * for their project; put back after, so the agents see it), and `fetch` hidden meanwhile, so Ink's
 * yoga decodes its embedded binary with `atob` instead of starting undici (relevo never calls it).
 */
async function importTui(): Promise<typeof import('./tui/start.js')> {
  const given = process.env.NODE_ENV;
  const fetch = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  process.env.NODE_ENV = 'production';
  if (fetch?.configurable) Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await import('./tui/start.js');
  } finally {
    if (given === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = given;
    if (fetch?.configurable) Object.defineProperty(globalThis, 'fetch', fetch);
  }
}

async function usage(): Promise<string> {
  return (await import('./app/config/usage.js')).USAGE;
}

/** ` — did you mean X?` when `typed` is close to one of `names`, else '' (loaded only on this error path). */
async function nearCommand(typed: string, names: readonly string[]): Promise<string> {
  return (await import('./app/config/nearest.js')).didYouMean(typed, names);
}

/** The `relevo-tui` command. Resolves with the exit code. */
export async function main(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const io = { stdout: process.stdout, stderr: process.stderr };
  // `COMMAND --help`: before the command's modules load.
  if (args.length === 2 && (args[1] === '--help' || args[1] === '-h') && args[0] !== undefined) {
    const help = (await import('./app/config/usage.js')).COMMAND_HELP.get(args[0]);
    if (help !== undefined) {
      io.stdout.write(help);
      return 0;
    }
  }
  if (args[0] === 'hook') {
    const { runHook } = await import('./hook/send.js');
    return runHook(args.slice(1));
  }
  if (args[0] === 'sim-agent') {
    const { runSimAgent } = await import('./sim/index.js');
    return runSimAgent(args.slice(1));
  }
  if (args[0] === 'doctor') {
    const { runDoctor } = await import('./app/commands/doctor.js');
    return runDoctor(args.slice(1), env, io);
  }
  if (args[0] === 'runs' || args[0] === 'show') {
    const { runHistory } = await import('./app/commands/runs.js');
    return runHistory(args, env, io);
  }
  if (args[0] === 'merge' || args[0] === 'rm') {
    const { runRelayCommand } = await import('./app/commands/relays.js');
    return runRelayCommand(args[0], args.slice(1), io);
  }
  if (args[0] === 'explain') {
    const { runExplain } = await import('./app/commands/explain.js');
    return runExplain(args.slice(1), io);
  }
  if (args[0] === 'completion') {
    const [{ SHELLS, completionScript }, { COMPLETION_USAGE }] = await Promise.all([
      import('./app/commands/completion.js'),
      import('./app/config/usage.js'),
    ]);
    const shell = SHELLS.find((s) => s === args[1]);
    if (shell === undefined || args.length > 2) {
      const near = args.length === 2 ? await nearCommand(args[1]!, SHELLS) : '';
      io.stderr.write(
        `relevo-tui: completion: ${args[1] === undefined ? 'which shell?' : `unknown shell ${args.slice(1).join(' ')}${near}`} (usage: ${COMPLETION_USAGE})\n`,
      );
      return EXIT_USAGE;
    }
    io.stdout.write(completionScript(shell));
    return 0;
  }
  if (args[0] === 'schema') {
    const { configJsonSchema } = await import('./app/config/relevo-toml-schema.js');
    io.stdout.write(`${JSON.stringify(configJsonSchema(), null, 2)}\n`);
    return 0;
  }
  // `--help` or `--version` alone: before the flags' schema and the settings file are loaded.
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    io.stdout.write(await usage());
    return 0;
  }
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`relevo-tui ${packageVersion()}\n`);
    return 0;
  }
  // In a terminal the TUI's modules start loading now, their files read while the options are
  // parsed: the first frame comes sooner. Not for --headless.
  const tui = process.stdin.isTTY && process.stdout.isTTY && !args.includes('--headless') ? importTui() : undefined;
  tui?.catch(() => {}); // a failure is reported where the TUI starts
  // `new`: a relay in a worktree of its own, with a run's options.
  const made = args[0] === 'new';
  const runArgs = made ? args.slice(1) : args;
  try {
    // A first word that is no command: one close to a command's name (a run id never is) gets "did you mean".
    if (!made && args[0] !== undefined && !args[0].startsWith('-')) {
      const near = await nearCommand(args[0], [...(await import('./app/config/usage.js')).COMMAND_HELP.keys()]);
      if (near !== '') throw new ConfigError('usage', `unknown command ${args[0]}${near} (see --help)`);
    }
    const [{ parseOptions }, { loadConfig }] = await Promise.all([
      import('./app/config/options.js'),
      import('./app/config/relevo-toml.js'),
    ]);
    const options = parseOptions(runArgs, env, (explicit) => loadConfig(explicit, process.cwd()));
    if (options.help) {
      io.stdout.write(await usage());
      return 0;
    }
    if (options.version) {
      io.stdout.write(`relevo-tui ${packageVersion()}\n`);
      return 0;
    }
    if (!made && options.branch !== undefined) throw new ConfigError('--branch', 'only with relevo-tui new');
    if (!made && options.base !== undefined) throw new ConfigError('--base', 'only with relevo-tui new');
    if (!options.headless && (!process.stdin.isTTY || !process.stdout.isTTY)) {
      throw new ConfigError('usage', 'the TUI needs a terminal on stdin and stdout: add --headless to run without one');
    }
    // A run on a host is a relay there: the code goes to a worktree of its own on the host.
    const relayed = made || (options.backend.kind === 'host' && options.resume === false);
    // Loaded only for a relay's run or a resumed one: a plain start's first frame does without git and its hooks.
    const relays = relayed || options.resume !== false ? await import('./app/commands/relays.js') : null;
    const relay = relays === null ? {} : relayed ? await relays.newRelay(options, env) : relays.resumedRelays(options, env);
    if (options.headless) {
      // relevo.toml asked for it: NODE_ENV and fetch are put back before anything runs.
      await tui?.catch(() => {});
      if (options.all) return await (await import('./app/commands/fleet.js')).runFleet(options, packageVersion(), env, io);
      const { runHeadless } = await import('./app/commands/headless.js');
      return await runHeadless(options, packageVersion(), env, io, relay);
    }
    const { startTui } = await (tui ?? importTui());
    return await startTui(options, packageVersion(), env, { stdin: process.stdin, stdout: process.stdout }, relay);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`relevo-tui: ${error.toString()}\n`);
      return EXIT_USAGE;
    }
    // A relay's setup failed (the TUI had not started its agents): journaled as its pause.
    if (error instanceof Error && error.name === 'SetupFailed') {
      io.stderr.write(`relevo-tui: paused: ${error.message}\n`);
      return EXIT_PAUSED;
    }
    // Never a stack trace: what failed, in one line.
    io.stderr.write(`relevo-tui: internal error: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
    return EXIT_INTERNAL;
  }
}
