/** `relevo-tui new`, `merge` and `rm`: a relay made in a worktree of its own, merged back, removed; and the relays of a repository. */
import { basename, join } from 'node:path';
import type { RelayInfo, Role } from '../../protocol/index.js';
import type { SshHost } from '../../pty/backends/ssh.js';
import { parseFlags, unexpectedArgument } from '../config/args.js';
import { splitCommand } from '../config/command.js';
import type { AgentSpec } from '../config/launch.js';
import { DEMO_GOAL, type Options } from '../config/options.js';
import { MERGE_USAGE, RM_USAGE } from '../config/usage.js';
import { ConfigError } from '../faults/errors.js';
import { mergeRelay, removeRelay } from '../relays/cleanup.js';
import { mainRoot, RelayError } from '../relays/git.js';
import { claimPorts, type PrepareSettings, relayHooks } from '../relays/prepare.js';
import { createHostWorktree, DEFAULT_REPOS_DIR, type HostCreateOptions } from '../relays/remote.js';
import { createWorktree } from '../relays/worktrees.js';
import { flagAgents } from '../run/agent-specs.js';
import { sshHostOf } from '../run/host-backend.js';
import { requireOnHost } from '../run/host-check.js';
import type { RelayOpen } from '../run/setup.js';
import { lockHolder } from '../store/locks.js';
import { mainTreeOf, stateDirPath } from '../store/state-dir.js';
import type { Io } from './headless.js';
import type { RunSummary } from './run-summary.js';
import { loadRun, runIds } from './runs.js';

/** A git failure or refusal as the command's one-line error. */
async function asConfig<T>(where: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RelayError) throw new ConfigError(where, error.message);
    throw error;
  }
}

/** What a relay's worktree gets before its agents start, from the options; a host relay's host reached as the options say. */
const prepareSettings = (options: Options, env: NodeJS.ProcessEnv, root: string, stateDir: string): PrepareSettings => ({
  root,
  setup: options.setup,
  copy: options.copy,
  env,
  stateDir,
  hostOf: (destination) => sshHostOf(destination, options, root),
});

/** A host relay's worktree, made once the host has what the run needs (else one line naming what it lacks, nothing made). */
async function hostWorktree(root: string, host: SshHost, options: Options, env: NodeJS.ProcessEnv, where: HostCreateOptions) {
  let agents: Partial<Record<Role, AgentSpec>> = {};
  try {
    agents = flagAgents(options, env);
  } catch (error) {
    // Not named yet (the picker names them): the host backend checks them before they start.
    if (!(error instanceof ConfigError)) throw error;
  }
  await requireOnHost(host, { repo: `${DEFAULT_REPOS_DIR}/${basename(root)}.git`, agents });
  return createHostWorktree(root, host, where);
}

/**
 * `relevo-tui new`: the relay's worktree made (on a new branch named from the goal, outside the
 * repository), a block of ports claimed, and what the run needs to start there with its setup.
 */
export async function newRelay(options: Options, env: NodeJS.ProcessEnv, cwd = process.cwd()): Promise<RelayOpen> {
  if (options.resume !== false) throw new ConfigError('new', 'not with --resume (a relay goes on with relevo-tui --resume RUN)');
  const goal = options.goal ?? (options.demo ? DEMO_GOAL : undefined);
  if (goal === undefined) throw new ConfigError('new', 'needs --goal TEXT: the relay and its branch are named from it');
  return asConfig('new', async () => {
    const root = await mainRoot(cwd);
    const stateDir = stateDirPath(options.stateDir, root);
    const ports = await claimPorts(stateDir);
    const where = {
      goal,
      ...(options.branch !== undefined ? { branch: options.branch } : {}),
      ...(options.base !== undefined ? { base: options.base } : {}),
    };
    const backend = options.backend;
    // A relay on a host: its worktree made there from this repository's base commit (pushed over ssh).
    const created =
      backend.kind === 'host'
        ? await hostWorktree(root, sshHostOf(backend.destination, options, root), options, env, where)
        : await createWorktree(root, { ...where, ...(options.worktreesDir !== undefined ? { worktreesDir: options.worktreesDir } : {}) });
    const relay: RelayInfo = {
      branch: created.branch,
      path: created.path,
      base: created.baseRef,
      ...(ports !== null ? { port: ports.port } : {}),
      ...(backend.kind === 'host' ? { host: backend.destination } : {}),
    };
    return { site: { relay, goal }, relays: relayHooks(prepareSettings(options, env, root, stateDir)) };
  });
}

/** The hooks a resumed relay's run needs (its ports claimed again, a failed setup run again), from the repository at `cwd`. */
export function resumedRelays(options: Options, env: NodeJS.ProcessEnv, cwd = process.cwd()): RelayOpen {
  // Read from files, no git started: most resumed runs are no relay and never call the hooks.
  const root = mainTreeOf(cwd) ?? cwd;
  const stateDir = stateDirPath(options.stateDir, root);
  return { relays: relayHooks(prepareSettings(options, env, root, stateDir)) };
}

export type RelayRun = { readonly name: string; readonly dir: string; readonly summary: RunSummary; readonly live: number | null };

/** A relay `--resume --all` goes on with: not done, not given up before its goal, held by no live relevo. */
export const resumable = (r: RelayRun): boolean => r.live === null && r.summary.state !== 'done' && r.summary.state !== 'no_goal';

/** Every relay of the state directory with its newest run: what it is doing (from its journal) and the relevo holding it. */
export function listRelays(stateDir: string): RelayRun[] {
  const runsDir = join(stateDir, 'runs');
  const seen = new Map<string, RelayRun>();
  for (const id of runIds(runsDir)) {
    const { summary } = loadRun(runsDir, id);
    if (summary.relay === undefined || seen.has(summary.relay)) continue; // newest first: the first is the relay's latest
    const dir = join(runsDir, id);
    seen.set(summary.relay, { name: summary.relay, dir, summary, live: lockHolder(dir) });
  }
  return [...seen.values()];
}

/** Refuses while a live relevo runs the relay and it is not paused or done: its agents may be writing in the worktree. */
function refuseWhileWorking(stateDir: string, name: string, doing: string): void {
  const run = listRelays(stateDir).find((r) => r.name === name);
  if (run?.live != null && run.summary.state === 'running')
    throw new ConfigError(doing, `${name} is working in relevo-tui (pid ${run.live}): pause it first (p on its row, or C-] p)`);
}

function relayArgs(command: 'merge' | 'rm', args: readonly string[]) {
  const usage = command === 'merge' ? MERGE_USAGE : RM_USAGE;
  const context = { where: command, hint: `usage: ${usage}` };
  const flag = command === 'merge' ? 'squash' : 'force';
  const { values, positionals } = parseFlags(
    args,
    { [flag]: { type: 'boolean', default: false }, 'state-dir': { type: 'string', default: '.relevo' } },
    context,
  );
  if (positionals.length === 0) throw new ConfigError(command, `which relay? (usage: ${usage})`);
  if (positionals.length > 1) throw unexpectedArgument(positionals[1], context);
  return { name: positionals[0]!, on: values[flag] === true, stateDir: String(values['state-dir']) };
}

/** `relevo-tui merge NAME [--squash]` and `relevo-tui rm NAME [--force]`: one line said, exit 0; a refusal is one line, exit 2. */
export async function runRelayCommand(command: 'merge' | 'rm', args: readonly string[], io: Io, cwd = process.cwd()): Promise<number> {
  try {
    const { name, on, stateDir } = relayArgs(command, args);
    const root = await asConfig(command, () => mainRoot(cwd));
    refuseWhileWorking(stateDirPath(stateDir, root), name, command);
    const settings = (await import('../config/relevo-toml.js')).loadConfig(undefined, root);
    // A host relay's host is reached as a run reaches it: RELEVO_SSH_COMMAND, else relevo.toml's ssh_command.
    const given = settings['ssh-command'];
    const ssh = {
      stateDir: stateDirPath(stateDir, root),
      ...(typeof given === 'string' && !process.env.RELEVO_SSH_COMMAND ? { sshCommand: splitCommand(given, 'ssh_command') } : {}),
    };
    if (command === 'merge') {
      const merged = await asConfig(command, () => mergeRelay(root, name, { squash: on, ...ssh }));
      io.stdout.write(`merged ${name} into ${merged.baseRef}${merged.squashed ? ' (squashed)' : ''}: ${merged.head.slice(0, 12)}\n`);
      return 0;
    }
    // The files `[worktree] copy` put in are the repository's: their copies are no work to keep.
    const copy = settings.copy;
    const copies = Array.isArray(copy) ? copy : [];
    const removed = await asConfig(command, () => removeRelay(root, name, { force: on, copies, ...ssh }));
    const kept = removed.branchDeleted
      ? 'branch deleted (merged)'
      : `branch ${name} kept${removed.unmerged.length > 0 ? ` (${removed.unmerged.length} commits not merged)` : ''}`;
    io.stdout.write(`removed ${name}: ${removed.worktreeRemoved ? 'worktree removed' : 'no worktree'}; ${kept}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`relevo-tui: ${error.toString()}\n`);
    return 2;
  }
}
