/**
 * The canary (`dist/dev/canary.js`, `npm run test:agents:latest`) with a fake `npm` and `npx` on the
 * PATH: it resolves and installs all six agent CLIs, names each release it tests, and runs the
 * real-agent suite with each CLI's program in its RELEVO_TEST_<CLI>_BIN, on the newest releases only.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { binDir, tempDir } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CANARY = join(ROOT, 'dist', 'dev', 'canary.js');
const PLATFORM = `${process.platform}-${process.arch}`;
const pinned: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies;

/**
 * `npm view <pkg>@<wanted>` answers 50.0.0 for `latest`, else the release asked for; `npm install
 * <pkg>@<version>` lays out the files the real package would put there (empty), and each call is logged.
 */
const FAKE_NPM = `echo "$*" >> "$FAKE_LOG/npm"
if [ "$1" = view ]; then spec=$2; else spec=$(eval echo "\\$$#"); fi
pkg=\${spec%@*}; version=\${spec##*@}
if [ "$1" = view ]; then [ "$version" = latest ] && version=50.0.0; echo "\\"$version\\""; exit 0; fi
m=node_modules
file() { mkdir -p "$(dirname "$1")" && : > "$1"; }
case "$pkg" in
  @anthropic-ai/claude-code) file $m/$pkg/bin/claude.exe ;;
  @openai/codex) file $m/$pkg/bin/codex.js ;;
  @google/gemini-cli) file $m/$pkg/bundle/gemini.js ;;
  opencode-ai) file $m/$pkg/bin/opencode.exe; file $m/opencode-${PLATFORM}/bin/opencode ;;
  @qwen-code/qwen-code) file $m/$pkg/cli-entry.js; mkdir -p $m/.bin; ln -s ../$pkg/cli-entry.js $m/.bin/qwen ;;
  @github/copilot) file $m/$pkg/npm-loader.js; file $m/@github/copilot-${PLATFORM}/copilot; mkdir -p $m/.bin; ln -s ../$pkg/npm-loader.js $m/.bin/copilot ;;
esac`;

/** `npx`: records its arguments and the suite's environment, and exits with FAKE_NPX_EXIT. */
const VARS = ['RELEASES', 'CLAUDE_BIN', 'CODEX_BIN', 'GEMINI_BIN', 'OPENCODE_BIN', 'QWEN_BIN', 'COPILOT_BIN'];
const FAKE_NPX = `{ echo "$*"; ${VARS.map((v) => `echo "$RELEVO_TEST_${v}"`).join('; ')}; } > "$FAKE_LOG/npx"
exit \${FAKE_NPX_EXIT:-0}`;

const CLIS = [
  ['Claude Code', '@anthropic-ai/claude-code', '@anthropic-ai/claude-code/bin/claude.exe'],
  ['Codex', '@openai/codex', '@openai/codex/bin/codex.js'],
  ['Gemini CLI', '@google/gemini-cli', '@google/gemini-cli/bundle/gemini.js'],
  ['OpenCode', 'opencode-ai', `opencode-${PLATFORM}/bin/opencode`],
  ['Qwen Code', '@qwen-code/qwen-code', '.bin/qwen'],
  ['Copilot CLI', '@github/copilot', `@github/copilot-${PLATFORM}/copilot`],
] as const;

describe('the canary (fake npm and npx)', () => {
  const cache = tempDir('relevo-canary-cache-');
  const log = tempDir('relevo-canary-log-');
  const bin = binDir({ npm: FAKE_NPM, npx: FAKE_NPX });
  afterAll(() => {
    for (const d of [cache, log, bin]) rmSync(d, { recursive: true, force: true });
  });
  const canary = (args: readonly string[], env: Record<string, string> = {}) =>
    execa(process.execPath, [CANARY, ...args], {
      reject: false,
      env: { PATH: `${bin}:/usr/bin:/bin`, RELEVO_CANARY_DIR: cache, FAKE_LOG: log, ...env },
    });
  const dir = (pkg: string, version: string) => join(cache, `${pkg.replace('/', '+')}@${version}`);
  const version = (pkg: string) => (pkg === '@google/gemini-cli' ? pinned[pkg]! : '50.0.0');
  const named = CLIS.map(([name, pkg]) => {
    const v = version(pkg);
    return `  ${name} ${v} (${pinned[pkg] === v ? 'the pinned newest' : `pinned newest: ${pinned[pkg]}`})`;
  });

  it('installs the six CLIs (a flag names a release), names each release, and runs test/agents on them, newest only', async () => {
    const result = await canary(['--gemini', pinned['@google/gemini-cli']!]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      ...CLIS.map(([, pkg]) => `canary: installing ${pkg}@${version(pkg)} into ${dir(pkg, version(pkg))}`),
      'canary: testing',
      ...named,
      '',
      'canary: PASS',
      ...named,
    ]);
    expect(readFileSync(join(log, 'npx'), 'utf8').split('\n')).toEqual([
      'vitest run test/agents',
      'newest',
      ...CLIS.map(([, pkg, program]) => join(dir(pkg, version(pkg)), 'node_modules', program)),
      '',
    ]);
    expect(named.map((n) => n.split(' (')[0])).toEqual([
      `  Claude Code 50.0.0`,
      `  Codex 50.0.0`,
      `  Gemini CLI ${pinned['@google/gemini-cli']}`,
      `  OpenCode 50.0.0`,
      `  Qwen Code 50.0.0`,
      `  Copilot CLI 50.0.0`,
    ]);
  });

  it('the next run installs nothing it has; a failing suite is a FAIL and its exit code', async () => {
    const before = readFileSync(join(log, 'npm'), 'utf8').split('\n').length;
    const result = await canary(['--gemini', pinned['@google/gemini-cli']!], { FAKE_NPX_EXIT: '1' });
    expect(result.exitCode).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines.slice(0, 9)).toEqual(['canary: testing', ...named, '', 'canary: FAIL']);
    expect(lines[15]).toMatch(/^canary: a new release broke what relevo relies on/);
    // Six `npm view`s, no `npm install`.
    const calls = readFileSync(join(log, 'npm'), 'utf8')
      .split('\n')
      .slice(before - 1, -1);
    expect(calls.map((c) => c.split(' ')[0])).toEqual(Array(6).fill('view'));
  });

  it('an unknown flag ends in one line', async () => {
    const result = await canary(['--cursor', 'latest']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("canary: Unknown option '--cursor'");
  });
});
