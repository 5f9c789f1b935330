// What a run's lock records of the agents relevo started (src/app/run/leftovers.ts recordAgents):
// read right after the spawn, before the program has made itself a session leader, /proc still
// shows relevo's own group and session — which a later clean-up would signal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordAgents } from '../../src/app/run/leftovers.js';
import { lockRun, readLock } from '../../src/app/store/locks.js';
import { LocalPane } from '../../src/pty/pane.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('the agents recorded in the lock', () => {
  it("are their own group and session, never relevo's, however soon after the spawn they are read", () => {
    const dir = mkdtempSync(join(tmpdir(), 'relevo-record-'));
    const unlock = lockRun(dir);
    cleanups.push(() => {
      unlock();
      rmSync(dir, { recursive: true, force: true });
    });
    for (let i = 0; i < 20; i++) {
      const spawn = () => new LocalPane({ argv: ['sleep', '5'], cwd: dir, cols: 40, rows: 5, env: process.env as Record<string, string> });
      const panes = { planner: spawn(), builder: spawn() };
      cleanups.push(() => {
        for (const p of Object.values(panes)) {
          void p.kill();
          p.dispose();
        }
      });
      recordAgents(dir, panes);
      for (const agent of readLock(dir)?.agents ?? []) {
        expect(agent.sid).toBe(agent.pid);
        expect(agent.pgid).toBe(agent.pid);
        expect(agent.sid).not.toBe(process.pid);
      }
      expect(readLock(dir)?.agents).toHaveLength(2);
    }
  });
});
