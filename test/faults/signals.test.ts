/**
 * Faults from outside relevo: a signal (a closed terminal's SIGHUP, SIGTERM), SIGKILL, stdout's
 * reader going away. No agent outlives relevo, not even one that ignores signals, nor its child.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, parseJournal, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { alive, runProcesses, stubbornPids, stubbornRun, theRun } from '../helpers/procs.js';
import { until } from '../helpers/until.js';

const GOAL = 'Add pagination to /users with tests';
const linux = process.platform === 'linux';

/** relevo headless: the sim planner, and as builder the stubborn agent (ignores SIGHUP/SIGTERM, so does its child). */
function startStubborn(cwd: string) {
  const pidsFile = join(cwd, 'stubborn.pids');
  pidsFiles.push(pidsFile);
  const child = execa(process.execPath, [BIN, '--headless', ...stubbornRun(GOAL, pidsFile)], {
    cwd,
    reject: false,
    stdin: 'ignore',
    env: { LANG: 'C.UTF-8' },
    timeout: 90_000,
  });
  return { child, pidsFile };
}

/** Waits until the run has its goal and the stubborn agent and its child run. */
async function started(cwd: string, pidsFile: string): Promise<{ runId: string; pid: number; child: number }> {
  await until(
    'the goal and the stubborn agent',
    () => stubbornPids(pidsFile) !== null && (theRun(cwd)?.journal.includes('"type":"goal"') ?? false),
  );
  return { runId: theRun(cwd)!.id, ...stubbornPids(pidsFile)! };
}

/** Every stubborn agent started here: whatever a failing test left running is ended at the end. */
const pidsFiles: string[] = [];
afterAll(() => {
  for (const ids of pidsFiles.map(stubbornPids)) {
    for (const pid of ids ? [ids.pid, ids.child] : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
});

const lastLine = (cwd: string) => parseJournal(theRun(cwd)!.journal).at(-1);

describe.runIf(linux).concurrent('signals to relevo leave no agent behind', () => {
  it.each(['SIGHUP', 'SIGTERM'] as const)('%s: journaled pause, exit 3, the stubborn agent and its child are gone', async (signal) => {
    const cwd = tempDir('relevo-signals-');
    const { child, pidsFile } = startStubborn(cwd);
    const { runId, pid, child: grandchild } = await started(cwd, pidsFile);
    child.kill(signal);
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stderr).toMatch(new RegExp(`^relevo-tui: paused: user: ${signal}[ ;]`));
    expect(lastLine(cwd)).toMatchObject({ type: 'paused', reason: 'user', detail: signal });
    expect([alive(pid), alive(grandchild)]).toEqual([false, false]);
    expect(runProcesses(runId)).toEqual([]);
  });

  it('SIGHUP with the demo: journaled pause, exit 3, no sim agent left', async () => {
    const cwd = tempDir('relevo-signals-');
    const child = execa(process.execPath, [BIN, '--headless', '--demo'], {
      cwd,
      reject: false,
      stdin: 'ignore',
      env: { LANG: 'C.UTF-8' },
      timeout: 90_000,
    });
    await until('the goal delivered', () => theRun(cwd)?.journal.includes('"type":"delivered"') ?? false);
    const runId = theRun(cwd)!.id;
    child.kill('SIGHUP');
    const result = await child;
    expect(result.exitCode, result.stderr).toBe(3);
    expect(lastLine(cwd)).toMatchObject({ type: 'paused', reason: 'user', detail: 'SIGHUP' });
    expect(runProcesses(runId)).toEqual([]);
  });
});

describe.runIf(linux).concurrent('agents left running by a SIGKILLed relevo are found and stopped', () => {
  /**
   * Starts the stubborn run and SIGKILLs relevo: the stubborn agent and its child live on (and the sim
   * planner with them, while the builder holds its terminal's master, which node-pty lets it inherit).
   */
  async function killed(cwd: string) {
    const { child, pidsFile } = startStubborn(cwd);
    const ids = await started(cwd, pidsFile);
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    expect([alive(ids.pid), alive(ids.child)]).toEqual([true, true]);
    return ids;
  }

  it('relevo-tui runs stops them and says so in one line', async () => {
    const cwd = tempDir('relevo-leftovers-');
    const { runId, pid, child } = await killed(cwd);
    const runs = await relevo(['runs'], cwd);
    expect(runs.exitCode).toBe(0);
    expect(runs.stderr).toMatch(new RegExp(`^relevo-tui: stopped [12] agents? left running by run ${runId} \\(pids [\\d, ]+\\)$`));
    expect(runs.stderr).toContain(String(pid));
    expect(runs.stderr).toContain(String(child));
    expect(runs.stdout).toMatch(new RegExp(`${runId} .* interrupted`));
    expect([alive(pid), alive(child)]).toEqual([false, false]);
    expect(runProcesses(runId)).toEqual([]);
    // Said once: the next look finds nothing to stop.
    expect((await relevo(['runs'], cwd)).stderr).toBe('');
  });

  it('--resume of the run stops them first, then goes on to done', async () => {
    const cwd = tempDir('relevo-leftovers-');
    const { runId, pid, child } = await killed(cwd);
    const resumed = await relevo(['--headless', '--resume', '--builder', simCommand('builder'), '--builder-profile', 'sim'], cwd);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`^relevo-tui: stopped [12] agents? left running by run ${runId} \\(pids [\\d, ]+\\)$`));
    expect([alive(pid), alive(child)]).toEqual([false, false]);
    expect(lastLine(cwd)).toMatchObject({ type: 'done' });
  });

  it('the next run in the same state dir stops them first', async () => {
    const cwd = tempDir('relevo-leftovers-');
    const { runId, pid, child } = await killed(cwd);
    const next = await relevo(['--headless', '--demo'], cwd);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toMatch(new RegExp(`^relevo-tui: stopped [12] agents? left running by run ${runId} \\(pids [\\d, ]+\\)$`));
    expect([alive(pid), alive(child)]).toEqual([false, false]);
    expect(runProcesses(runId)).toEqual([]);
  });
});

describe.runIf(linux)('stdout closed by its reader (relevo-tui --headless | head -1)', () => {
  it('pauses (journaled), stops the agents, exit 3, no stack trace', async () => {
    const cwd = tempDir('relevo-epipe-');
    const child = execa(process.execPath, [BIN, '--headless', '--demo'], {
      cwd,
      reject: false,
      stdin: 'ignore',
      buffer: { stdout: false },
      env: { LANG: 'C.UTF-8' },
      timeout: 90_000,
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const result = await child;
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(result.stderr).toMatch(/^relevo-tui: paused: user: stdout closed \(EPIPE\)[ ;]/);
    const run = theRun(cwd)!;
    expect(parseJournal(run.journal).at(-1)).toMatchObject({ type: 'paused', reason: 'user', detail: 'stdout closed (EPIPE)' });
    expect(runProcesses(run.id)).toEqual([]);
  });
});
