/**
 * `npm run bench`'s runner (dist/bench/index.js): the quick smoke CI runs — it runs and prints
 * every figure of its groups, in the table and the JSON, with finite numbers (no timing thresholds:
 * the figures are the bench's to judge) — and how it treats a group that is not built, one that
 * fails, and a name that is no group.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const RUNNER = join(DIST, 'bench', 'index.js');
const tmp = tempDir('relevo-bench-test-');
const made: string[] = [tmp];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

const bench = (runner: string, ...args: string[]) =>
  execa(process.execPath, [runner, ...args], { reject: false, stdin: 'ignore', cwd: tmp, timeout: 400_000 });

type Result = {
  groups: { name: string; status: string; detail?: string }[];
  figures: { key: string; relevo: number; baseline?: { value: number } }[];
};

describe('the bench runner', () => {
  it('--quick --only startup,memory,idle: a row and a JSON figure with finite numbers for every key', { timeout: 420_000 }, async () => {
    const json = join(tmp, 'quick.json');
    const r = await bench(RUNNER, '--quick', '--only', 'startup,memory,idle', '--json', json);
    expect(r.exitCode, r.stderr).toBe(0);
    const keys = [
      'startup.first-frame',
      'startup.help',
      'startup.version',
      'memory.idle',
      'memory.scrollback',
      'idle.wakeups',
      'idle.wakeups.main',
    ];
    const result = JSON.parse(readFileSync(json, 'utf8')) as Result;
    expect(result.figures.map((f) => f.key)).toEqual(keys);
    for (const f of result.figures) {
      expect(Number.isFinite(f.relevo), f.key).toBe(true);
      expect(Number.isFinite(f.baseline?.value), `${f.key}'s baseline`).toBe(true);
    }
    expect(result.groups.map((g) => [g.name, g.status])).toEqual([
      ['startup', 'ok'],
      ['memory', 'ok'],
      ['idle', 'ok'],
    ]);
    const rows = r.stdout.split('\n');
    for (const key of keys)
      expect(
        rows.some((row) => row.startsWith(`${key} `)),
        key,
      ).toBe(true);
    expect(r.stdout).toMatch(/^machine: \d+ cores .*node v\d+.*tmux/m);
  });

  it('a group not built is skipped, a failing one is one line and the others still run (exit 1)', async () => {
    // The runner and what it imports, beside two stand-in groups, in a folder under dist/ (so its packages resolve).
    const dir = mkdtempSync(join(DIST, 'bench-runner-test-'));
    made.push(dir);
    for (const f of ['index.js', 'figure.js', 'report.js']) copyFileSync(join(DIST, 'bench', f), join(dir, f));
    writeFileSync(join(dir, 'startup.js'), "export async function figures() { throw new Error('no terminal\\nsecond line'); }\n");
    const figure = { key: 'memory.idle', what: 'stand-in', unit: 'MB', relevo: 42, samples: [42], goal: { text: '≤ 60 MB', met: true } };
    writeFileSync(
      join(dir, 'memory.js'),
      `export async function figures(opts) { return [{ ...${JSON.stringify(figure)}, note: 'reps ' + opts.reps }]; }\n`,
    );
    const json = join(tmp, 'stand-in.json');
    const r = await bench(join(dir, 'index.js'), '--reps', '2', '--only', 'startup,memory,idle,relay', '--json', json);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^memory\.idle +\| stand-in +\| 42\.0 MB .*✓ reps 2$/m);
    expect(r.stdout).toContain('startup: failed: no terminal');
    expect(r.stdout).not.toContain('second line');
    expect(r.stdout).toContain('idle: skipped (not built)');
    expect(r.stdout).toContain('relay: skipped (not built)');
    const result = JSON.parse(readFileSync(json, 'utf8')) as Result;
    expect(result.groups.map((g) => [g.name, g.status])).toEqual([
      ['startup', 'failed'],
      ['memory', 'ok'],
      ['idle', 'skipped'],
      ['relay', 'skipped'],
    ]);
    expect(result.figures.map((f) => f.key)).toEqual(['memory.idle']);
    const md = await bench(join(dir, 'index.js'), '--only', 'memory', '--markdown', '--json', json);
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toContain('| key | what | relevo-tui | baseline | ratio | goal | met |\n|---|---|---|---|---|---|---|\n');
    expect(md.stdout).toContain('| memory.idle | stand-in | 42.0 MB | – | – | ≤ 60 MB | ✓ reps 3 |');
  });

  it('--only with a name that is no group: a clear error, exit 2, nothing run', async () => {
    const json = join(tmp, 'none.json');
    const r = await bench(RUNNER, '--only', 'startup,nosuch', '--json', json);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bench: no such group: nosuch');
    expect(r.stderr).toMatch(/^groups: startup, memory, idle, echo, throughput, hop/m);
    expect(() => readFileSync(json)).toThrow();
  });
});
