/**
 * `C-] r` after an agent exited, as people meet it: relevo-tui on the built simulators in a real
 * tmux server; the builder's process is killed mid-turn, the band says so, `C-] r` starts it again
 * with the same command and the relay goes on to done.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { BIN, onlyRunJournal, recorded, tempDir } from '../helpers/cli.js';
import { band, freshTmuxServers, keys, start, until } from '../helpers/tui-tmux.js';

freshTmuxServers();

type Lock = { pid: number; agents?: { role: string; pid: number }[] };
const lockOf = (stateDir: string): Lock => {
  const [run] = readdirSync(join(stateDir, 'runs'));
  return JSON.parse(readFileSync(join(stateDir, 'runs', run!, 'lock'), 'utf8')) as Lock;
};
const agentPid = (stateDir: string, role: string) => lockOf(stateDir).agents?.find((a) => a.role === role)?.pid;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('C-] r after an agent exited', () => {
  it('starts the killed builder again, tells it where its handoff is, and the relay reaches done with each round delivered once', async () => {
    const cwd = tempDir('relevo-restart-');
    const stateDir = join(cwd, '.relevo');
    const records = tempDir('relevo-restart-records-');
    const record = (role: string) => join(records, `${role}.jsonl`);
    const sim = (role: string, think: string) =>
      quote([process.execPath, BIN, 'sim-agent', '--role', role, '--think-ms', think, '--record', record(role)]);
    await start(180, 50, ['--planner', sim('planner', '300'), '--builder', sim('builder', '4000'), '--goal', 'Add pagination'], [], cwd);

    // Round 1 reached the builder, which is working on it: its process is killed.
    await until('round 1 with the builder', (s) => band(s).includes('turn: builder') && recorded(record('builder')).length === 1, 60_000);
    const killed = agentPid(stateDir, 'builder')!;
    expect(alive(killed)).toBe(true);
    process.kill(-killed, 'SIGKILL');
    const paused = await until('the pause', (s) => band(s).endsWith('paused: agent_exited'));
    expect(band(paused)).toContain('builder: sim ✕ exited');
    expect(paused).toContain('the builder exited (code 0); its work is checkpointed: the prefix then r starts it again');

    await keys('C-]', 'r');
    // The band leaves the pause once the new builder runs, and a toast says it started again.
    await until('the builder started again', (s) => s.includes('the builder started again (pid ') && !band(s).includes('paused'));
    const done = await until('done', (s) => / · done$/.test(band(s)), 90_000);
    expect(band(done)).toContain('3/10');
    expect(band(done)).not.toContain('exited');

    // A new process of the same command, and the lock names it (a leftover sweep would find it).
    const { lines } = onlyRunJournal(stateDir);
    const restarted = lines.filter((l) => l.type === 'agent_restarted');
    expect(restarted).toMatchObject([{ role: 'builder', pid: expect.any(Number) }]);
    const pid = restarted[0]!.type === 'agent_restarted' ? restarted[0]!.pid! : 0;
    expect(pid).not.toBe(killed);
    expect(agentPid(stateDir, 'builder')).toBe(pid);
    expect(alive(pid)).toBe(true);
    expect(lines.filter((l) => l.type === 'agent_exited')).toMatchObject([{ role: 'builder' }]);
    expect(lines.findIndex((l) => l.type === 'agent_exited')).toBeLessThan(lines.findIndex((l) => l.type === 'agent_restarted'));

    // Each round delivered once; the new builder was told where round 1 is, never typed it again.
    const delivered = lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind} ${l.from}→${l.to} ${l.round}`] : []));
    expect(delivered).toEqual([
      'goal relevo→planner 0',
      'handoff planner→builder 1',
      'notice relevo→builder 1',
      'handoff builder→planner 1',
      'handoff planner→builder 2',
      'handoff builder→planner 2',
      'handoff planner→builder 3',
      'handoff builder→planner 3',
    ]);
    const toBuilder = recorded(record('builder'));
    expect(toBuilder.filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    expect(toBuilder[1]).toMatch(/^relevo restarted you \(your process had exited\) while you were working on round 1 from the planner\./);
    expect(toBuilder[1]).toContain('/planner/checkpoints/1/HANDOFF.md');
  }, 180_000);
});
