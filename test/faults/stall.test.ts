/**
 * An agent that never ends its turn is shown, never waited on silently: busy past `stall_after`, or
 * flapping busy/idle every 50 ms. Real pseudo-terminals, a fake agent read through the sim profile,
 * wired as the TUI and headless wire it (Attention over the agents, journal entries out).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { Attention } from '../../src/app/run/attention.js';
import { initialState, type JournalEntry, type RelayState } from '../../src/protocol/index.js';
import { AgentPane } from '../../src/pty/agent.js';
import { Emitter } from '../../src/pty/emitter.js';
import { LocalPane } from '../../src/pty/pane.js';
import { tempDir } from '../helpers/cli.js';
import { journalInto } from '../helpers/journal.js';
import { machineConfig } from '../helpers/machine.js';
import { until } from '../helpers/until.js';

const FAKE = fileURLToPath(new URL('../helpers/flapping-agent.mjs', import.meta.url));
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

function watch(mode: 'flap' | 'busy', stallAfterMs: number) {
  const pane = (role: 'planner' | 'builder') =>
    new LocalPane({
      argv: [process.execPath, FAKE, role === 'builder' ? mode : 'busy'],
      cwd: tempDir(),
      env: process.env as Record<string, string>,
      cols: 80,
      rows: 10,
    });
  const sim = loadProfile('sim', 'test');
  const agents = { planner: new AgentPane('planner', pane('planner'), sim), builder: new AgentPane('builder', pane('builder'), sim) };
  const state: RelayState = initialState(machineConfig('en', { delivery: { mode: 'inline', maxBytes: 1, maxLines: 1 }, runPath: 'x' }));
  const journal: JournalEntry[] = [];
  const attention = new Attention({ agents, state, onChange: new Emitter<RelayState>().event }, journalInto(journal), stallAfterMs);
  cleanup.push(async () => {
    attention.dispose();
    for (const agent of Object.values(agents)) {
      await agent.pane.kill(300);
      agent.dispose();
    }
  });
  return { agents, journal, attention };
}

describe('stalled agents', () => {
  it('an agent flapping busy/idle every 50 ms with no turn end is journaled once as stalled (flapping) and shown', async () => {
    const { agents, journal, attention } = watch('flap', 3_600_000);
    agents.builder.beginTurn('step 1');
    await until('the stall', () => journal.some((e) => e.type === 'stalled'));
    expect(journal.filter((e) => e.type === 'stalled')).toEqual([
      {
        type: 'stalled',
        role: 'builder',
        why: 'flapping',
        for_ms: expect.any(Number),
        detection: expect.objectContaining({ rules: expect.any(Array) }),
      },
    ]);
    expect(attention.notes.builder).toMatch(/^builder: stalled — flapping busy\/idle/);
    expect(agents.builder.inTurn).toBe(true); // still waited for: nothing was done about it
  });

  it('a turn busy past stall_after is journaled once as stalled (busy) and shown', async () => {
    const { agents, journal, attention } = watch('busy', 1500);
    agents.builder.beginTurn('step 1');
    await until('the stall', () => journal.some((e) => e.type === 'stalled' && e.role === 'builder'));
    expect(journal.filter((e) => e.type === 'stalled' && e.role === 'builder')).toEqual([
      {
        type: 'stalled',
        role: 'builder',
        why: 'busy',
        for_ms: expect.any(Number),
        detection: expect.objectContaining({ state: 'busy', rule: 'title-spinner' }),
      },
    ]);
    // The journal keeps how each rule of the profile read the screen when the turn stalled.
    const stalled = journal.find((e) => e.type === 'stalled');
    const rules = stalled?.type === 'stalled' ? (stalled.detection?.rules ?? []) : [];
    expect(rules.map((r) => r.id)).toEqual(loadProfile('sim', 'test').data.detect.rules.map((r) => r.id));
    expect(rules.find((r) => r.id === 'title-spinner')).toMatchObject({ matched: true, evidence: '⠂ fake' });
    expect(attention.notes.builder).toMatch(/^builder: stalled — busy \d+s with no turn end$/);
  });
});
