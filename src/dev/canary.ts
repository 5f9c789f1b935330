/**
 * `npm run test:agents:latest`: the canary. Installs the newest published Claude Code and Codex
 * (or the releases `--claude` / `--codex` name) into a cache outside the repository, then runs
 * the real-agent suite (test/agents) against them instead of the pinned newest releases. Not part
 * of `npm test`: what it tests changes with every release, so CI stays reproducible.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { z } from 'zod';
import { PACKAGE_ROOT as ROOT } from '../app/config/paths.js';

type Cli = { readonly name: string; readonly pkg: string; readonly bin: string; readonly env: string };
const CLIS: readonly Cli[] = [
  { name: 'Claude Code', pkg: '@anthropic-ai/claude-code', bin: 'bin/claude.exe', env: 'RELEVO_TEST_CLAUDE_BIN' },
  { name: 'Codex', pkg: '@openai/codex', bin: 'bin/codex.js', env: 'RELEVO_TEST_CODEX_BIN' },
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

/** `<cache>/<pkg>@<version>/node_modules/<pkg>/<bin>`, installed there once. */
async function install(cli: Cli, version: string, root: string): Promise<string> {
  const dir = join(root, `${cli.pkg.replace('/', '+')}@${version}`);
  const bin = join(dir, 'node_modules', cli.pkg, cli.bin);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'relevo-canary', private: true }));
  process.stdout.write(`canary: installing ${cli.pkg}@${version} into ${dir}\n`);
  await execa('npm', ['install', '--no-audit', '--no-fund', '--no-save', `${cli.pkg}@${version}`], {
    cwd: dir,
    stdout: 'ignore',
    stderr: 'inherit',
  });
  if (!existsSync(bin)) throw new Error(`${cli.pkg}@${version} installed, but ${bin} is missing`);
  return bin;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { claude: { type: 'string', default: 'latest' }, codex: { type: 'string', default: 'latest' } },
  });
  const pinned = manifest.parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))).devDependencies;
  const root = cacheRoot(process.env);
  const env: Record<string, string> = { RELEVO_TEST_RELEASES: 'newest' };
  const tested: string[] = [];
  for (const cli of CLIS) {
    const version = await resolveVersion(cli.pkg, cli === CLIS[0] ? values.claude : values.codex);
    env[cli.env] = await install(cli, version, root);
    const note = pinned[cli.pkg] === version ? 'the pinned newest' : `pinned newest: ${pinned[cli.pkg] ?? 'none'}`;
    tested.push(`${cli.name} ${version} (${note})`);
  }
  process.stdout.write(`canary: testing ${tested.join(', ')}\n`);
  const result = await execa('npx', ['vitest', 'run', 'test/agents'], { cwd: ROOT, env, stdio: 'inherit', reject: false });
  const passed = result.exitCode === 0;
  process.stdout.write(`\ncanary: ${passed ? 'PASS' : 'FAIL'}: ${tested.join(', ')}\n`);
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
