/**
 * `npm run bench` (part 3): the cost of driving agents in tmux panes (`--tmux`). Starts a private
 * tmux server with the simulated planner and builder in two panes, runs the relay in this process
 * attached to them, and reports relevo's own CPU (the mirrors' looks through the control-mode
 * clients, the headless screens, the relay), the tmux server's CPU, and the hop time.
 *
 *   node dist/bench/attach.js [--steps N] [--think-ms MS]   (the demo's: 3 steps, 800 ms)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { parseOptions } from '../app/config/options.js';
import { demoCommand } from '../app/run/agent-specs.js';
import { openRun } from '../app/run/setup.js';
import type { JournalLine } from '../protocol/index.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '3' }, 'think-ms': { type: 'string', default: '800' } } });
const sim = (role: 'planner' | 'builder') => [...demoCommand(role), '--steps', values.steps, '--think-ms', values['think-ms']];
const socket = `relevo-bench-${process.pid}`;
const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { reject: false });
/** CPU seconds of a process so far (utime + stime), from /proc. */
const cpuOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

if ((await execa('tmux', ['-V'], { reject: false })).exitCode !== 0) {
  console.log('attach bench: tmux is not installed; skipped');
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'relevo-bench-attach-'));
try {
  await tmux('new-session', '-d', '-s', 'bench', '-x', '200', '-y', '50', '-c', dir, '--', ...sim('planner'));
  await tmux('split-window', '-h', '-t', 'bench', '-c', dir, '--', ...sim('builder'));
  // Both simulators at their prompt (at most 10 s).
  const atPrompt = async (pane: string) => (await tmux('capture-pane', '-p', '-t', pane)).stdout.includes('❯');
  for (let t = 0; t < 100 && !((await atPrompt('%0')) && (await atPrompt('%1'))); t++) await new Promise((r) => setTimeout(r, 100));
  const serverPid = Number((await tmux('display-message', '-p', '#{pid}')).stdout.trim());
  const options = parseOptions(
    ['--headless', '--tmux', '--tmux-socket', socket, '--planner-pane', '%0', '--builder-pane', '%1', '--state-dir', join(dir, '.relevo')],
    process.env,
  );
  const lines: JournalLine[] = [];
  const { runner, journal, unlock } = await openRun(options, 'bench', process.env, { cols: 120, rows: 40 }, (l) => lines.push(l));
  const cpu0 = process.cpuUsage();
  const server0 = cpuOf(serverPid);
  const t0 = performance.now();
  runner.start('Add pagination to /users with tests');
  const final = await runner.settled();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const serverCpu = cpuOf(serverPid) - server0;
  await runner.stop();
  journal.close();
  unlock();
  const hops: number[] = [];
  let ended: number | null = null;
  for (const l of lines) {
    if (l.type === 'turn_ended' && l.relayed) ended = Date.parse(l.ts);
    if (l.type === 'delivered' && ended !== null) {
      hops.push(Date.parse(l.ts) - ended);
      ended = null;
    }
  }
  hops.sort((a, b) => a - b);
  console.log(
    `attach bench (--tmux, the demo's simulators in two tmux panes, ${values.steps} steps, think ${values['think-ms']} ms): ${final.phase} in ${(wallMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `relevo cpu ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(1)} % of one core; tmux server ${((serverCpu * 1000 * 100) / wallMs).toFixed(1)} %; hop median ${hops[Math.floor(hops.length / 2)] ?? NaN} ms (max ${hops.at(-1) ?? NaN})`,
  );
} finally {
  await tmux('kill-server');
  // tmux 3.3 leaves its socket file behind after kill-server.
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
  rmSync(dir, { recursive: true, force: true });
}
