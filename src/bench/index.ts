/**
 * `npm run bench`: every figure of issue 16 from one run — relevo-tui's median against a baseline
 * measured in the same run (tmux, the bare node-pty + @xterm/headless stack, `node -e 0`), with the
 * ratio and the goal — as a table on stdout (`--markdown`: a Markdown table, for the README) and as
 * JSON (`--json FILE`, default bench-results.json). Then the older reports (relay, render, attach)
 * as they print them. A group whose module is not built is skipped; one that fails is reported in
 * one line and the others still run (exit 1 at the end).
 *
 *   node dist/bench/index.js [--reps N] [--quick] [--only a,b] [--json FILE] [--markdown]
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

/** Groups that return figures, in the order they run. */
const FIGURES = ['startup', 'memory', 'idle', 'echo', 'throughput', 'hop'] as const;
/** Older benches that print their own report; what they measure is not in the issue's table. */
const SCRIPTS: Readonly<Record<string, { full: string[]; quick: string[] }>> = {
  relay: { full: ['--runs', '3'], quick: ['--runs', '1', '--steps', '1', '--think-ms', '50'] },
  render: { full: [], quick: ['--stream-s', '0.5', '--feed-s', '0.5', '--idle-s', '0.5', '--flood-s', '0.5'] },
  attach: { full: [], quick: ['--steps', '1', '--think-ms', '50'] },
};
const GROUPS = [...FIGURES, ...Object.keys(SCRIPTS)];

type Outcome = { name: string; status: 'ok' | 'skipped' | 'failed'; seconds: number; detail?: string };

const USAGE = `usage: node dist/bench/index.js [--reps N] [--quick] [--only a,b] [--json FILE] [--markdown]\ngroups: ${GROUPS.join(', ')}\n`;

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

async function runScript(name: string, opts: Options): Promise<Outcome['status']> {
  const file = here(`./${name}.js`);
  if (!existsSync(file)) return 'skipped';
  const args = opts.quick ? SCRIPTS[name]!.quick : SCRIPTS[name]!.full;
  const r = await execa(process.execPath, [file, ...args], { reject: false, all: true, stdin: 'ignore' });
  console.log(`── ${name} ──\n${r.all.trimEnd()}\n`);
  if (r.exitCode !== 0) throw new Error(`exited ${r.exitCode ?? r.signal}: ${r.all.trim().split('\n').at(-1) ?? ''}`);
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
    const status = FIGURES.includes(name as (typeof FIGURES)[number]) ? await runFigures(name, opts, figures) : await runScript(name, opts);
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
