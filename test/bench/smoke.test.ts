/**
 * The bench's smoke, as CI runs it (`npm test` builds the bench first): `node dist/bench/index.js
 * --quick` over every group but the hop (which needs the real CLIs) — one repetition at small sizes,
 * in two runs side by side, each with some of the groups — prints a row and writes a JSON figure with
 * finite numbers for every key, with the tmux baseline where tmux 3.x is installed; then the
 * runner's fast paths on stand-in groups: a group not built is skipped, a failing one is one line,
 * `--markdown`, and a name that is no group exits 2. No timing thresholds: the figures are the
 * bench's to judge.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { tmuxVersion } from '../../bench/tmux.js';
import { tempDir } from '../helpers/cli.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const RUNNER = join(DIST, 'bench', 'index.js');
const tmp = tempDir('relevo-bench-test-');
const made: string[] = [tmp];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const tmux = await tmuxVersion();

const bench = (runner: string, ...args: string[]) =>
  execa(process.execPath, [runner, ...args], { reject: false, stdin: 'ignore', cwd: tmp, timeout: 120_000 });

type Result = {
  options: { reps: number; quick: boolean };
  groups: { name: string; status: string; detail?: string }[];
  figures: {
    key: string;
    relevo: number;
    samples: number[];
    baseline?: { name: string; value: number; samples: number[] };
    note?: string;
  }[];
};

const GROUPS = ['startup', 'memory', 'idle', 'echo', 'throughput', 'fleet'];
/** The groups of each of the two quick runs made side by side: what waits for stillness, and what floods. */
const RUNS = [
  ['startup', 'memory', 'idle'],
  ['echo', 'throughput', 'fleet'],
];
const KEYS = [
  'startup.first-frame',
  'startup.help',
  'startup.version',
  'memory.idle',
  'memory.scrollback',
  'idle.wakeups',
  'idle.wakeups.main',
  'echo.idle.p50',
  'echo.idle.p95',
  'echo.flood.p50',
  'echo.flood.p95',
  'throughput.one',
  'throughput.both',
  ...(tmux ? ['throughput.one.vs-tmux'] : []),
  'throughput.both.vs-bare',
  'fleet.rss',
  'fleet.cpu',
  'fleet.hop',
];
/** Figures whose only baseline is tmux: none without it. */
const TMUX_ONLY = ['startup.first-frame', 'echo.idle.p50', 'echo.idle.p95', 'echo.flood.p50', 'echo.flood.p95', 'throughput.both'];

describe('the bench', () => {
  it('--quick over every group but the hop: a row and a JSON figure with finite numbers for every key', { timeout: 150_000 }, async () => {
    const runs = await Promise.all(
      RUNS.map(async (groups, i) => {
        const json = join(tmp, `quick-${i}.json`);
        const r = await bench(RUNNER, '--quick', '--only', groups.join(','), '--json', json);
        expect(r.exitCode, r.stderr).toBe(0);
        const result = JSON.parse(readFileSync(json, 'utf8')) as Result;
        expect(result.options).toEqual({ reps: 1, quick: true });
        expect(r.stdout).toMatch(
          /^machine: \d+ cores .*node v\d+.*; medians of 1 rep, quick sizes(; NODE_EXTRA_CA_CERTS unset for every process)?$/m,
        );
        return { stdout: r.stdout, result };
      }),
    );
    const groups = runs.flatMap((run) => run.result.groups);
    const figures = runs.flatMap((run) => run.result.figures);
    expect(groups.map((g) => [g.name, g.status])).toEqual(GROUPS.map((g) => [g, 'ok']));
    expect(figures.map((f) => f.key)).toEqual(KEYS);
    for (const f of figures) {
      expect(Number.isFinite(f.relevo), `${f.key}: ${f.relevo}`).toBe(true);
      expect(f.samples.length, f.key).toBe(1);
      if (!tmux && TMUX_ONLY.includes(f.key)) {
        expect(f.baseline, f.key).toBeUndefined();
        continue;
      }
      expect(Number.isFinite(f.baseline?.value), `${f.key}'s baseline`).toBe(true);
      expect(f.baseline!.samples.every(Number.isFinite), `${f.key}'s baseline samples`).toBe(true);
      if (f.key.startsWith('echo.') || f.key === 'throughput.both') expect(f.baseline!.name, f.key).toBe(tmux);
      if (f.key === 'throughput.both.vs-bare') expect(f.baseline!.name).toMatch(/both panes in one thread/);
    }
    // The Ink floor (built by `npm run build`) ran: its first frame and its RSS are in the notes.
    const note = (key: string) => figures.find((f) => f.key === key)?.note ?? '';
    expect(note('startup.first-frame')).toMatch(
      /floor: an Ink app .* paints one line in \d+ ms .*; loading the modules relevo's first frame needs first .* in \d+ ms/,
    );
    expect(note('memory.idle')).toMatch(
      /floor: an idle Ink app .* holds \d+\.\d MB; with relevo's own modules loaded too .* \d+\.\d MB, .*malloc arenas of Node's helper threads \(\d+\.\d MB against \d+\.\d/,
    );
    // So did the bare relay with each pane's terminal on a worker thread, and with nothing parsed.
    for (const key of ['echo.idle.p50', 'echo.flood.p95']) {
      expect(note(key)).toMatch(/on a worker thread: \d+\.\d+ ms/);
      expect(note(key)).toMatch(/\(node-pty, nothing parsed\): \d+\.\d+ ms/);
    }
    // One-pane floods: relevo's and the bare stack's in turns.
    expect(note('throughput.one')).toMatch(/^1 flood each \(1 a repetition\), relevo's and the bare stack's in turns/);
    const rows = runs.flatMap((run) => run.stdout.split('\n'));
    for (const key of KEYS)
      expect(
        rows.some((row) => row.startsWith(`${key} `)),
        key,
      ).toBe(true);
  });

  it('a group not built is skipped, a failing one is one line and the others still run (exit 1)', async () => {
    // The runner and what it imports, beside two stand-in groups, in a folder under dist/ (so its packages resolve).
    const dir = mkdtempSync(join(DIST, 'bench-runner-test-'));
    made.push(dir);
    for (const f of ['index.js', 'bench-env.js', 'figure.js', 'report.js']) copyFileSync(join(DIST, 'bench', f), join(dir, f));
    writeFileSync(join(dir, 'startup.js'), "export async function figures() { throw new Error('no terminal\\nsecond line'); }\n");
    const figure = { key: 'memory.idle', what: 'stand-in', unit: 'MB', relevo: 42, samples: [42], goal: { text: '≤ 60 MB', met: true } };
    // Beside it, a goal missed with its floor past it, one missed, and a figure for reference (no goal of its own).
    const others = [
      { ...figure, key: 'memory.floored', goal: { text: '≤ 40 MB', met: false, floorAbove: true }, note: 'floor 41 MB' },
      { ...figure, key: 'memory.missed', goal: { text: '≤ 40 MB', met: false } },
      { ...figure, key: 'memory.reference', goal: { text: 'none (for reference)', met: true } },
    ];
    writeFileSync(
      join(dir, 'memory.js'),
      `export async function figures(opts) { return [{ ...${JSON.stringify(figure)}, note: 'reps ' + opts.reps }, ...${JSON.stringify(others)}]; }\n`,
    );
    const json = join(tmp, 'stand-in.json');
    const r = await bench(join(dir, 'index.js'), '--reps', '2', '--only', 'startup,memory,idle,throughput', '--json', json);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^memory\.idle +\| stand-in +\| 42\.0 MB .*✓ reps 2$/m);
    expect(r.stdout).toMatch(/^memory\.floored +\| .*\| ≤ 40 MB +\| ✗ \(its floor is past the goal\) floor 41 MB$/m);
    expect(r.stdout).toMatch(/^memory\.missed +\| .*\| ≤ 40 MB +\| ✗$/m);
    expect(r.stdout).toMatch(/^goals: 1 met, 1 not met with their floor past them, 1 not met\nmachine: /m);
    expect(r.stdout).toContain('startup: failed: no terminal');
    expect(r.stdout).not.toContain('second line');
    expect(r.stdout).toContain('idle: skipped (not built)');
    expect(r.stdout).toContain('throughput: skipped (not built)');
    const result = JSON.parse(readFileSync(json, 'utf8')) as Result;
    expect(result.groups.map((g) => [g.name, g.status])).toEqual([
      ['startup', 'failed'],
      ['memory', 'ok'],
      ['idle', 'skipped'],
      ['throughput', 'skipped'],
    ]);
    expect(result.figures.map((f) => f.key)).toEqual(['memory.idle', 'memory.floored', 'memory.missed', 'memory.reference']);
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
    expect(r.stderr).toMatch(/^groups: startup, memory, idle, echo, throughput, fleet, hop/m);
    expect(() => readFileSync(json)).toThrow();
  });

  it('--help prints the flags and the groups on stdout and runs nothing (exit 0)', async () => {
    const json = join(tmp, 'help.json');
    const r = await bench(RUNNER, '--help', '--json', json);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: node dist\/bench\/index\.js \[--reps N\]/);
    expect(r.stdout).toMatch(/^groups: startup, memory, idle, echo, throughput, fleet, hop, remote$/m);
    expect(r.stderr).toBe('');
    expect(() => readFileSync(json)).toThrow();
  });
});
