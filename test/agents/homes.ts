/**
 * Throwaway homes for the real agent CLIs, set up (per research/realagents) so they start
 * straight at their idle prompt, offline, talking to a fake model server on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MODULES = join(ROOT, 'node_modules');

/**
 * The releases of each CLI the tests run: `newest` (the packages in devDependencies) and `oldest`
 * (the `claude-code-oldest`, `codex-oldest`, `gemini-cli-oldest`, `opencode-oldest` and
 * `qwen-code-oldest` aliases). The canary (`npm run test:agents:latest`) points `newest` at the
 * newest published CLIs with RELEVO_TEST_<CLI>_BIN and runs only them (RELEVO_TEST_RELEASES=newest).
 */
export type Release = 'newest' | 'oldest';
export const RELEASES: readonly Release[] = (process.env.RELEVO_TEST_RELEASES ?? 'newest,oldest')
  .split(',')
  .filter((r): r is Release => r === 'newest' || r === 'oldest');

/** The canary runs: the CLIs may be newer than any profile's tested range (journaled as untested). */
export const CANARY = ['CLAUDE', 'CODEX', 'GEMINI', 'OPENCODE', 'QWEN', 'COPILOT'].some(
  (cli) => process.env[`RELEVO_TEST_${cli}_BIN`] !== undefined,
);

export function claudeBin(release: Release = 'newest'): string {
  if (release === 'newest') return process.env.RELEVO_TEST_CLAUDE_BIN ?? join(MODULES, '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  return join(MODULES, 'claude-code-oldest', 'bin', 'claude.exe');
}

export function codexBin(release: Release = 'newest'): string {
  if (release === 'newest') return process.env.RELEVO_TEST_CODEX_BIN ?? join(MODULES, '@openai', 'codex', 'bin', 'codex.js');
  return join(MODULES, 'codex-oldest', 'bin', 'codex.js');
}

export function geminiBin(release: Release = 'newest'): string {
  if (release === 'newest') return process.env.RELEVO_TEST_GEMINI_BIN ?? join(MODULES, '@google', 'gemini-cli', 'bundle', 'gemini.js');
  return join(MODULES, 'gemini-cli-oldest', 'bundle', 'gemini.js');
}

/**
 * OpenCode's binary. Its package ships a placeholder as bin/opencode.exe that its postinstall
 * replaces with the platform package's binary (`opencode-linux-x64`…): when the postinstall did not
 * run (scripts not allowed), that binary, from the package's own node_modules or (newest) hoisted.
 */
export function opencodeBin(release: Release = 'newest'): string {
  if (release === 'newest' && process.env.RELEVO_TEST_OPENCODE_BIN !== undefined) return process.env.RELEVO_TEST_OPENCODE_BIN;
  const pkg = join(MODULES, release === 'newest' ? 'opencode-ai' : 'opencode-oldest');
  const linked = join(pkg, 'bin', 'opencode.exe');
  if ((statSync(linked, { throwIfNoEntry: false })?.size ?? 0) > 1_000_000) return linked;
  const platform = join('node_modules', `opencode-${process.platform}-${process.arch}`, 'bin', 'opencode');
  const candidates = [join(pkg, platform), ...(release === 'newest' ? [join(ROOT, platform)] : [])];
  return candidates.find((c) => existsSync(c)) ?? linked;
}

/**
 * Qwen Code's entry point under the name `qwen` (relevo picks the qwen profile from the program
 * name): a link in the temp dir, since `node_modules/.bin/qwen` is whichever release npm linked last.
 */
export function qwenBin(release: Release = 'newest'): string {
  if (release === 'newest' && process.env.RELEVO_TEST_QWEN_BIN !== undefined) return process.env.RELEVO_TEST_QWEN_BIN;
  const target = join(MODULES, release === 'newest' ? join('@qwen-code', 'qwen-code') : 'qwen-code-oldest', 'cli-entry.js');
  // One folder per target: checkouts with node_modules of their own do not take each other's link.
  const dir = join(
    tmpdir(),
    `relevo-test-bin-${process.getuid?.() ?? 'user'}`,
    createHash('sha256').update(target).digest('hex').slice(0, 12),
  );
  const link = join(dir, 'qwen');
  if (linkTarget(link) === target) return link;
  mkdirSync(dir, { recursive: true });
  // Made beside it and renamed over it: test files loading this at once each see a whole link.
  const made = `${link}.${process.pid}`;
  rmSync(made, { force: true });
  symlinkSync(target, made);
  renameSync(made, link);
  return link;
}

function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/**
 * GitHub Copilot CLI's native binary (`@github/copilot-linux-x64`; the `copilot` npm loader only
 * starts it), or RELEVO_TEST_COPILOT_BIN for the newest; the oldest from the `copilot-oldest` alias.
 */
export function copilotBin(release: Release = 'newest'): string {
  const native = ['node_modules', '@github', `copilot-${process.platform}-${process.arch}`, 'copilot'];
  if (release === 'newest') return process.env.RELEVO_TEST_COPILOT_BIN ?? join(ROOT, ...native);
  return join(MODULES, 'copilot-oldest', ...native);
}

export const CLAUDE_BIN = claudeBin('newest');
export const CODEX_BIN = codexBin('newest');

const versions = new Map<string, string>();
/** What `<bin> --version` says: `2.1.332`, `0.171.0`. */
export function cliVersion(bin: string): string {
  let version = versions.get(bin);
  if (version === undefined) {
    version = /(\d+\.\d+\.\d+)/.exec(execFileSync(bin, ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
    versions.set(bin, version);
  }
  return version;
}

/** What every CLI run gets, whatever the agent. */
export function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };
}

/** A fresh directory under the OS temp dir, with symlinks resolved (the CLIs key projects by real path). */
export function makeTempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export type AgentHome = {
  /** The agent's working directory (the "project"). */
  readonly cwd: string;
  /** The throwaway HOME. */
  readonly home: string;
  /** The complete environment to run the CLI with (nothing inherited but PATH). */
  readonly env: Record<string, string>;
  /** The CLI binary. */
  readonly bin: string;
  /** Removes the home (and the cwd if this helper created it). */
  cleanup(): void;
};

export type ClaudeHome = AgentHome & {
  /** `~/.claude/projects/<slug of cwd>`: where the session transcripts (`<session-id>.jsonl`) go. */
  readonly transcriptsDir: string;
};

export type CodexHome = AgentHome & {
  readonly codexHome: string;
  /** `$CODEX_HOME/sessions`: rollouts go to `YYYY/MM/DD/rollout-*.jsonl` below it. */
  readonly sessionsDir: string;
  /** The command line: `--no-daemon` always, `--no-alt-screen` if asked, then `extra`. */
  args(options?: { altScreen?: boolean; extra?: readonly string[] }): string[];
};

export type HomeOptions = {
  /** The fake server's root URL, e.g. `http://127.0.0.1:PORT` (no /v1). */
  readonly serverUrl: string;
  /** The agent's working directory; a fresh temp dir if omitted. */
  readonly cwd?: string;
  /** The CLI (default: the newest). */
  readonly bin?: string;
};

/** How Claude Code names a project folder under `~/.claude/projects`: every non-alphanumeric character becomes `-`. */
export function claudeProjectSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

/**
 * A HOME with `.claude.json` marking onboarding done, the API key approved and `cwd` trusted.
 * `claudeJson` is merged into the top level of `.claude.json`.
 */
export function createClaudeHome(options: HomeOptions & { readonly claudeJson?: Record<string, unknown> }): ClaudeHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-claude-cwd-');
  const home = makeTempDir('relevo-claude-home-');
  const bin = options.bin ?? CLAUDE_BIN;
  const claudeJson = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: cliVersion(bin),
    theme: 'dark',
    autoUpdates: false,
    customApiKeyResponses: { approved: ['test'], rejected: [] },
    projects: {
      [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, projectOnboardingSeenCount: 1, allowedTools: [] },
    },
    ...options.claudeJson,
  };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(claudeJson, null, 2));
  return {
    cwd,
    home,
    bin,
    transcriptsDir: join(home, '.claude', 'projects', claudeProjectSlug(cwd)),
    env: {
      ...baseEnv(),
      HOME: home,
      ANTHROPIC_BASE_URL: options.serverUrl,
      ANTHROPIC_API_KEY: 'test',
      // Mandatory: without it Claude Code installs a newer version of itself globally.
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    },
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

const tomlString = (s: string) => JSON.stringify(s);

/**
 * A HOME and CODEX_HOME whose `config.toml` points a custom provider at the fake server,
 * trusts `cwd` and keeps the app-server daemon off (run it with `args()`, which adds `--no-daemon`).
 */
export function createCodexHome(
  options: HomeOptions & {
    /** Top-level TOML lines, e.g. `notify = ["/abs/prog"]` or `developer_instructions = "…"`. */
    readonly extraToml?: string;
    /** More `[features]` flags (`daemon_auto_start = false` is always set). */
    readonly features?: Readonly<Record<string, boolean>>;
    /** Written to `$CODEX_HOME/hooks.json`. Codex then shows a "Hooks need review" dialog at startup unless run with `--dangerously-bypass-hook-trust`. */
    readonly hooksJson?: unknown;
  },
): CodexHome {
  const ownsCwd = options.cwd === undefined;
  const cwd = options.cwd ?? makeTempDir('relevo-codex-cwd-');
  const home = makeTempDir('relevo-codex-home-');
  const codexHome = join(home, '.codex');
  const bin = options.bin ?? CODEX_BIN;
  mkdirSync(codexHome);
  const config = [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    'check_for_update_on_startup = false',
    options.extraToml ?? '',
    '',
    '[model_providers.fake]',
    'name = "Fake"',
    `base_url = ${tomlString(`${options.serverUrl}/v1`)}`,
    'env_key = "OPENAI_API_KEY"',
    'wire_api = "responses"',
    '',
    `[projects.${tomlString(cwd)}]`,
    'trust_level = "trusted"',
    '',
    '[features]',
    ...Object.entries({ ...options.features, daemon_auto_start: false }).map(([k, v]) => `${k} = ${v}`),
    '',
  ].join('\n');
  writeFileSync(join(codexHome, 'config.toml'), config);
  if (options.hooksJson !== undefined) writeFileSync(join(codexHome, 'hooks.json'), JSON.stringify(options.hooksJson, null, 2));
  return {
    cwd,
    home,
    codexHome,
    bin,
    sessionsDir: join(codexHome, 'sessions'),
    env: { ...baseEnv(), HOME: home, CODEX_HOME: codexHome, OPENAI_API_KEY: 'test' },
    args: ({ altScreen = true, extra = [] } = {}) => [...codexNoDaemon(bin), ...(altScreen ? [] : ['--no-alt-screen']), ...extra],
    cleanup: () => {
      rmSync(home, { recursive: true, force: true });
      if (ownsCwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

const daemonFlag = new Map<string, string[]>();
/** `--no-daemon` when this Codex knows the flag (0.156 and later); older ones have no daemon to keep off. */
export function codexNoDaemon(bin: string): string[] {
  let flag = daemonFlag.get(bin);
  if (flag === undefined) {
    const help = execFileSync(bin, ['--help'], { encoding: 'utf8' });
    flag = help.includes('--no-daemon') ? ['--no-daemon'] : [];
    daemonFlag.set(bin, flag);
  }
  return flag;
}
