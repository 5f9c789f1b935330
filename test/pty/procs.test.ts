import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { endProcesses, procStat, sessionOf } from '../../src/pty/procs.js';
import { alive } from '../helpers/procs.js';
import { until } from '../helpers/until.js';

const started: number[] = [];
afterAll(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

/** A session leader (as node-pty starts an agent) that ignores SIGTERM, named `title`, with a child that ignores it too. */
async function stubbornSession(title: string): Promise<{ pid: number; child: number }> {
  const script = `process.title = ${JSON.stringify(title)}; process.on('SIGTERM', () => {});
    const c = require('node:child_process').spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 60000)"], { stdio: 'ignore' });
    c.on('spawn', () => console.log(c.pid)); setInterval(() => {}, 60000);`;
  const leader = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const [chunk] = (await once(leader.stdout!, 'data')) as [Buffer];
  const ids = { pid: leader.pid!, child: Number(chunk.toString().trim()) };
  started.push(ids.pid, ids.child);
  return ids;
}

describe.runIf(process.platform === 'linux')('processes from /proc', () => {
  it('reads group, session and start time, whatever the command name holds', async () => {
    const { pid, child } = await stubbornSession('a) b (c');
    await until('the new name', () => procStat(pid) !== null);
    const leader = procStat(pid)!;
    expect(leader).toMatchObject({ pid, pgid: pid, sid: pid });
    expect(leader.start).toMatch(/^\d+$/);
    expect(procStat(child)).toMatchObject({ pgid: pid, sid: pid });
    expect(
      sessionOf(pid)!
        .map((p) => p.pid)
        .sort(),
    ).toEqual([pid, child].sort());
    expect(procStat(2 ** 22 + 7)).toBeNull();
  });

  it('ends a whole session that ignores SIGTERM: SIGKILL after the grace', async () => {
    const { pid, child } = await stubbornSession('stubborn');
    const signalled = await endProcesses(() => sessionOf(pid) ?? [], 200);
    expect(signalled).toEqual([pid, child].sort((a, b) => a - b));
    await until('both gone', () => !alive(pid) && !alive(child));
  });
});
