import { pathToFileURL } from 'node:url';
import { quote } from 'shell-quote';
import { type CliVersion, type HookKind, type Lang, type Role, rolePrompt } from '../../protocol/index.js';
import type { Profile } from '../../pty/profile.js';
import { type HookSite, spoolCommand } from '../replies/hook-site.js';
import { opencodeConfigContent, opencodePluginSource } from './opencode-plugin.js';
import { BIN } from './paths.js';

export type AgentSpec = {
  /** The command as the user gave it, program resolved. */
  readonly argv: readonly string[];
  readonly profile: Profile;
  /** The CLI's release, read at start when the profile says how (see versions.ts). */
  readonly cli?: CliVersion;
};

export { spoolCommand };

export type Launch = { readonly argv: string[]; readonly env: Record<string, string> };

/** The command an agent's hook runs: this package's `relevo-tui hook KIND` (on a host, the relevo-tui on its PATH). */
export function hookCommand(kind: HookKind, onHost = false): string[] {
  return onHost ? ['relevo-tui', 'hook', kind] : [process.execPath, BIN, 'hook', kind];
}

/** What installs relevo's end-of-turn hook in one agent: arguments after its command, and environment. */
type HookInstall = { readonly args: readonly string[]; readonly env: Readonly<Record<string, string>> };

/**
 * Codex's `notify` program, spooling: the shell with the script, Codex's JSON appended as its last
 * argument (the script's `$1`).
 */
export const spoolNotify = (spool: string, kind: HookKind): string[] => notifyArgv(spoolCommand(spool, kind, 'arg'));
const notifyArgv = (script: string): string[] => ['/bin/sh', '-c', script, 'relevo-hook'];

/**
 * Settings with a `Stop` hook running `command`, in the shape Claude Code and Qwen Code share;
 * `async` when the profile says the agent runs it in the background.
 */
const stopHook = (command: string, async: boolean) => ({
  hooks: { Stop: [{ hooks: [{ type: 'command', command, ...(async ? { async: true } : {}) }] }] },
});

/** Writes a private settings file for one agent where it runs; returns its path there. */
const settingsLayer = (site: HookSite, name: string, settings: unknown): string => site.file(name, JSON.stringify(settings, null, 2));

/**
 * How relevo's end-of-turn hook is installed. Claude Code: an extra settings layer with a `Stop`
 * hook that spools its report (the user's own settings and hooks still load). Codex: a `notify` override that spools it too. Qwen Code: a
 * system-defaults settings layer with a `Stop` hook, named in the environment. OpenCode: a
 * plugin module, added by an OPENCODE_CONFIG_CONTENT layer merged over the user's config.
 */
function hookInstall(
  role: Role,
  { kind, async }: { readonly kind: HookKind; readonly async: boolean },
  site: HookSite,
  launchEnv: Readonly<Record<string, string>>,
): HookInstall {
  switch (kind) {
    case 'claude-stop': {
      const settings = settingsLayer(site, `${role}.claude-settings.json`, stopHook(site.store(role, kind, 'stdin'), async));
      return { args: ['--settings', settings], env: {} };
    }
    case 'codex-notify':
      return { args: ['-c', `notify=${JSON.stringify(notifyArgv(site.store(role, kind, 'arg')))}`], env: {} };
    case 'qwen-stop': {
      // Qwen Code's lowest settings layer (system defaults): every other layer still loads, and
      // `Stop` hooks from all layers run. Follow-up suggestions off by default: one drawn in the
      // input box would read as a person's unsent draft.
      const layer = { ui: { enableFollowupSuggestions: false }, ...stopHook(quote(hookCommand(kind, site.onHost)), async) };
      return { args: [], env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: settingsLayer(site, `${role}.qwen-settings.json`, layer) } };
    }
    case 'opencode-plugin': {
      const plugin = site.file(`${role}.opencode-plugin.mjs`, opencodePluginSource(hookCommand(kind, site.onHost)));
      const layers = [process.env.OPENCODE_CONFIG_CONTENT, launchEnv.OPENCODE_CONFIG_CONTENT];
      const content = opencodeConfigContent(pathToFileURL(plugin).href, layers);
      return { args: [], env: { OPENCODE_CONFIG_CONTENT: content } };
    }
  }
}

/** The argv and extra environment an agent is launched with: its command, the profile's args, the role prompt flag or variable, the hook. */
export function launchFor(role: Role, spec: AgentSpec, lang: Lang, site: HookSite | null): Launch {
  const { launch, hook } = spec.profile.data;
  const prompt = rolePrompt(role, lang);
  const promptArgs = (launch.role_prompt_args ?? []).map((a) =>
    a.replaceAll('{prompt_toml}', JSON.stringify(prompt)).replaceAll('{prompt}', prompt),
  );
  const installed = hook && site ? hookInstall(role, hook, site, launch.env) : null;
  const promptEnv = Object.fromEntries(Object.entries(launch.role_prompt_env ?? {}).map(([k, v]) => [k, v.replaceAll('{prompt}', prompt)]));
  const argv = [...spec.argv, ...launch.args, ...promptArgs, ...(installed?.args ?? [])];
  const hookEnv = installed && site ? { ...site.env(role), ...installed.env } : {};
  return { argv, env: { ...launch.env, ...promptEnv, ...hookEnv, RELEVO_ROLE: role } };
}
