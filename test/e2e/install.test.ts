/**
 * relevo-tui installed as a user installs it, outside this clone: the package as `npm pack` builds
 * it, installed from its tarball with a PATH that holds node, npm and a shell — no python, make or
 * compiler — and run from an empty directory.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import which from 'which';
import { PACKAGE_ROOT } from '../../src/app/config/paths.js';
import { tempDir } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

/** A bin directory with node, npm, npx and sh in it, and nothing else: a machine with only Node. */
function nodeOnlyPath(): string {
  const bin = tempDir('relevo-node-only-');
  const npmCli = realpathSync(which.sync('npm'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(npmCli, join(bin, 'npm'));
  symlinkSync(join(dirname(npmCli), 'npx-cli.js'), join(bin, 'npx'));
  symlinkSync(which.sync('sh'), join(bin, 'sh'));
  for (const tool of ['python3', 'python', 'make', 'cc', 'gcc', 'g++', 'c++'])
    expect(which.sync(tool, { path: bin, nothrow: true }), tool).toBeNull();
  return bin;
}

/** How this machine reaches the registry (its certificate authority, a proxy): kept, as a user's shell keeps it. */
const NETWORK =
  /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|https?_proxy|no_proxy|npm_config_(registry|cafile|proxy|https_proxy|noproxy|strict_ssl))$/i;
const network = Object.fromEntries(Object.entries(process.env).filter(([name]) => NETWORK.test(name)));

/** Runs `file args` in `cwd` with only `PATH`, `HOME` and the network's settings set. */
const inClean = (PATH: string, HOME: string, cwd: string) => (file: string, args: string[]) =>
  execa(file, args, { cwd, env: { ...network, PATH, HOME, LANG: 'C.UTF-8' }, extendEnv: false, reject: false, stdin: 'ignore' });

/** The installed tree's size on disk, in MB (`du`), and how many packages it holds. */
async function treeSize(dir: string): Promise<{ mb: number; packages: number }> {
  const du = await execa('du', ['-sk', dir]);
  const top = readdirSync(dir).filter((n) => !n.startsWith('.'));
  const packages = top.flatMap((n) => (n.startsWith('@') ? readdirSync(join(dir, n)) : [n])).length;
  return { mb: Math.round(Number(du.stdout.split('\t')[0]) / 102.4) / 10, packages };
}

let tarball: string;

beforeAll(async () => {
  const packs = tempDir('relevo-pack-');
  // dist/ is built before the tests run (npm test builds): pack it as it is.
  await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], { cwd: PACKAGE_ROOT });
  tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
}, 120_000);

describe('the installed package', () => {
  it('holds only what runs: the command, the bundle and its licences, the profiles, README, LICENSE and the example settings', async () => {
    const files = (await execa('tar', ['-tzf', tarball])).stdout.split('\n');
    for (const file of [
      'bin/relevo-tui.js',
      'dist/bundle/cli.js',
      'dist/bundle/hook.js',
      'dist/bundle/THIRD-PARTY-LICENSES.md',
      'profiles/claude.toml',
      'README.md',
      'LICENSE',
      'relevo.example.toml',
    ])
      expect(files, file).toContain(`package/${file}`);
    // No sources, tests, source maps, tsc's unbundled output (benchmarks and the canary among it).
    expect(files.filter((f) => /^package\/(src|test|bench)\/|^package\/dist\/(?!bundle\/)|\.map$|\.ts$/.test(f))).toEqual([]);
    // The bundle carries the licence of every package whose code it holds.
    const notices = (await execa('tar', ['-xzOf', tarball, 'package/dist/bundle/THIRD-PARTY-LICENSES.md'])).stdout;
    for (const name of ['ink', 'react', 'zod', '@xterm/headless', 'execa', 'yoga-layout']) expect(notices, name).toContain(`## ${name}@`);
    // The bundle's code is ASCII: V8 keeps each module's source as a one-byte string (bundle.ts).
    const code = (await execa('tar', ['-xzOf', tarball, '--wildcards', 'package/dist/bundle/*.js'], { encoding: 'buffer' })).stdout;
    expect(code.length).toBeGreaterThan(500_000);
    expect(code.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it('installs into an empty directory with only node, npm and sh on the PATH, and `npx relevo-tui --headless --demo` runs to done', async () => {
    const PATH = nodeOnlyPath();
    const project = tempDir('relevo-project-');
    const run = inClean(PATH, process.env.HOME ?? project, project);
    const started = performance.now();
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', tarball]);
    const seconds = (performance.now() - started) / 1000;
    expect(installed.exitCode, installed.stderr).toBe(0);
    // Nothing to compile and no install script to allow: npm has nothing to warn about.
    expect(installed.stderr).not.toMatch(/gyp|install-scripts|prebuild/i);
    const modules = join(project, 'node_modules');
    const size = await treeSize(modules);
    console.log(`install: ${seconds.toFixed(1)} s; installed tree: ${size.mb} MB, ${size.packages} packages`);
    // The user's install carries none of the development tools (the agent CLIs are test-only).
    expect(Object.keys(pkg.devDependencies).filter((name) => existsSync(join(modules, name)))).toEqual([]);

    const npx = inClean(PATH, project, project);
    expect((await npx('npx', ['relevo-tui', '--version'])).stdout).toBe(`relevo-tui ${pkg.version}`);
    const demo = await npx('npx', ['relevo-tui', '--headless', '--demo']);
    expect(demo.exitCode, demo.stderr).toBe(0);
    expect(JSON.parse(demo.stdout.trim().split('\n').at(-1)!)).toMatchObject({ type: 'done', rounds: 3 });

    // Where the platform's prebuilt binary is missing (an unsupported platform, or --omit=optional),
    // the run ends in one line that says what to do, before any agent starts.
    const platform = `${process.platform}-${process.arch}`;
    renameSync(join(modules, '@lydell', `node-pty-${platform}`), join(project, 'moved-away'));
    const missing = await npx('npx', ['relevo-tui', '--headless', '--demo']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim()).toBe(
      `relevo-tui: pty: the pseudo-terminal binary for ${platform} (@lydell/node-pty-${platform}) is not installed: install relevo-tui again without --omit=optional; or run the agents in tmux with --tmux-launch`,
    );
    expect(missing.stdout).not.toContain('"type":"run_started"');
  }, 240_000);

  it('npm install -g puts relevo-tui on the PATH; a paused run says how to go on, and that command goes on', async () => {
    const prefix = tempDir('relevo-prefix-');
    const PATH = nodeOnlyPath();
    const installed = await inClean(
      PATH,
      process.env.HOME ?? prefix,
      prefix,
    )('npm', ['install', '-g', '--no-audit', '--no-fund', '--prefix', prefix, tarball]);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const project = tempDir('relevo-project-');
    const run = (args: string[]) => inClean(`${join(prefix, 'bin')}:${PATH}`, project, project)('relevo-tui', args);

    const demo = await run(['--headless', '--demo']);
    expect(demo.exitCode, demo.stderr).toBe(0);
    // Its runs are journaled in the project it ran in, kept out of git.
    expect(existsSync(join(project, '.relevo', '.gitignore'))).toBe(true);
    // A run that pauses says how to go on, with the command as this user runs it.
    const paused = await run(['--headless', '--demo', '--max-rounds', '1', '--state-dir', 'my runs']);
    expect(paused.exitCode).toBe(3);
    const id = readdirSync(join(project, 'my runs', 'runs'))[0]!;
    expect(paused.stderr).toContain(`; go on with: relevo-tui --resume ${id} --state-dir 'my runs'`);
    // The suggested command, as given, goes on with the run.
    const resumed = await run(['--headless', '--resume', id, '--state-dir', 'my runs']);
    expect([0, 3], resumed.stderr).toContain(resumed.exitCode);
    expect(readFileSync(join(project, 'my runs', 'runs', id, 'events.jsonl'), 'utf8')).toContain('"type":"run_resumed"');
  }, 240_000);
});
