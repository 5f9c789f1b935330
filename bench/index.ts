/**
 * `npm run bench`: every figure of issue 16 from one run — relevo-tui's median against a baseline
 * measured in the same run (tmux, the bare node-pty + @xterm/headless stack, `node -e 0`), with the
 * ratio and the goal — as a table on stdout (`--markdown`: a Markdown table, for the README) and as
 * JSON (`--json FILE`, default bench-results.json). A group whose module is not built is skipped;
 * one that fails is reported in one line and the others still run (exit 1 at the end).
 *
 *   node dist/bench/index.js [--reps N] [--quick] [--only startup,memory,idle,echo,throughput,fleet,hop,remote] [--json FILE] [--markdown]
 */
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { withoutProxyCa } from './bench-env.js';
import type { Figure } from './figure.js';
import { goalsLine, markdownTable, plainTable } from './report.js';

type Options = { reps: number; quick: boolean };
type FigureGroup = { figures(opts: Options): Promise<Figure[]> };

/** The groups, each a module returning figures, in the order they run. */
const GROUPS: readonly string[] = ['startup', 'memory', 'idle', 'echo', 'throughput', 'fleet', 'hop', 'remote'];

type Outcome = { name: string; status: 'ok' | 'skipped' | 'failed'; seconds: number; detail?: string };

const USAGE = `usage: node dist/bench/index.js [--reps N] [--quick] [--only ${GROUPS.join(',')}] [--json FILE] [--markdown]\ngroups: ${GROUPS.join(', ')}\n`;

function usage(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}`);
  process.exit(2);
}

function options() {
  let values: {
    reps?: string | undefined;
    quick?: boolean | undefined;
    only?: string | undefined;
    json?: string | undefined;
    markdown?: boolean | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      options: {
        reps: { type: 'string' },
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        json: { type: 'string', default: 'bench-results.json' },
        markdown: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    usage(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const quick = values.quick === true;
  const reps = values.reps === undefined ? (quick ? 1 : 3) : Number(values.reps);
  if (!Number.isInteger(reps) || reps < 1) usage(`--reps takes a whole number ≥ 1, not ${values.reps}`);
  const only =
    values.only === undefined
      ? GROUPS
      : values.only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const unknown = only.filter((g) => !GROUPS.includes(g));
  if (unknown.length > 0 || only.length === 0) usage(unknown.length > 0 ? `no such group: ${unknown.join(', ')}` : '--only names no group');
  return { reps, quick, only: GROUPS.filter((g) => only.includes(g)), json: resolve(values.json!), markdown: values.markdown === true };
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

async function runFigures(name: string, opts: Options, out: Figure[]): Promise<Outcome['status']> {
  if (!existsSync(here(`./${name}.js`))) return 'skipped';
  const group = (await import(`./${name}.js`)) as FigureGroup;
  out.push(...(await group.figures(opts)));
  return 'ok';
}

async function machine() {
  const tmux = await execa('tmux', ['-V'], { reject: false });
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    tmux: tmux.exitCode === 0 ? tmux.stdout.trim() : 'not installed',
    date: new Date().toISOString(),
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

const o = options();
const proxyCa = withoutProxyCa();
const opts: Options = { reps: o.reps, quick: o.quick };
const figures: Figure[] = [];
const outcomes: Outcome[] = [];
for (const name of o.only) {
  const t0 = performance.now();
  console.error(`bench: ${name} …`);
  let outcome: Outcome;
  try {
    const status = await runFigures(name, opts, figures);
    outcome = { name, status, seconds: (performance.now() - t0) / 1000 };
  } catch (error) {
    outcome = { name, status: 'failed', seconds: (performance.now() - t0) / 1000, detail: oneLine(error) };
  }
  outcomes.push(outcome);
  console.error(
    `bench: ${name} ${outcome.status === 'skipped' ? 'skipped (not built)' : outcome.status}${outcome.detail ? `: ${outcome.detail}` : ''} (${outcome.seconds.toFixed(1)} s)`,
  );
}

const m = await machine();
const machineLine = `machine: ${m.cores} cores (${m.cpu}), node ${m.node}, ${m.tmux}, ${m.date}, load ${m.loadavg.join(' ')}; medians of ${o.reps} rep${o.reps === 1 ? '' : 's'}${o.quick ? ', quick sizes' : ''}${proxyCa ? '; NODE_EXTRA_CA_CERTS unset for every process' : ''}`;
console.log(o.markdown ? markdownTable(figures) : plainTable(figures));
console.log('');
console.log(goalsLine(figures));
console.log(machineLine);
for (const g of outcomes.filter((g) => g.status !== 'ok'))
  console.log(`${g.name}: ${g.status === 'skipped' ? 'skipped (not built)' : `failed: ${g.detail}`}`);
writeFileSync(o.json, `${JSON.stringify({ machine: m, options: opts, groups: outcomes, figures }, null, 2)}\n`);
console.error(`bench: wrote ${o.json}`);
process.exit(outcomes.some((g) => g.status === 'failed') ? 1 : 0);
