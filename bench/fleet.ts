/**
 * Several relays in one relevo: relevo's own resident memory and CPU time with four relays that
 * reached `done` and sit idle (eight idle agents), against one such relay; and the hop (an agent's
 * turn end seen → its handoff delivered, from the journals) while four relays work at once, against
 * one relay working alone. The relays are made as a person makes them: `relevo-tui new` in the TUI,
 * then `C-] c` and a goal for each other one, in a git repository of the bench's own.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { type JournalLine, journalLineSchema } from '../src/protocol/index.js';
import { parseJsonLines } from '../src/protocol/json-lines.js';
import type { Program } from '../test/helpers/pty/program.js';
import { sleep } from '../test/helpers/until.js';
import { type Figure, median } from './figure.js';
import { cpuTicks, rssMB } from './proc.js';
import { quiet, type Scene, STEADY_MS } from './scenes.js';
import { BIN, openTerminal } from './spawn.js';
import { Workdir } from './workdir.js';

const RELAYS = 4;
/** Quick (the CI smoke): two relays against one, stillness shorter. */
const QUICK_RELAYS = 2;
const RSS_RATIO_GOAL = 1.5;
const HOP_RATIO_GOAL = 1.2;
/** The window CPU time is counted over once the relays sit idle, ms. */
const CPU_WINDOW_MS = 10_000;
const TICK_MS = 10;

const AUTHOR = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@b' };
const sim = (role: string) => quote([process.execPath, BIN, 'sim-agent', '--role', role, '--think-ms', '600']);

type FleetScene = Scene & { readonly journals: () => JournalLine[][] };

/** The journals of every run in the repository's state directory. */
export function journals(repo: string): JournalLine[][] {
  const runs = join(repo, '.relevo', 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs).flatMap((id) => {
    const file = join(runs, id, 'events.jsonl');
    return existsSync(file) ? [parseJsonLines(readFileSync(file, 'utf8'), journalLineSchema)] : [];
  });
}

const dashboardShown = (t: string) => /^relevo · \d+ relays?\b/m.test(t);

/** `n` relays in one relevo's TUI, made one after the other, all driven to `done`. */
async function fleet(n: number): Promise<FleetScene> {
  const dir = new Workdir();
  const repo = dir.path;
  const git = (...args: string[]) => execa('git', args, { cwd: repo, env: AUTHOR });
  await git('init', '-q');
  await git('commit', '-q', '--allow-empty', '-m', 'bench');
  const argv = [process.execPath, BIN, 'new', '--goal', 'Task 1', '--planner', sim('planner'), '--builder', sim('builder')];
  const tui: Program = openTerminal(argv, { cwd: repo, env: AUTHOR });
  const close = async () => {
    await tui.kill(5000);
    dir.release();
  };
  try {
    for (let i = 2; i <= n; i++) {
      tui.write('\x1dc');
      await tui.until(dashboardShown, 20_000, 'the dashboard');
      tui.write(`Task ${i}\r`);
      await tui.until((t) => t.includes(`goal: Task ${i}`), 60_000, `relay ${i}'s view`);
    }
    const done = () => journals(repo).filter((lines) => lines.some((l) => l.type === 'done')).length === n;
    const deadline = performance.now() + 180_000;
    while (!done()) {
      if (performance.now() > deadline) throw new Error(`the ${n} relays did not all reach done`);
      await sleep(250);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { pid: tui.pid, tui, close, journals: () => journals(repo) };
}

/** Each handoff's hop inside relevo: its sender's turn end journaled → its delivery journaled, ms. */
export function hops(all: readonly JournalLine[][]): number[] {
  return all.flatMap((lines) => {
    const ms: number[] = [];
    let ended: number | null = null;
    for (const l of lines) {
      if (l.type === 'turn_ended' && l.relayed) ended = Date.parse(l.ts);
      if (l.type === 'delivered' && l.kind === 'handoff' && ended !== null) {
        ms.push(Date.parse(l.ts) - ended);
        ended = null;
      }
    }
    return ms;
  });
}

type Sample = { rss: number; cpuMs: number; hops: number[] };

/** One scene: the relays driven to done (their hops), then still, then its memory and CPU over a window. */
async function measure(n: number, quick: boolean): Promise<Sample> {
  const scene = await fleet(n);
  try {
    const hopMs = hops(scene.journals());
    await quiet(scene, quick ? 1000 : STEADY_MS, (quick ? 1000 : STEADY_MS) + 30_000);
    const rss = rssMB(scene.pid).rss;
    const before = cpuTicks(scene.pid);
    await sleep(quick ? 1000 : CPU_WINDOW_MS);
    const cpuMs = (cpuTicks(scene.pid) - before) * TICK_MS;
    return { rss, cpuMs, hops: hopMs };
  } finally {
    await scene.close();
  }
}

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const n = opts.quick ? QUICK_RELAYS : RELAYS;
  const one: Sample[] = [];
  const many: Sample[] = [];
  for (let rep = 0; rep < opts.reps; rep++) {
    one.push(await measure(1, opts.quick));
    many.push(await measure(n, opts.quick));
  }
  const med = (xs: Sample[], pick: (s: Sample) => number) => median(xs.map(pick));
  const hopOf = (s: Sample) => median(s.hops);
  const rss = { many: med(many, (s) => s.rss), one: med(one, (s) => s.rss) };
  const hop = { many: med(many, hopOf), one: med(one, hopOf) };
  const window = `${(opts.quick ? 1000 : CPU_WINDOW_MS) / 1000} s`;
  const label = `${n} relays`;
  return [
    {
      key: 'fleet.rss',
      what: `relevo's RSS, ${label} idle after done (${n * 2} idle agents)`,
      unit: 'MB',
      relevo: rss.many,
      samples: many.map((s) => s.rss),
      baseline: { name: 'one relay idle after done', value: rss.one, samples: one.map((s) => s.rss) },
      goal: { text: `≤ ${RSS_RATIO_GOAL}× one relay's`, met: rss.many <= RSS_RATIO_GOAL * rss.one },
      note: `${(rss.many / rss.one).toFixed(2)}× one relay's`,
    },
    {
      key: 'fleet.cpu',
      what: `relevo's CPU time over ${window} idle, ${label} idle after done`,
      unit: 'ms',
      relevo: med(many, (s) => s.cpuMs),
      samples: many.map((s) => s.cpuMs),
      baseline: { name: 'one relay idle after done', value: med(one, (s) => s.cpuMs), samples: one.map((s) => s.cpuMs) },
      goal: { text: 'none (for reference)', met: true },
    },
    {
      key: 'fleet.hop',
      what: `turn end → handoff delivered (journaled), ${label} working at once, median`,
      unit: 'ms',
      relevo: hop.many,
      samples: many.map(hopOf),
      baseline: { name: 'one relay working alone', value: hop.one, samples: one.map(hopOf) },
      goal: { text: `≤ ${HOP_RATIO_GOAL}× one relay's`, met: hop.many <= HOP_RATIO_GOAL * hop.one },
      note: `${(hop.many / hop.one).toFixed(2)}× one relay's; ${many.reduce((k, s) => k + s.hops.length, 0)} hops`,
    },
  ];
}
