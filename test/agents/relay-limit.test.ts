/**
 * A real Claude Code whose model API answers 429: relevo reads its error screen as `limited` and the
 * relay pauses `rate_limited`, naming the CLI's profile (headless: exit 3). The fake server sends the
 * real API's rate-limit headers; Claude Code's own retries are off (CLAUDE_CODE_MAX_RETRIES=0) so it
 * gives up at once.
 */
import { describe, expect, it } from 'vitest';
import { claudeOn, relayFixture } from './fixture.js';
import { createClaudeHome } from './homes.js';
import { handoff, of, STEP_1 } from './script.js';

const fx = relayFixture();

describe('a usage limit of a real agent', () => {
  it('Claude Code builder answered 429: the relay pauses rate_limited (profile claude), round 1 delivered once, exit 3', async () => {
    const planner = await fx.anthropic(handoff('Here is step 1.', STEP_1));
    const builder = await fx.anthropic();
    builder.limitedUntil = Date.now() + 3_600_000;
    const home = fx.home(createClaudeHome({ serverUrl: planner.url }));
    const env = { ...home.env, CLAUDE_CODE_MAX_RETRIES: '0' };
    const run = await fx.headless(home.cwd, env, { planner: claudeOn(planner, home.bin), builder: claudeOn(builder, home.bin) });
    expect(run.result.exitCode).toBe(3);
    expect(run.result.stderr).toContain('paused: rate_limited (builder)');
    expect(run.lines.at(-1)).toMatchObject({
      type: 'paused',
      reason: 'rate_limited',
      role: 'builder',
      profile: 'claude',
      detail: 'api-rate-limit',
    });
    // Claude Code's API-key screen gives no reset time: the person resumes.
    expect(run.lines.at(-1)).not.toHaveProperty('resume_at');
    expect(of(run.lines, 'delivered').map((d) => `${d.kind}>${d.to}:${d.round}`)).toEqual(['goal>planner:0', 'handoff>builder:1']);
    expect(builder.mainRequests().length).toBeGreaterThan(0);
    expect(builder.mainRequests().every((r) => r.status === 429)).toBe(true);
  }, 120_000);
});
