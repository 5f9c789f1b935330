/**
 * Closing the terminal window under the TUI: the terminal (here a tmux server, killed) goes away and
 * relevo gets SIGHUP. The pause is journaled and no agent is left, not even one that ignores signals.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { afterAll, describe, expect, it } from 'vitest';
import { readLock } from '../../src/app/store/locks.js';
import { BIN, parseJournal, tempDir } from '../helpers/cli.js';
import { alive, runProcesses, stubbornPids, stubbornRun, theRun } from '../helpers/procs.js';
import { until } from '../helpers/until.js';

const SOCKET = `relevo-hangup-${process.pid}`;
const tmux = (...args: string[]) => execa('tmux', ['-L', SOCKET, ...args], { reject: false });
const cwd = tempDir('relevo-hangup-');
const pidsFile = join(cwd, 'stubborn.pids');

afterAll(async () => {
  await tmux('kill-server');
  const ids = stubbornPids(pidsFile);
  for (const pid of ids ? [ids.pid, ids.child] : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

describe.runIf(process.platform === 'linux')('the TUI when its terminal closes', () => {
  it('SIGHUP: journaled pause, the stubborn agent and its child are gone', async () => {
    const command = quote([process.execPath, BIN, ...stubbornRun('Add pagination to /users with tests', pidsFile)]);
    const started = await tmux('new-session', '-d', '-s', 'relevo', '-x', '160', '-y', '40', '-c', cwd, `${command}; sleep 60`);
    expect(started.exitCode, started.stderr).toBe(0);
    await until(
      'the goal and the stubborn agent',
      () => stubbornPids(pidsFile) !== null && (theRun(cwd)?.journal.includes('"type":"goal"') ?? false),
    );
    const { id } = theRun(cwd)!;
    await tmux('kill-server');
    // relevo is done once it let go of the run.
    await until('relevo to let go of the run', () => readLock(join(cwd, '.relevo', 'runs', id))?.released === true);
    expect(parseJournal(theRun(cwd)!.journal).at(-1)).toMatchObject({
      type: 'paused',
      reason: 'user',
      detail: expect.stringMatching(/^(SIGHUP|terminal gone)/),
    });
    const ids = stubbornPids(pidsFile)!;
    expect([alive(ids.pid), alive(ids.child)]).toEqual([false, false]);
    expect(runProcesses(id)).toEqual([]);
  });
});
