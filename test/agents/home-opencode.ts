/**
 * A throwaway home for the real OpenCode CLI (npm `opencode-ai`, a Bun-compiled binary), set up so
 * it starts straight at its idle prompt, offline, talking to a fake Chat Completions server on
 * 127.0.0.1 through an `@ai-sdk/openai-compatible` provider (bundled in the binary).
 *
 * What it would otherwise reach for, as seen with strace on 1.18.33:
 * - the model catalogue (models.dev): off with OPENCODE_DISABLE_MODELS_FETCH;
 * - the npm registry, for `@opencode-ai/plugin` in every config directory it loads
 *   ($XDG_CONFIG_HOME/opencode, .opencode, OPENCODE_CONFIG_DIR), unless that directory already has a
 *   `node_modules` and a `package-lock.json` whose root lists the package: written here, as a user's
 *   config directory looks once OpenCode installed it; `npm_config_offline` keeps any other install
 *   off the network;
 * - default plugins from npm: off with OPENCODE_DISABLE_DEFAULT_PLUGINS; self-update: off with
 *   OPENCODE_DISABLE_AUTOUPDATE and `autoupdate: false`; sharing: `share: "disabled"`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentHome, baseEnv, cliVersion, type HomeOptions, makeTempDir, opencodeBin } from './homes.js';

/** The OpenCode the tests run (`opencode-ai` in devDependencies), or RELEVO_TEST_OPENCODE_BIN. */
export const OPENCODE_BIN = opencodeBin('newest');

/** The provider and model the home's config defines: `fake/fake-model`. */
export const OPENCODE_MODEL = 'fake/fake-model';

export type OpencodeHome = AgentHome & {
  /** `$XDG_CONFIG_HOME/opencode`: the user's own config directory (opencode.json, plugins/). */
  readonly configDir: string;
  /** `$XDG_DATA_HOME/opencode`: the session database (opencode.db) and the log. */
  readonly dataDir: string;
};

export type OpencodeHomeOptions = HomeOptions & {
  /** Merged into the top level of the user's `opencode.json` (e.g. `permission`). */
  readonly config?: Record<string, unknown>;
  /** Files written into the user's `plugins/` directory (name → source): the user's own plugins. */
  readonly plugins?: Readonly<Record<string, string>>;
};

export function createOpencodeHome(options: OpencodeHomeOptions): OpencodeHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-opencode-cwd-');
  const home = makeTempDir('relevo-opencode-home-');
  const bin = options.bin ?? OPENCODE_BIN;
  const dir = (...parts: string[]) => {
    const path = join(home, ...parts);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const configDir = dir('.config', 'opencode');
  const dataDir = dir('.local', 'share', 'opencode');
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: OPENCODE_MODEL,
    small_model: OPENCODE_MODEL,
    autoupdate: false,
    share: 'disabled',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${options.serverUrl}/v1`, apiKey: 'test' },
        models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 200_000, output: 8192 } } },
      },
    },
    ...options.config,
  };
  writeFileSync(join(configDir, 'opencode.json'), JSON.stringify(config, null, 2));
  // The config directory as OpenCode leaves it after installing its plugin package: nothing to fetch.
  const plugin = { '@opencode-ai/plugin': cliVersion(bin) };
  mkdirSync(join(configDir, 'node_modules'));
  writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies: plugin }, null, 2));
  writeFileSync(
    join(configDir, 'package-lock.json'),
    JSON.stringify({ name: 'opencode', lockfileVersion: 3, requires: true, packages: { '': { dependencies: plugin } } }, null, 2),
  );
  for (const [name, source] of Object.entries(options.plugins ?? {}))
    writeFileSync(join(dir('.config', 'opencode', 'plugins'), name), source);
  return {
    cwd,
    home,
    bin,
    configDir,
    dataDir,
    env: {
      ...baseEnv(),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: dir('.cache'),
      XDG_STATE_HOME: dir('.local', 'state'),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      npm_config_offline: 'true',
    },
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}
