/**
 * The relay hop with the real CLIs: the planner's model finishes streaming → the builder's model
 * receives the handoff, for Claude Code → Claude Code, Claude Code → Codex and Codex → Claude Code.
 *
 * The fake model servers live in the test tree (test/helpers/fake-models), which the build does
 * not compile, so the runs are made by test/bench/hop.run.ts through vitest with its own config
 * (vitest.bench.config.ts, outside `npm test`); that file writes its samples as JSON to a
 * temporary file, read here. Needs the package's devDependencies (vitest and the CLIs); a CLI
 * that is missing is skipped with a note.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { z } from 'zod';
import { PACKAGE_ROOT } from '../src/app/config/paths.js';
import { type Figure, median, quantile, skippedFigure } from './figure.js';

/**
 * Each pair: its sender, its receiver and the kind of prompt each of its hops is for the receiver,
 * in the order the run records them (a Claude → Claude run: planner → builder, the builder's first
 * prompt, then builder → planner, the planner's second).
 */
const PAIRS = [
  ['claude-claude', 'Claude Code → Claude Code', 'claude', 'claude', ['first', 'second']],
  ['claude-codex', 'Claude Code → Codex', 'claude', 'codex', ['first']],
  ['codex-claude', 'Codex → Claude Code', 'codex', 'claude', ['second']],
] as const;
const NAMES = { claude: 'Claude Code', codex: 'Codex' } as const;
type Cli = keyof typeof NAMES;
type Prompt = 'first' | 'second';
const GOAL_MEDIAN_MS = 400;
const GOAL_P95_MS = 600;

const outputSchema = z.object({
  samples: z.record(z.string(), z.array(z.number())),
  floor: z.record(z.string(), z.object({ sender: z.array(z.number()), first: z.array(z.number()), second: z.array(z.number()) })),
  skipped: z.array(z.string()),
  failures: z.array(z.string()),
});

/**
 * Claude Code's npm package puts its native binary in place at install; where that step did not
 * run (`--ignore-scripts`), the platform package's binary is used directly.
 */
function claudeBinEnv(): Record<string, string> {
  if (process.env.RELEVO_TEST_CLAUDE_BIN !== undefined) return {};
  const wrapper = join(PACKAGE_ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
  try {
    execaSync(wrapper, ['--version'], { stdio: 'ignore' });
    return {};
  } catch {
    const native = join(PACKAGE_ROOT, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');
    return existsSync(native) ? { RELEVO_TEST_CLAUDE_BIN: native } : {};
  }
}

/**
 * The environment of everything the hop starts (vitest, relevo, the agents, their hooks): this one's,
 * without NODE_EXTRA_CA_CERTS. A machine that sets it (a sandbox proxy's CA) makes every Node start
 * slower, the Stop hook's forwarder among them, and nothing in the hop goes online.
 */
function offlineEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && name !== 'NODE_EXTRA_CA_CERTS') env[name] = value;
  return env;
}

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const vitest = join(PACKAGE_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  if (!existsSync(vitest)) return [skipped('vitest is not installed (the hop needs the devDependencies)')];
  const dir = mkdtempSync(join(tmpdir(), 'relevo-bench-hop-'));
  const out = join(dir, 'hop.json');
  try {
    const run = await execa(process.execPath, [vitest, 'run', '--config', 'vitest.bench.config.ts', '--reporter', 'dot'], {
      cwd: PACKAGE_ROOT,
      reject: false,
      extendEnv: false,
      env: { ...offlineEnv(), ...claudeBinEnv(), RELEVO_HOP_REPS: String(opts.quick ? 1 : opts.reps), RELEVO_HOP_OUT: out },
    });
    if (!existsSync(out)) return [skipped(`the hop runs failed: ${(run.stderr || run.stdout).slice(-300)}`)];
    const parsed = outputSchema.safeParse(JSON.parse(readFileSync(out, 'utf8')));
    if (!parsed.success)
      throw new Error(`the hop runs wrote what the bench cannot read: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`);
    const result = parsed.data;
    return PAIRS.flatMap(([pair, what, from, to, prompts]) =>
      hopFigures(pair, what, result.samples[pair] ?? [], hopFloor(result, from, to, prompts), result),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Floor = { readonly samples: number[]; readonly name: string };

/**
 * The hop's floor, without relevo: the sender's own part (last SSE event → its end-of-turn hook
 * wrote its file) + the receiver's own part for the same kind of prompt (handoff pasted → its
 * request), summed per repetition, in the order of the pair's samples.
 */
function hopFloor(result: z.infer<typeof outputSchema>, from: Cli, to: Cli, prompts: readonly Prompt[]): Floor {
  const sender = result.floor[from]?.sender ?? [];
  const receiver = result.floor[to];
  const samples: number[] = [];
  for (let i = 0; i < sender.length; i++)
    for (const prompt of prompts) {
      const r = receiver?.[prompt][i];
      if (r !== undefined) samples.push(sender[i]! + r);
    }
  const receiverParts = prompts.flatMap((p) => receiver?.[p] ?? []);
  const ms = (xs: number[]) => `${Math.round(median(xs))} ms`;
  const name =
    `floor (no relevo) = ${NAMES[from]}'s own end of turn (last SSE → its hook's file, median ${ms(sender)})` +
    ` + ${NAMES[to]}'s own submit (paste → request, ${prompts.join('/')} prompt, median ${ms(receiverParts)})`;
  return { samples, name };
}

function hopFigures(pair: string, what: string, samples: number[], floor: Floor, result: z.infer<typeof outputSchema>): Figure[] {
  const notes = [...result.skipped, ...result.failures.filter((f) => f.startsWith(pair) || f.startsWith('floor'))];
  const added =
    samples.length > 0 && floor.samples.length > 0
      ? [`relevo adds ${Math.round(median(samples) - median(floor.samples))} ms (median)`]
      : [];
  const note = [...added, ...notes].join('; ').slice(0, 400) || undefined;
  const baseline = (value: number) => (floor.samples.length > 0 ? { baseline: { name: floor.name, value, samples: floor.samples } } : {});
  const p95 = quantile(samples, 0.95);
  const goalMet = (value: number, limit: number) => samples.length > 0 && value <= limit;
  const base = { unit: 'ms' as const, samples, ...(note ? { note } : {}) };
  return [
    {
      key: `hop.${pair}`,
      what: `relay hop ${what}: last SSE event of the reply → the handoff's request received, median`,
      relevo: median(samples),
      goal: { text: `≤ ${GOAL_MEDIAN_MS} ms median`, met: goalMet(median(samples), GOAL_MEDIAN_MS) },
      ...base,
      ...baseline(median(floor.samples)),
    },
    {
      key: `hop.${pair}.p95`,
      what: `relay hop ${what}, p95`,
      relevo: p95,
      goal: { text: `≤ ${GOAL_P95_MS} ms p95`, met: goalMet(p95, GOAL_P95_MS) },
      ...base,
      ...baseline(quantile(floor.samples, 0.95)),
    },
  ];
}

const skipped = (why: string): Figure =>
  skippedFigure('hop.claude-claude', 'relay hop with the real CLIs', `≤ ${GOAL_MEDIAN_MS} ms median, ≤ ${GOAL_P95_MS} ms p95`, why);
