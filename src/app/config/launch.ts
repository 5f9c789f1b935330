import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { type CliVersion, type HookKind, type Lang, type Role, rolePrompt } from '../../protocol/index.js';
import type { Profile } from '../../pty/profile.js';
import type { HookChannel } from '../replies/hook-channel.js';
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

/**
 * Arguments that install relevo's end-of-turn hook. Claude Code: an extra settings layer with a
 * `Stop` hook (the user's own settings and hooks still load). Codex: a `notify` override.
 */
function hookArgs(role: Role, kind: HookKind, channel: HookChannel): string[] {
  switch (kind) {
    case 'claude-stop': {
      const settings = join(channel.dir, `${role}.claude-settings.json`);
      const command = quote(hookCommand(kind));
      writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } }, null, 2), { mode: 0o600 });
      return ['--settings', settings];
    }
    case 'codex-notify':
      return ['-c', `notify=${JSON.stringify(hookCommand(kind))}`];
  }
}

/** The argv and extra environment an agent is launched with: its command, the profile's args, the role prompt flag, the hook. */
export function launchFor(role: Role, spec: AgentSpec, lang: Lang, channel: HookChannel | null): Launch {
  const { launch, hook } = spec.profile.data;
  const prompt = rolePrompt(role, lang);
  const promptArgs = (launch.role_prompt_args ?? []).map((a) =>
    a.replaceAll('{prompt_toml}', JSON.stringify(prompt)).replaceAll('{prompt}', prompt),
  );
  const argv = [...spec.argv, ...launch.args, ...promptArgs];
  if (hook && channel) argv.push(...hookArgs(role, hook.kind, channel));
  return { argv, env: { ...launch.env, ...(hook && channel ? channel.env(role) : {}), RELEVO_ROLE: role } };
}
