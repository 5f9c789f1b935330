import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOptions } from '../../src/app/config/options.js';
import { setFsFaults } from '../../src/app/faults/fsfault.js';
import { createRun } from '../../src/app/run/setup.js';
import { readJournal } from '../../src/app/store/journal.js';
import type { JournalLine } from '../../src/protocol/index.js';
import { recorded, simCommand, tempDir } from '../helpers/cli.js';

// What C-] r does in the TUI (a `resume` dispatched to the same runner) once the state directory can be written again.

afterEach(() => setFsFaults(''));

const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);

async function paused(fault: string) {
  const cwd = tempDir('relevo-resume-fault-');
  const record = (role: 'planner' | 'builder') => join(cwd, `${role}.record`);
  const options = parseOptions(
    [
      '--headless',
      '--state-dir',
      join(cwd, 'state'),
      '--planner',
      simCommand('planner', '--record', record('planner')),
      '--builder',
      simCommand('builder', '--record', record('builder')),
    ],
    process.env,
  );
  setFsFaults(fault);
  const run = await createRun(options, '0.1.0', process.env, { cols: 100, rows: 30 });
  run.runner.start('Add pagination to /users with tests');
  const state = await run.runner.settled();
  setFsFaults('');
  return { ...run, state, received: (role: 'planner' | 'builder') => recorded(record(role)) };
}

async function finish(run: Awaited<ReturnType<typeof paused>>) {
  run.runner.resumeRun();
  const final = await run.runner.settled();
  await run.runner.stop();
  run.journal.close();
  run.unlock();
  return { final, lines: readJournal(run.journal.path) };
}

// One at a time: the injected faults are the process's.
describe('resuming in the same process after a failed state write', () => {
  it('a checkpoint that could not be written is written on resume, then the handoff is delivered and the run goes on to done', async () => {
    const run = await paused('checkpoint:ENOSPC:1');
    expect(run.state).toMatchObject({
      phase: 'paused',
      pause: { reason: 'state_unwritable' },
      pending: { kind: 'handoff', to: 'builder', round: 1 },
    });
    expect(run.runner.pendingSaved).toBe(false);
    expect(run.received('builder')).toEqual([]);
    const { final, lines } = await finish(run);
    expect(final.phase).toBe('done');
    const first = of(lines, 'checkpoint')[0];
    expect(first).toMatchObject({ lane: 'planner', checkpoint_seq: 1, round: 1 });
    // Journaled after the resume, before the offer of that checkpoint.
    expect(lines.findIndex((l) => l.type === 'resumed')).toBeLessThan(lines.indexOf(first!));
    expect(run.received('builder').filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
  });

  it('an ack that could not be written: the handoff, typed and confirmed, is acknowledged on resume and never typed twice; the answer the builder gave meanwhile is relayed', async () => {
    const run = await paused('ack:ENOSPC:1');
    expect(run.state).toMatchObject({
      phase: 'paused',
      pause: { reason: 'state_unwritable' },
      pending: { to: 'builder', round: 1 },
      delivering: false,
    });
    // The builder answers while relevo is paused: its report must not be lost.
    await new Promise<void>((resolve) => run.runner.agents.builder.onTurnEnded(() => resolve()));
    await sleep(1000);
    expect(run.received('builder').filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    const { final, lines } = await finish(run);
    expect(final.phase).toBe('done');
    expect(run.received('builder').filter((t) => t.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(1);
    expect(of(lines, 'delivered').filter((d) => d.kind === 'handoff' && d.round === 1 && d.to === 'builder')).toHaveLength(1);
  });
});
