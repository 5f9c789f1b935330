import { describe, expect, it } from 'vitest';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { simRelay } from '../helpers/sim-relay.js';
import { undoAfterEach } from '../helpers/undo.js';
import { until } from '../helpers/until.js';

const undo = undoAfterEach();

const limitedRun = (misbehave: Record<Role, string[]>) =>
  simRelay(undo, 'relevo-limit-', { planner: ['300', ...misbehave.planner], builder: ['300', ...misbehave.builder] });

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
