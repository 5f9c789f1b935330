/**
 * The bench's remote hop (`--only remote --quick`, built by `npm run build:bench`): one demo relay
 * here and one on the test host behind a delayed link print the remote hop beside the local one, with
 * their difference, ratio and the goal; where network namespaces cannot be made, one row says why it
 * was skipped. The shape of the lines only: the figures are the bench's to judge.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { netnsUnavailable } from '../helpers/ssh-host.js';

const RUNNER = fileURLToPath(new URL('../../dist/bench/index.js', import.meta.url));
const tmp = tempDir('relevo-bench-remote-');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Result = { figures: { key: string; relevo: number; samples: number[]; baseline?: { value: number; samples: number[] } }[] };

describe('the bench: the remote hop', () => {
  it('--quick --only remote: the remote hop beside the local one, their difference and ratio, within local + 300 ms or not', async () => {
    const json = join(tmp, 'remote.json');
    const r = await execa(process.execPath, [RUNNER, '--quick', '--only', 'remote', '--json', json], {
      reject: false,
      stdin: 'ignore',
      cwd: tmp,
      timeout: 300_000,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(readFileSync(json, 'utf8')) as Result;
    const why = await netnsUnavailable();
    if (why !== null) {
      expect(r.stdout).toMatch(
        /^remote\.hop +\| relay hop to a pair on a host +\| – .*\| ✗ skipped: network namespaces unavailable \(.+\)$/m,
      );
      expect(result.figures.map((f) => f.key)).toEqual(['remote.hop']);
      return;
    }
    const note = (p95: boolean) =>
      new RegExp(
        `^remote\\.hop${p95 ? '\\.p95' : ''} +\\| relay hop to a pair on a host \\(ssh, 50 ms added each way\\).*, ${p95 ? 'p95' : 'median'} +\\| \\d+ ms +\\| ` +
          `the same demo relay on this machine \\d+ ms +\\| \\d+\\.\\d+× +\\| ${p95 ? 'none \\(for reference\\)' : '≤ local hop \\+ 300 ms \\(3 round trips\\)'} +\\| ` +
          `${p95 ? '✓' : '[✓✗]'} [+−]\\d+ ms over the local hop, \\d+\\.\\d\\d× it; (within|past) local \\+ 300 ms; 6 remote and 6 local hops; ` +
          'delay by (tc netem|a delaying TCP proxy \\(tc netem: .+\\))$',
        'm',
      );
    expect(r.stdout).toMatch(note(false));
    expect(r.stdout).toMatch(note(true));
    // The demo's three steps: six hops each way, here and there.
    expect(result.figures.map((f) => [f.key, f.samples.length, f.baseline?.samples.length])).toEqual([
      ['remote.hop', 6, 6],
      ['remote.hop.p95', 6, 6],
    ]);
    for (const f of result.figures) expect([f.relevo, f.baseline?.value].every(Number.isFinite), f.key).toBe(true);
    // The met mark agrees with the figures.
    const [hop] = result.figures;
    const mark = hop!.relevo <= hop!.baseline!.value + 300 ? '✓' : '✗';
    expect(r.stdout).toMatch(new RegExp(`^remote\\.hop .*\\| ${mark} [+−]\\d+ ms over`, 'm'));
  }, 320_000);
});
