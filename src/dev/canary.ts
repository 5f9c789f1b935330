/**
 * `npm run test:agents:latest`: the canary. Installs the newest published release of each agent CLI
 * relevo has a profile for (or the releases `--claude`, `--codex`, `--gemini`, `--opencode`,
 * `--qwen`, `--copilot` name) into a cache outside the repository, then runs the real-agent suite
 * (test/agents) against them instead of the pinned newest releases. Not part of `npm test`: what it
 * tests changes with every release, so CI stays reproducible.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { z } from 'zod';
import { PACKAGE_ROOT as ROOT } from '../app/config/paths.js';

/**
 * A CLI the canary installs: its flag, its npm package, and where its program is under the install's
 * node_modules (the first that exists; named as relevo's profile matches it), for the suite's `env`.
 */
type Cli = { readonly name: string; readonly flag: string; readonly pkg: string; readonly bins: readonly string[]; readonly env: string };
const PLATFORM = `${process.platform}-${process.arch}`;
const CLIS: readonly Cli[] = [
  {
    name: 'Claude Code',
    flag: 'claude',
    pkg: '@anthropic-ai/claude-code',
    bins: ['@anthropic-ai/claude-code/bin/claude.exe'],
    env: 'RELEVO_TEST_CLAUDE_BIN',
  },
  { name: 'Codex', flag: 'codex', pkg: '@openai/codex', bins: ['@openai/codex/bin/codex.js'], env: 'RELEVO_TEST_CODEX_BIN' },
  {
    name: 'Gemini CLI',
    flag: 'gemini',
    pkg: '@google/gemini-cli',
    bins: ['@google/gemini-cli/bundle/gemini.js'],
    env: 'RELEVO_TEST_GEMINI_BIN',
  },
  // The platform package's binary: opencode-ai's own bin is a placeholder until its postinstall runs.
  {
    name: 'OpenCode',
    flag: 'opencode',
    pkg: 'opencode-ai',
    bins: [`opencode-${PLATFORM}/bin/opencode`, 'opencode-ai/bin/opencode.exe'],
    env: 'RELEVO_TEST_OPENCODE_BIN',
  },
  // The npm link named `qwen` (its entry point is cli-entry.js, a name no profile matches).
  { name: 'Qwen Code', flag: 'qwen', pkg: '@qwen-code/qwen-code', bins: ['.bin/qwen'], env: 'RELEVO_TEST_QWEN_BIN' },
  // The native binary of the platform package, which the package's npm-loader.js would start.
  {
    name: 'Copilot CLI',
    flag: 'copilot',
    pkg: '@github/copilot',
    bins: [`@github/copilot-${PLATFORM}/copilot`, '.bin/copilot'],
    env: 'RELEVO_TEST_COPILOT_BIN',
  },
];

const manifest = z.object({ devDependencies: z.record(z.string(), z.string()) });

function cacheRoot(env: NodeJS.ProcessEnv): string {
  return env.RELEVO_CANARY_DIR ?? join(env.XDG_CACHE_HOME ?? join(env.HOME ?? homedir(), '.cache'), 'relevo-tui', 'canary');
}

/** `latest` (or a dist-tag) → the release it names today. */
async function resolveVersion(pkg: string, wanted: string): Promise<string> {
  const { stdout } = await execa('npm', ['view', `${pkg}@${wanted}`, 'version', '--json']);
  const parsed: unknown = JSON.parse(stdout);
  const version = Array.isArray(parsed) ? parsed.at(-1) : parsed;
  if (typeof version !== 'string') throw new Error(`npm view ${pkg}@${wanted}: no version`);
  return version;
}

/** The CLI's program in `<cache>/<pkg>@<version>/node_modules`, installed there once. */
async function install(cli: Cli, version: string, root: string): Promise<string> {
  const dir = join(root, `${cli.pkg.replace('/', '+')}@${version}`);
  const found = () => cli.bins.map((b) => join(dir, 'node_modules', b)).find((b) => existsSync(b));
  const cached = found();
  if (cached !== undefined) return cached;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'relevo-canary', private: true }));
  process.stdout.write(`canary: installing ${cli.pkg}@${version} into ${dir}\n`);
  await execa('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${cli.pkg}@${version}`], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const bin = found();
  if (bin === undefined) throw new Error(`${cli.pkg}@${version} installed, but none of ${cli.bins.join(', ')} is in its node_modules`);
  return bin;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: Object.fromEntries(CLIS.map((cli) => [cli.flag, { type: 'string', default: 'latest' } as const])),
  });
  const pinned = manifest.parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))).devDependencies;
  const root = cacheRoot(process.env);
  const env: Record<string, string> = { RELEVO_TEST_RELEASES: 'newest' };
  const tested: string[] = [];
  for (const cli of CLIS) {
    const version = await resolveVersion(cli.pkg, String(values[cli.flag] ?? 'latest'));
    env[cli.env] = await install(cli, version, root);
    const note = pinned[cli.pkg] === version ? 'the pinned newest' : `pinned newest: ${pinned[cli.pkg] ?? 'none'}`;
    tested.push(`${cli.name} ${version} (${note})`);
  }
  const list = tested.map((t) => `\n  ${t}`).join('');
  process.stdout.write(`canary: testing${list}\n`);
  const result = await execa('npx', ['vitest', 'run', 'test/agents'], { cwd: ROOT, env, stdio: 'inherit', reject: false });
  const passed = result.exitCode === 0;
  process.stdout.write(`\ncanary: ${passed ? 'PASS' : 'FAIL'}${list}\n`);
  if (!passed) {
    process.stdout.write(
      'canary: a new release broke what relevo relies on. See "When the canary fails" in docs/agents.md: capture its screens,\n' +
        'fix the profile (a [[deliver.since]] entry or detection rules), then move the pinned newest release in package.json.\n',
    );
  }
  return result.exitCode ?? 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`canary: ${(error as Error).message.split('\n')[0]}\n`);
    process.exit(1);
  },
);
