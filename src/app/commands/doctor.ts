import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type CliVersion, type HookKind, profileForVersion, ROLES, type Role, type TranscriptKind } from '../../protocol/index.js';
import { CHOICE_FILE, unnamedChoice } from '../config/agent-choice.js';
import { noAgentsError } from '../config/installed.js';
import type { AgentSpec } from '../config/launch.js';
import { agentsUnnamed, givenFlags, type Options, parseOptions } from '../config/options.js';
import { agentEnv, unwrapEnv } from '../config/profiles.js';
import { CONFIG_FILE, loadConfig } from '../config/relevo-toml.js';
import { COMMAND_HELP } from '../config/usage.js';
import { readCliVersion } from '../config/versions.js';
import { ConfigError } from '../faults/errors.js';
import { claudeProjectDir } from '../replies/transcript.js';
import { copilotSessionsDir } from '../replies/transcript-copilot.js';
import { geminiChatsDir } from '../replies/transcript-gemini.js';
import { qwenChatsDir } from '../replies/transcript-qwen.js';
import { agentSpec } from '../run/agent-specs.js';
import { backendFor } from '../run/backends.js';
import { stateDirPath } from '../store/state-dir.js';
import { checkOnHost, type HostAgent, type HostReport } from './doctor-host.js';

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

/** What `doctor` found about one agent: lines to show, and the problems among them. */
export type AgentReport = { readonly role: Role; readonly lines: readonly string[]; readonly problems: readonly string[] };

const HOOKS: Record<HookKind, string> = {
  'claude-stop': 'Stop hook (an extra --settings layer)',
  'codex-notify': 'notify program (-c notify=…)',
  'qwen-stop': 'Stop hook (a system-defaults settings layer, QWEN_CODE_SYSTEM_DEFAULTS_PATH)',
  'opencode-plugin': 'plugin on session.status idle (added through OPENCODE_CONFIG_CONTENT)',
};

function transcriptDir(kind: TranscriptKind, env: NodeJS.ProcessEnv, cwd: string): string {
  switch (kind) {
    case 'claude-projects':
      return claudeProjectDir(env, cwd);
    case 'codex-rollout':
      return join(env.CODEX_HOME ?? join(env.HOME ?? homedir(), '.codex'), 'sessions');
    case 'qwen-projects':
      return qwenChatsDir(env, cwd);
    case 'gemini-chats':
      return geminiChatsDir(env, cwd);
    case 'copilot-session-state':
      return copilotSessionsDir(env);
  }
}

const home = (env: NodeJS.ProcessEnv, path: string) => {
  const h = env.HOME ?? homedir();
  return path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
};

function versionLine(cli: CliVersion | null): string {
  if (cli === null) return 'not asked (the profile does not say how)';
  if (cli.status === 'unknown') return `unknown: ${cli.detail} (tested: ${cli.range})`;
  return cli.verdict === 'tested'
    ? `${cli.version}, inside the tested range ${cli.range}`
    : `${cli.version}, ${cli.verdict} than the tested ${cli.range}`;
}

/** Checks one agent as a run would start it (`from` says why this one): binary, release, profile, and where its replies would come from. */
export async function checkAgent(
  role: Role,
  spec: AgentSpec,
  from: string,
  attached: boolean,
  env: NodeJS.ProcessEnv,
  cwd: string,
  /** The agent runs on a host: its binary and version as read there. */
  on?: HostAgent,
): Promise<AgentReport> {
  const data = spec.profile.data;
  const problems: string[] = [];
  const cli = on ? on.cli : await readCliVersion(spec, env);
  const program = unwrapEnv(spec.argv)[0] ?? '';
  const name = data.id;
  if (name === 'generic') {
    problems.push(
      `${role}: no profile knows ${program}: turn ends are guessed from a shell-like prompt and quiet; name one with --${role}-profile`,
    );
  }
  if (cli?.status === 'unknown' && on?.binary !== null) problems.push(`${role}: cannot read ${name}'s version: ${cli.detail}`);
  if (cli?.status === 'found' && cli.verdict !== 'tested') {
    problems.push(
      `${role}: ${name} ${cli.version} is ${cli.verdict} than the tested ${cli.range}: relevo runs it with a warning; see "Agent versions" in docs/agents.md`,
    );
  }
  const deliver = profileForVersion(data, cli?.status === 'found' ? cli.version : null).deliver;
  const typing = deliver.paste === 'lines' ? 'line by line (each line pasted, Ctrl-J between lines)' : 'one bracketed paste';

  const hook = data.hook === undefined ? null : attached ? null : HOOKS[data.hook.kind];
  const hookLine =
    data.hook === undefined
      ? data.transcript?.primary === true
        ? 'none (the CLI has none relevo can install): replies come from its transcript'
        : 'none in this profile'
      : hook === null
        ? 'not installed: relevo did not start this agent (attached pane)'
        : `${hook}`;
  let transcriptLine = 'none in this profile';
  if (data.transcript !== undefined && on !== undefined) transcriptLine = `on ${on.destination}, where the agent writes it`;
  else if (data.transcript !== undefined) {
    const dir = transcriptDir(data.transcript.kind, agentEnv(env, spec.argv), cwd);
    transcriptLine = `${home(env, dir)}${existsSync(dir) ? '' : ' (not written yet: it appears once the agent has run here)'}`;
  }
  const screenLine = data.reply.hard_wrap ? 'always, lossy: the CLI hard-wraps long lines' : 'always';
  if (hook === null && data.reply.hard_wrap && data.transcript?.primary !== true) {
    const fallback = data.transcript === undefined ? 'the screen, where long lines come back split' : 'its transcript, else the screen';
    problems.push(`${role}: no end-of-turn hook (${hookLine}): replies come from ${fallback}`);
  }
  return {
    role,
    problems,
    lines: [
      `${role}  ${spec.argv.join(' ')}`,
      `  from      ${from}`,
      `  binary    ${on === undefined ? program : on.binary === null ? `${program}: not on ${on.destination}'s PATH` : `${on.binary} on ${on.destination}`}`,
      `  version   ${versionLine(cli)}`,
      `  profile   ${name} · typing: ${typing}`,
      `  replies   hook: ${hookLine}`,
      `            transcript: ${transcriptLine}`,
      `            screen: ${screenLine}`,
    ],
  };
}

/** The agents a run with these options would start (or attach to), each or the reason it cannot. */
async function agentsOf(
  options: Options,
  env: NodeJS.ProcessEnv,
): Promise<{ specs: Partial<Record<Role, AgentSpec>>; attached: boolean; problems: string[] }> {
  const problems: string[] = [];
  const attached = (options.backend.kind === 'tmux' || options.backend.kind === 'herdr') && options.backend.panes !== null;
  if (attached) {
    try {
      const { agents } = await backendFor(
        options,
        env,
        () => ({ planner: agentSpec('planner', options, env), builder: agentSpec('builder', options, env) }),
        () => 'relevo',
      );
      return { specs: agents, attached, problems };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return { specs: {}, attached, problems: [`${error.where}: ${error.message}`] };
    }
  }
  const specs: Partial<Record<Role, AgentSpec>> = {};
  for (const role of ROLES) {
    try {
      specs[role] = agentSpec(role, options, env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(`${role}: ${error.message}`);
    }
  }
  return { specs, attached, problems };
}

/** The settings file a run would read, and the flag values it gave. */
type Settings = { readonly where: string; readonly values: Readonly<Record<string, string | boolean | string[]>> };

/**
 * The options a run would start with, and why each agent is the one it would run: a flag, the settings
 * file, --demo, a pane; with nothing naming them, what the picker would start on (the choice remembered
 * in the state dir, or the agents found on the PATH), or the problem that there is none.
 */
function chosenAgents(
  args: readonly string[],
  options: Options,
  settings: Settings,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { options: Options; from: Record<Role, string>; problems: string[] } {
  if (agentsUnnamed(options)) {
    const { found, choice, remembered } = unnamedChoice(stateDirPath(options.stateDir, cwd), env.PATH ?? '');
    if (choice === null) return { options, from: { planner: '', builder: '' }, problems: [noAgentsError(found).toString()] };
    const why = remembered
      ? `picked last time (${join(options.stateDir, CHOICE_FILE)})`
      : `found on the PATH (${found.map((a) => a.program).join(', ')})`;
    const from = `${why}: nothing names the agents, so the TUI's picker starts on it (--headless needs them named)`;
    return {
      options: { ...options, planner: choice.planner, builder: choice.builder },
      from: { planner: from, builder: from },
      problems: [],
    };
  }
  const given = givenFlags(args);
  const origin = (flag: string) => (given[flag] !== undefined ? `--${flag}` : settings.values[flag] !== undefined ? settings.where : null);
  const of = (role: Role): string => {
    const { backend } = options;
    if (backend.kind !== 'local' && backend.panes !== null)
      return `the ${backend.kind} pane ${backend.panes[role]} (${origin(`${role}-pane`)})`;
    return origin(role) ?? (options.demo ? `the built-in simulated agent (${origin('demo')})` : 'nothing');
  };
  return { options, from: { planner: of('planner'), builder: of('builder') }, problems: [] };
}

/**
 * `relevo-tui doctor [options]`: for each agent a run would start (named by the flags or relevo.toml,
 * else the picker's default), why that one, the binary, its version against the profile's tested range,
 * the profile, and the reply sources a run would have. Exit 0 when all is fine; 1 with one line per
 * problem; 2 for bad usage.
 */
export async function runDoctor(args: readonly string[], env: NodeJS.ProcessEnv, io: Io, cwd = process.cwd()): Promise<number> {
  let parsed: Options;
  let settings: Settings = { where: CONFIG_FILE, values: {} };
  try {
    parsed = parseOptions(args, env, (explicit) => {
      settings = { where: explicit ?? CONFIG_FILE, values: loadConfig(explicit, cwd) };
      return settings.values;
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`relevo-tui doctor: ${error.toString()}\n`);
    return 2;
  }
  if (parsed.help) {
    io.stdout.write(COMMAND_HELP.get('doctor') ?? '');
    return 0;
  }
  const { options, from, problems: unnamed } = chosenAgents(args, parsed, settings, env, cwd);
  const { specs, attached, problems } =
    unnamed.length > 0 ? { specs: {}, attached: false, problems: unnamed } : await agentsOf(options, env);
  // On a host: the host is asked first (out of reach: one line, exit 2, as for a run), the agents as it has them.
  let host: HostReport | null = null;
  if (options.backend.kind === 'host') {
    try {
      host = await checkOnHost(options.backend.destination, options, specs, cwd);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      io.stderr.write(`relevo-tui doctor: ${error.toString()}\n`);
      return 2;
    }
    io.stdout.write(`${host.lines.join('\n')}\n\n`);
  }
  const reports = await Promise.all(
    ROLES.flatMap((role) => (specs[role] ? [checkAgent(role, specs[role], from[role], attached, env, cwd, host?.agents[role])] : [])),
  );
  for (const report of reports) io.stdout.write(`${report.lines.join('\n')}\n\n`);
  const all = [...problems, ...(host?.problems ?? []), ...reports.flatMap((r) => r.problems)];
  if (all.length === 0) {
    io.stdout.write('all fine\n');
    return 0;
  }
  io.stdout.write(`${all.length} problem${all.length === 1 ? '' : 's'}:\n${all.map((p) => `  ${p}\n`).join('')}`);
  return 1;
}
