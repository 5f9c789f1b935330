/**
 * relevo-tui installed as a user installs it, outside this clone: the package as `npm pack` builds
 * it, installed globally into a throwaway prefix, run from an empty directory with only that
 * prefix's bin and the system's on the PATH.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/app/config/paths.js';
import { tempDir } from '../helpers/cli.js';

describe('the installed package', () => {
  it('npm install -g of the packed tarball puts relevo-tui on the PATH; it runs the headless demo in an empty directory', async () => {
    const packs = tempDir('relevo-pack-');
    // dist/ is built before the tests run (npm test builds): pack it as it is.
    const packed = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', packs], { cwd: PACKAGE_ROOT });
    const tarball = join(packs, readdirSync(packs).find((f) => f.endsWith('.tgz'))!);
    const listed = await execa('tar', ['-tzf', tarball]);
    // What a user gets: the command, the built code, the profiles and the example settings; no sources or tests.
    for (const file of ['package/bin/relevo-tui.js', 'package/dist/cli.js', 'package/profiles/claude.toml', 'package/relevo.example.toml'])
      expect(listed.stdout.split('\n'), file).toContain(file);
    expect(listed.stdout).not.toMatch(/^package\/(src|test)\//m);
    expect(packed.exitCode).toBe(0);

    const prefix = tempDir('relevo-prefix-');
    const installed = await execa('npm', ['install', '-g', '--no-audit', '--no-fund', '--prefix', prefix, tarball], {
      cwd: prefix,
      reject: false,
    });
    expect(installed.exitCode, installed.stderr).toBe(0);
    const PATH = [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
    const project = tempDir('relevo-project-');
    const run = (args: string[]) =>
      execa('relevo-tui', args, {
        cwd: project,
        env: { PATH, HOME: project, LANG: 'C.UTF-8' },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });

    const version = await run(['--version']);
    const { version: expected } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toBe(`relevo-tui ${expected}`);

    const demo = await run(['--headless', '--demo']);
    expect(demo.exitCode, demo.stderr).toBe(0);
    const last = JSON.parse(demo.stdout.trim().split('\n').at(-1)!) as { type: string; rounds: number };
    expect(last).toMatchObject({ type: 'done', rounds: 3 });
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
