// Reading an agent CLI's release at start, with node itself standing for the CLI (`node --version`).
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { readCliVersion, untestedEntry, withCliVersion } from '../../src/app/config/versions.js';
import type { ProfileData } from '../../src/protocol/index.js';
import { compileProfile } from '../../src/pty/profile.js';

const NODE = process.versions.node;
const sim = loadProfile('sim', 'test').data;
const spec = (argv: string[], extra: Partial<ProfileData>) => ({ argv, profile: compileProfile({ ...sim, ...extra }) });
const versions = (tested: string[], args = ['--version']) => ({ versions: { args, pattern: '(\\d+\\.\\d+\\.\\d+)', tested } });

describe('reading an agent CLI release', () => {
  it('asks the program, places the release against the tested range', async () => {
    expect(await readCliVersion(spec([process.execPath, 'x.js', '--flag'], versions([NODE])), process.env)).toEqual({
      status: 'found',
      version: NODE,
      verdict: 'tested',
      range: NODE,
    });
    expect(await readCliVersion(spec([process.execPath], versions(['1.0.0', '2.0.0'])), process.env)).toMatchObject({
      verdict: 'newer',
      range: '1.0.0 – 2.0.0',
    });
    expect(await readCliVersion(spec([process.execPath], versions(['999.0.0'])), process.env)).toMatchObject({ verdict: 'older' });
  });

  it('says why it cannot tell: a failing command, one that cannot run, no number in the output', async () => {
    expect(await readCliVersion(spec([process.execPath], versions(['1.0.0'], ['--no-such-flag'])), process.env)).toMatchObject({
      status: 'unknown',
      detail: expect.stringMatching(/--no-such-flag`: exit 9 \(.*bad option/),
    });
    expect(await readCliVersion(spec(['/nonexistent/agent'], versions(['1.0.0'])), process.env)).toMatchObject({
      status: 'unknown',
      detail: '`/nonexistent/agent --version`: cannot run it (ENOENT)',
    });
    expect(
      await readCliVersion(spec([process.execPath], versions(['1.0.0'], ['-e', 'console.log("no digits")'])), process.env),
    ).toMatchObject({
      status: 'unknown',
      detail: expect.stringContaining('no version number in its output (no digits)'),
    });
  });

  it('a profile without [versions] is not asked (the simulator, generic)', async () => {
    expect(await readCliVersion(spec([process.execPath], {}), process.env)).toBeNull();
    expect(await withCliVersion(spec([process.execPath], {}), process.env)).not.toHaveProperty('cli');
  });

  it("applies the profile's settings for the release read, and journals an untested one once", async () => {
    const deliver = { ...sim.deliver, since: [{ version: '1.0.0', paste: 'lines' as const, paste_max: 100 }] };
    const newer = await withCliVersion(spec([process.execPath], { ...versions(['0.1.0']), deliver }), process.env);
    expect(newer.profile.data.deliver).toMatchObject({ paste: 'lines', paste_max: 100, since: [] });
    expect(untestedEntry('builder', newer)).toMatchObject({
      type: 'agent_untested',
      role: 'builder',
      verdict: 'newer',
      cli_version: NODE,
      tested: '0.1.0',
    });
    const older = await withCliVersion(
      spec([process.execPath], { ...versions([NODE]), deliver: { ...deliver, since: [{ version: '999.0.0', paste: 'lines' as const }] } }),
      process.env,
    );
    expect(older.profile.data.deliver.paste).toBe('whole');
    expect(untestedEntry('builder', older)).toBeNull();
  });
});
