import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { quote } from 'shell-quote';
import { type CliVersion, type HookKind, type Lang, type Role, rolePrompt } from '../../protocol/index.js';
import type { Profile } from '../../pty/profile.js';
import type { HookChannel } from '../replies/hook-channel.js';
import { opencodeConfigContent, opencodePluginSource } from './opencode-plugin.js';
import { BIN } from './paths.js';

export type AgentSpec = {
  /** The command as the user gave it, program resolved. */
  readonly argv: readonly string[];
  readonly profile: Profile;
  /** The CLI's release, read at start when the profile says how (see versions.ts). */
  readonly cli?: CliVersion;
};

export type Launch = { readonly argv: string[]; readonly env: Record<string, string> };

/** The command an agent's hook runs: this package's `relevo-tui hook KIND`. */
export function hookCommand(kind: HookKind): string[] {
  return [process.execPath, BIN, 'hook', kind];
}

/** What installs relevo's end-of-turn hook in one agent: arguments after its command, and environment. */
type HookInstall = { readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };

/**
 * A hook command that needs no Node start: the shell writes the hook's JSON (on stdin, or its first
 * argument with `from: 'arg'`, as Codex's notify passes it) into the role's spool directory of the
 * hook channel and renames it into place once whole (`<pid>.<kind>.json`), where relevo picks it up.
 * Like `relevo-tui hook`, it never fails the agent.
 */
export function spoolCommand(spool: string, kind: HookKind, from: 'stdin' | 'arg' = 'stdin'): string {
  const file = `${quote([spool])}/$$`;
  const write = from === 'stdin' ? 'cat' : `printf '%s' "$1"`;
  return `{ ${write} > ${file}.part && mv ${file}.part ${file}.${kind}.json; } 2>/dev/null; exit 0`;
}

/**
 * Codex's `notify` program, spooling: the shell with the script, Codex's JSON appended as its last
 * argument (the script's `$1`).
 */
export const spoolNotify = (spool: string, kind: HookKind): string[] => ['/bin/sh', '-c', spoolCommand(spool, kind, 'arg'), 'relevo-hook'];

/**
 * Settings with a `Stop` hook running `command`, in the shape Claude Code and Qwen Code share;
 * `async` when the profile says the agent runs it in the background.
 */
const stopHook = (command: string, async: boolean) => ({
  hooks: { Stop: [{ hooks: [{ type: 'command', command, ...(async ? { async: true } : {}) }] }] },
});

/** Writes a private settings file for one agent in the hook channel's directory; returns its path. */
function settingsLayer(channel: HookChannel, name: string, settings: unknown): string {
  const path = join(channel.dir, name);
  writeFileSync(path, JSON.stringify(settings, null, 2), { mode: 0o600 });
  return path;
}

/**
 * How relevo's end-of-turn hook is installed. Claude Code: an extra settings layer with a `Stop`
 * hook that spools its report (the user's own settings and hooks still load). Codex: a `notify` override that spools it too. Qwen Code: a
 * system-defaults settings layer with a `Stop` hook, named in the environment. OpenCode: a
 * plugin module, added by an OPENCODE_CONFIG_CONTENT layer merged over the user's config.
 */
function hookInstall(
  role: Role,
  { kind, async }: { readonly kind: HookKind; readonly async: boolean },
  channel: HookChannel,
  launchEnv: Readonly<Record<string, string>>,
): HookInstall {
  switch (kind) {
    case 'claude-stop': {
      const settings = settingsLayer(channel, `${role}.claude-settings.json`, stopHook(spoolCommand(channel.spoolFor(role), kind), async));
      return { args: ['--settings', settings], env: {} };
    }
    case 'codex-notify':
      return { args: ['-c', `notify=${JSON.stringify(spoolNotify(channel.spoolFor(role), kind))}`], env: {} };
    case 'qwen-stop': {
      // Qwen Code's lowest settings layer (system defaults): every other layer still loads, and
      // `Stop` hooks from all layers run. Follow-up suggestions off by default: one drawn in the
      // input box would read as a person's unsent draft.
      const layer = { ui: { enableFollowupSuggestions: false }, ...stopHook(quote(hookCommand(kind)), async) };
      return { args: [], env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: settingsLayer(channel, `${role}.qwen-settings.json`, layer) } };
    }
    case 'opencode-plugin': {
      const plugin = join(channel.dir, `${role}.opencode-plugin.mjs`);
      writeFileSync(plugin, opencodePluginSource(hookCommand(kind)), { mode: 0o600 });
      const layers = [process.env.OPENCODE_CONFIG_CONTENT, launchEnv.OPENCODE_CONFIG_CONTENT];
      const content = opencodeConfigContent(pathToFileURL(plugin).href, layers);
      return { args: [], env: { OPENCODE_CONFIG_CONTENT: content } };
    }
  }
}

/** The argv and extra environment an agent is launched with: its command, the profile's args, the role prompt flag or variable, the hook. */
export function launchFor(role: Role, spec: AgentSpec, lang: Lang, channel: HookChannel | null): Launch {
  const { launch, hook } = spec.profile.data;
  const prompt = rolePrompt(role, lang);
  const promptArgs = (launch.role_prompt_args ?? []).map((a) =>
    a.replaceAll('{prompt_toml}', JSON.stringify(prompt)).replaceAll('{prompt}', prompt),
  );
  const installed = hook && channel ? hookInstall(role, hook, channel, launch.env) : null;
  const promptEnv = Object.fromEntries(Object.entries(launch.role_prompt_env ?? {}).map(([k, v]) => [k, v.replaceAll('{prompt}', prompt)]));
  const argv = [...spec.argv, ...launch.args, ...promptArgs, ...(installed?.args ?? [])];
  const hookEnv = installed && channel ? { ...channel.env(role), ...installed.env } : {};
  return { argv, env: { ...launch.env, ...promptEnv, ...hookEnv, RELEVO_ROLE: role } };
}
