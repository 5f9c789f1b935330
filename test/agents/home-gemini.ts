/**
 * A throwaway HOME for the real Gemini CLI, set up so it starts straight at its idle prompt, offline,
 * talking to a fake Gemini API server on 127.0.0.1 (test/helpers/fake-models/gemini.ts): the API-key
 * auth type chosen, the base URL and key in the environment, no auto-update, no telemetry or usage
 * statistics, no IDE nudge, no folder-trust dialog, the terminal-setup prompt marked as shown.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AgentHome, baseEnv, geminiBin, type HomeOptions, makeTempDir } from './homes.js';

/** The Gemini CLI the tests run (`@google/gemini-cli` in devDependencies), or RELEVO_TEST_GEMINI_BIN. */
export const GEMINI_BIN = geminiBin('newest');

export type GeminiHome = AgentHome & {
  /** `~/.gemini`: settings.json, projects.json, tmp/<project>/chats/session-*.jsonl. */
  readonly geminiDir: string;
};

/** The settings every test home starts from; `settings` is merged into the top level. */
function settingsFor(extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    ide: { enabled: false, hasSeenNudge: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...extra,
  };
}

/**
 * A HOME whose `~/.gemini/settings.json` chooses API-key auth (the key and `GOOGLE_GEMINI_BASE_URL`
 * are in `env`). `settings` is merged into the top level of settings.json (e.g. the person's own `hooks`);
 * `home` is an existing HOME to add `.gemini` to (another agent's, for a relay sharing one HOME).
 */
export function createGeminiHome(
  options: HomeOptions & { readonly settings?: Readonly<Record<string, unknown>>; readonly home?: string },
): GeminiHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-gemini-cwd-');
  const home = options.home ?? makeTempDir('relevo-gemini-home-');
  const geminiDir = join(home, '.gemini');
  mkdirSync(geminiDir);
  writeFileSync(join(geminiDir, 'settings.json'), JSON.stringify(settingsFor(options.settings ?? {}), null, 2));
  writeFileSync(join(geminiDir, 'state.json'), JSON.stringify({ terminalSetupPromptShown: true }));
  return {
    cwd,
    home,
    geminiDir,
    bin: options.bin ?? GEMINI_BIN,
    env: { ...baseEnv(), HOME: home, ...geminiEnv(options.serverUrl) },
    cleanup: () => {
      rmSync(options.home === undefined ? home : geminiDir, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** What points Gemini CLI at a fake server: its root URL (no /v1beta) and any key. */
export function geminiEnv(serverUrl: string): Record<string, string> {
  return { GOOGLE_GEMINI_BASE_URL: serverUrl, GEMINI_API_KEY: 'test' };
}
