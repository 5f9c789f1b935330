/**
 * A usage limit end to end: the built simulator in real pseudo-terminals (`--misbehave limit:N`)
 * stops a turn on a usage-limit line that resets a few seconds ahead; the relay pauses
 * `rate_limited` with `resume_at`, goes on by itself at the reset, and reaches done with every
 * handoff delivered once (run `npm run build` first).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { createRunDir, Journal } from '../../src/app/store/journal.js';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { recorded, simArgv, tempDir } from '../helpers/cli.js';
import { startRunner } from '../helpers/runner.js';
import { undoAfterEach } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

const undo = undoAfterEach();

async function limitedRun(misbehave: Record<Role, string[]>) {
  const cwd = tempDir('relevo-limit-');
  const { runId, dir } = createRunDir(join(cwd, '.relevo'));
  const journal = new Journal(dir);
  const lines: JournalLine[] = [];
  journal.onAppend((l) => lines.push(l));
  const record = (role: Role) => join(cwd, `${role}-received.jsonl`);
  const sim = loadProfile('sim', 'test');
  const argv = (role: Role) => simArgv(role, '300', '--record', record(role), ...misbehave[role]);
  const runner = await startRunner({
    runId,
    cwd,
    env: { ...process.env, LANG: 'C.UTF-8' },
    readyTimeoutMs: 20_000,
    runDir: dir,
    runPath: `.relevo/runs/${runId}`,
    agents: { planner: { argv: argv('planner'), profile: sim }, builder: { argv: argv('builder'), profile: sim } },
    journal,
  });
  undo.add(async () => {
    await runner.stop();
    journal.close();
  });
  return { runner, lines, received: (role: Role) => recorded(record(role)) };
}

const deliveries = (lines: readonly JournalLine[]) =>
  lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind}:${l.from}>${l.to}:${l.round}`] : []));

describe('a usage limit in a real pseudo-terminal', () => {
  it('pauses rate_limited with resume_at and the profile, goes on by itself at the reset, and reaches done with each handoff delivered once', async () => {
    const { runner, lines, received } = await limitedRun({ planner: [], builder: ['--misbehave', 'limit:2'] });
    runner.start('Add pagination to /users');
    const paused = await runner.settled();
    expect(paused).toMatchObject({ phase: 'paused', pause: { reason: 'rate_limited', role: 'builder', profile: 'sim' } });
    const pause = lines.find((l) => l.type === 'paused');
    expect(pause).toMatchObject({ type: 'paused', reason: 'rate_limited', role: 'builder', profile: 'sim' });
    const resumeAt = pause?.type === 'paused' ? Date.parse(pause.resume_at ?? '') : Number.NaN;
    expect(resumeAt).toBeGreaterThan(Date.now() - 10_000);

    await until('the run done', () => runner.state.phase === 'done', 60_000);
    const resumed = lines.filter((l) => l.type === 'resumed');
    expect(resumed).toEqual([expect.objectContaining({ limit_reset: true })]);
    expect(deliveries(lines)).toEqual([
      'goal:relevo>planner:0',
      'handoff:planner>builder:1',
      'handoff:builder>planner:1',
      'handoff:planner>builder:2',
      'notice:relevo>builder:2',
      'handoff:builder>planner:2',
      'handoff:planner>builder:3',
      'handoff:builder>planner:3',
    ]);
    // Round 2 was typed to the builder once; after the reset it was told to go on, with where the handoff is.
    const toBuilder = received('builder');
    expect(toBuilder.filter((t) => t.startsWith('[relevo ronda 2 · de planner]'))).toHaveLength(1);
    const notice = toBuilder.find((t) => t.includes('usage limit'));
    expect(notice).toContain(`${runner.config.runPath}/planner/checkpoints/2/HANDOFF.md`);
  }, 90_000);

  it('a person who resumes before the reset goes on at once; the clock then does nothing more', async () => {
    const { runner, lines } = await limitedRun({ planner: ['--misbehave', 'limit:2'], builder: [] });
    runner.start('Add pagination to /users');
    expect(await runner.settled()).toMatchObject({ phase: 'paused', pause: { reason: 'rate_limited', role: 'planner' } });
    runner.resumeRun();
    await until('the run done', () => runner.state.phase === 'done', 60_000);
    // Resumed once, by the person (no limit_reset); the notice reached the planner before the limit reset, which stopped it again.
    const reasons = lines.flatMap((l) =>
      l.type === 'paused' ? [l.reason] : l.type === 'resumed' ? [`resumed${l.limit_reset ? ' at reset' : ''}`] : [],
    );
    expect(reasons[0]).toBe('rate_limited');
    expect(reasons[1]).toBe('resumed');
    expect(deliveries(lines).filter((d) => d.startsWith('handoff:builder>planner:1'))).toHaveLength(1);
  }, 90_000);
});
