/**
 * A throwaway home for the real Qwen Code CLI: it starts straight at its idle prompt, offline,
 * talking Anthropic Messages to a fake model server on 127.0.0.1.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, makeTempDir, qwenBin } from './homes.js';

/** The Qwen Code the tests run (`@qwen-code/qwen-code` in devDependencies, linked as `qwen`), or RELEVO_TEST_QWEN_BIN. */
export const QWEN_BIN = qwenBin('newest');

/** The model name the fake server is asked for. */
export const QWEN_MODEL = 'claude-fake';

export type QwenHome = AgentHome & {
  /** `~/.qwen`: settings.json, and the runtime directory (`projects/<cwd slug>/chats/<session>.jsonl`). */
  readonly qwenDir: string;
  /** What a `--planner`/`--builder` command line needs in front of the binary: `env QWEN_HOME=… ANTHROPIC_…=…`. */
  readonly envArgs: readonly string[];
};

/** How Qwen Code names a project folder under `~/.qwen/projects`: every non-alphanumeric character becomes `-`. */
export function qwenProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * A HOME whose `~/.qwen/settings.json` (also named by QWEN_HOME, so the env works beside another
 * agent's HOME) selects the `anthropic` auth type and a model name, with auto-update, usage
 * statistics and telemetry off; the base URL and key come from the environment. Off too, so that
 * every model request is a turn the test scripted: managed auto-memory (a memory-extraction request
 * after each turn). Tools ask before they run (`default`; `auto` asks the model to classify each
 * call), and the bundled ripgrep is not used (npm leaves it without its execute bit here).
 * `settings` is merged into the top level of settings.json.
 */
export function createQwenHome(options: HomeOptions & { readonly settings?: Record<string, unknown> }): QwenHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-qwen-cwd-');
  const home = makeTempDir('relevo-qwen-home-');
  const qwenDir = join(home, '.qwen');
  mkdirSync(qwenDir);
  const settings = {
    security: { auth: { selectedType: 'anthropic' } },
    model: { name: QWEN_MODEL },
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    tools: { approvalMode: 'default', useRipgrep: false },
    ...options.settings,
  };
  writeFileSync(join(qwenDir, 'settings.json'), JSON.stringify(settings, null, 2));
  const agentEnv = { QWEN_HOME: qwenDir, ANTHROPIC_BASE_URL: options.serverUrl, ANTHROPIC_API_KEY: 'test', ANTHROPIC_MODEL: QWEN_MODEL };
  return {
    envArgs: ['env', ...Object.entries(agentEnv).map(([k, v]) => `${k}=${v}`)],
    cwd,
    home,
    qwenDir,
    bin: options.bin ?? QWEN_BIN,
    env: {
      ...baseEnv(),
      HOME: home,
      ...agentEnv,
    },
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}
