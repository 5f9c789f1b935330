/**
 * A throwaway home for the real GitHub Copilot CLI: it starts straight at its idle prompt, offline
 * (COPILOT_OFFLINE: no GitHub sign-in, telemetry or update check), talking OpenAI Chat Completions to
 * a fake model server on 127.0.0.1 through its BYOK provider, with no GitHub credential in its env.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentHome, baseEnv, copilotBin, type HomeOptions, makeTempDir } from './homes.js';

/** The model name the fake server is asked for (not in Copilot's catalog: its token limits are given). */
export const COPILOT_MODEL = 'fake-model';

/**
 * The release of the binary itself: `--no-auto-update --version` (plain `--version` answers for the
 * newest release unpacked in the cache, which is what the binary would run without the flag).
 */
export function copilotVersion(bin: string): string {
  const out = execFileSync(bin, ['--no-auto-update', '--version'], { encoding: 'utf8' });
  return /(\d+\.\d+\.\d+)/.exec(out)?.[1] ?? 'unknown';
}

export type CopilotHome = AgentHome & {
  /** `~/.copilot` (also COPILOT_HOME): settings.json, config.json, `session-state/<id>/events.jsonl`. */
  readonly copilotDir: string;
  /** Where the binary unpacks its package (XDG_CACHE_HOME): its own per home, see below. */
  readonly cacheDir: string;
  /** What a `--planner`/`--builder` command line needs in front of the binary: `env COPILOT_…=… XDG_CACHE_HOME=…`. */
  readonly envArgs: readonly string[];
};

/**
 * A HOME whose `~/.copilot/settings.json` turns off the banner, the startup tip, the tab bar and
 * auto-update's downloads (not COPILOT_AUTO_UPDATE: the profile's --no-auto-update must keep the
 * release on its own, see relay-copilot.test.ts), and whose `config.json` (where the CLI keeps trusted folders) trusts `cwd`. The binary
 * unpacks itself into `$XDG_CACHE_HOME/copilot/pkg/<platform>/<version>` and, unless told otherwise,
 * runs the newest release it finds there: each home has its own cache, so an older binary never runs
 * another test's newer one. `settings` is merged into the top level of settings.json.
 */
export function createCopilotHome(options: HomeOptions & { readonly settings?: Record<string, unknown> }): CopilotHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-copilot-cwd-');
  const home = makeTempDir('relevo-copilot-home-');
  const copilotDir = join(home, '.copilot');
  const cacheDir = join(home, '.cache');
  mkdirSync(copilotDir);
  const settings = { banner: 'never', showTipsOnStartup: false, autoUpdate: false, tabs: { enabled: false }, ...options.settings };
  writeFileSync(join(copilotDir, 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(join(copilotDir, 'config.json'), JSON.stringify({ trustedFolders: [cwd] }, null, 2));
  const agentEnv = {
    COPILOT_HOME: copilotDir,
    XDG_CACHE_HOME: cacheDir,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${options.serverUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'test',
    COPILOT_MODEL,
    COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '100000',
    COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: '8000',
  };
  return {
    envArgs: ['env', ...Object.entries(agentEnv).map(([k, v]) => `${k}=${v}`)],
    cwd,
    home,
    copilotDir,
    cacheDir,
    bin: options.bin ?? copilotBin('newest'),
    env: { ...baseEnv(), HOME: home, ...agentEnv },
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}
