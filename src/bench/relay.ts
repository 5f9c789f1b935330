/**
 * `npm run bench`: the relay's own cost and latency on the built-in simulators.
 * Runs the demo relay in this process (the agents are child processes, so the CPU figure is
 * relevo's alone) and reports, per run: wall time, relevo CPU as % of one core, turn-end
 * latency (last screen change → turn end; the profile's quiet window is the floor), and hop
 * time (turn end → delivery confirmed: paste, settle delay, Enter, confirmation), and the cost of
 * keeping each handoff (in a git repository: reply read → checkpoint written with its git anchor,
 * → offer written, confirmed → ack written and journaled).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { loadProfile } from '../app/config/profiles.js';
import { demoCommand } from '../app/run/agent-specs.js';
import { RelayRunner } from '../app/run/runner.js';
import { createRunDir, Journal } from '../app/store/journal.js';
import { type JournalLine, ROLES } from '../protocol/index.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    steps: { type: 'string', default: '3' },
    'think-ms': { type: 'string', default: '800' },
  },
});
const runs = Number(values.runs);
const steps = values.steps;
const thinkMs = values['think-ms'];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const fmt = (n: number) => n.toFixed(0).padStart(6);

async function once(): Promise<{ wallMs: number; cpuPct: number; turnEnd: number[]; hop: number[]; keep: number[]; outcome: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'relevo-bench-'));
  // A small git repository, as a project would be: each checkpoint takes its git anchor.
  const git = (...args: string[]) =>
    execa('git', args, {
      cwd: dir,
      env: { GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' },
    });
  await git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), '.relevo/\n');
  writeFileSync(join(dir, 'users.ts'), 'export const users = [];\n');
  await git('add', '.');
  await git('commit', '-q', '-m', 'start');
  const { runId, dir: runDir } = createRunDir(join(dir, '.relevo'));
  const journal = new Journal(runDir);
  const lines: JournalLine[] = [];
  journal.onAppend((l) => lines.push(l));
  const sim = loadProfile('sim', 'bench');
  const runner = await RelayRunner.create({
    runId,
    version: 'bench',
    maxRounds: 10,
    lang: 'en',
    cwd: dir,
    env: process.env,
    cols: 120,
    rows: 40,
    blockedTimeoutMs: 60_000,
    readyTimeoutMs: 60_000,
    runDir,
    runPath: runDir,
    agents: {
      planner: { argv: [...demoCommand('planner'), '--steps', steps, '--think-ms', thinkMs], profile: sim },
      builder: { argv: [...demoCommand('builder'), '--think-ms', thinkMs], profile: sim },
    },
    journal,
  });
  const turnEnd: number[] = [];
  for (const role of ROLES) runner.agents[role].onTurnEnded(() => turnEnd.push(runner.agents[role].pane.quietFor()));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  runner.start('Add pagination to /users with tests');
  const final = await runner.settled();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await runner.stop();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  const hop: number[] = [];
  const keep: number[] = [];
  let ended: number | null = null;
  for (const l of lines) {
    if (l.type === 'turn_ended' && l.relayed) ended = Date.parse(l.ts);
    if (l.type === 'checkpoint' && ended !== null) keep.push(Date.parse(l.ts) - ended);
    if (l.type === 'delivered' && ended !== null) {
      hop.push(Date.parse(l.ts) - ended);
      ended = null;
    }
  }
  return { wallMs, cpuPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100, turnEnd, hop, keep, outcome: final.phase };
}

console.log(
  `relay bench: ${runs} runs, ${steps} steps, think ${thinkMs} ms, sim profile quiet window ${loadProfile('sim', 'bench').data.detect.quiet_ms} ms`,
);
console.log('run   wall ms  cpu %  turn-end ms (median/max)  hop ms (median/max)  outcome');
const all = { turnEnd: [] as number[], hop: [] as number[], keep: [] as number[], cpu: [] as number[] };
for (let i = 1; i <= runs; i++) {
  const r = await once();
  all.turnEnd.push(...r.turnEnd);
  all.hop.push(...r.hop);
  all.keep.push(...r.keep);
  all.cpu.push(r.cpuPct);
  console.log(
    `${String(i).padStart(3)} ${fmt(r.wallMs)}   ${r.cpuPct.toFixed(1).padStart(5)}  ${fmt(median(r.turnEnd))} /${fmt(Math.max(...r.turnEnd))}          ${fmt(median(r.hop))} /${fmt(Math.max(...r.hop))}      ${r.outcome}`,
  );
}
console.log(
  `all: relevo cpu median ${median(all.cpu).toFixed(1)} % of one core; turn end median ${median(all.turnEnd).toFixed(0)} ms (max ${Math.max(...all.turnEnd).toFixed(0)}); hop median ${median(all.hop).toFixed(0)} ms (max ${Math.max(...all.hop).toFixed(0)}); turn_ended → checkpoint journaled median ${median(all.keep).toFixed(0)} ms (max ${Math.max(...all.keep).toFixed(0)})`,
);
