import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../src/app/config/options.js';
import { resumeRun } from '../../src/app/run/setup.js';
import type { RelayState } from '../../src/protocol/index.js';
import { onlyRunJournal, relevo, simCommand, tempDir } from '../helpers/cli.js';

describe('run-to-completion dispatch', () => {
  it('a refusal raised while the delivery effect runs is the last state listeners hear: paused, never running after it', async () => {
    const cwd = tempDir('relevo-dispatch-');
    const args = ['--headless', '--goal', 'Add pagination', '--planner', simCommand('planner'), '--builder', simCommand('builder')];
    const killed = await relevo(args, cwd, { RELEVO_FAILPOINT: 'checkpoint:2' });
    expect(killed.signal).toBe('SIGKILL');
    // The builder's report changed on disk: its delivery is refused at once, inside the deliver effect.
    const { runId } = onlyRunJournal(join(cwd, '.relevo'));
    const file = join(cwd, '.relevo', 'runs', runId, 'builder/checkpoints/1/handoff.json');
    const cp = JSON.parse(readFileSync(file, 'utf8')) as { body: string };
    writeFileSync(file, JSON.stringify({ ...cp, body: `${cp.body}\nchanged` }));

    const options = parseOptions(['--headless', '--resume', '--state-dir', join(cwd, '.relevo')], process.env);
    const { runner, journal, unlock } = await resumeRun(options, 'latest', '0.1.0', process.env, { cols: 80, rows: 24 });
    const heard: RelayState[] = [];
    runner.onChange((s) => heard.push(s));
    try {
      runner.resumeRun();
      await runner.settled();
      expect(heard.at(-1)).toMatchObject({ phase: 'paused', pause: { reason: 'checkpoint_mismatch', role: 'planner' } });
      expect(runner.state.phase).toBe('paused');
    } finally {
      await runner.stop();
      journal.close();
      unlock();
    }
  });
});
