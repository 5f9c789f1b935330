import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selfCommand } from '../../src/app/config/self.js';
import { tempDir } from '../helpers/cli.js';

/** An install: `<root>/lib/relevo-tui.js`, linked as `<root>/bin/relevo-tui` the way npm links a bin. */
function install() {
  const root = tempDir('relevo-self-');
  mkdirSync(join(root, 'lib'));
  mkdirSync(join(root, 'bin'));
  const script = join(root, 'lib', 'relevo-tui.js');
  writeFileSync(script, '');
  symlinkSync(script, join(root, 'bin', 'relevo-tui'));
  return { root, script, bin: join(root, 'bin') };
}

describe('the command relevo suggests for itself', () => {
  it('is relevo-tui when that name on the PATH is this install', () => {
    const { script, bin } = install();
    expect(selfCommand({ PATH: `/usr/bin:${bin}` }, script, '/')).toBe('relevo-tui');
  });

  it('is npx relevo-tui when npm started it, and node with its path otherwise', () => {
    const { root, script } = install();
    const other = install();
    // Another relevo-tui on the PATH is not this one.
    expect(selfCommand({ PATH: other.bin, npm_command: 'exec' }, script, '/')).toBe('npx relevo-tui');
    expect(selfCommand({ PATH: '/usr/bin', npm_command: 'run-script', npm_package_name: 'relevo-tui' }, script, root)).toBe(
      'npx relevo-tui',
    );
    // Another package's script (its tests, say) running this relevo-tui: not npx.
    expect(selfCommand({ PATH: '/usr/bin', npm_command: 'test', npm_package_name: 'relevo-tui' }, script, root)).toBe(
      'node lib/relevo-tui.js',
    );
    expect(selfCommand({ PATH: other.bin }, script, root)).toBe('node lib/relevo-tui.js');
    expect(selfCommand({ PATH: '' }, script, '/elsewhere')).toBe(`node ${script}`);
    expect(selfCommand({}, join(tempDir('with space '), 'r.js'), '/')).toMatch(/^node '.*with space .*r\.js'$/);
  });
});
