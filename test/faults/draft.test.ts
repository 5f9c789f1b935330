/**
 * A person's unsent draft in the receiver's input box is never merged into a delivery: relevo holds
 * the message until the draft is sent or cleared, then types it alone. Real pseudo-terminals: the
 * simulated agent (input line read from its screen) and a shell-like fake agent under the generic
 * profile (no input box to read: the person's keys are counted).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { AgentPane } from '../../src/pty/agent.js';
import { LocalPane } from '../../src/pty/pane.js';
import { BIN, tempDir } from '../helpers/cli.js';
import { until } from '../helpers/until.js';

const LINE_AGENT = fileURLToPath(new URL('../helpers/line-agent.mjs', import.meta.url));
const MESSAGE = '[relevo ronda 1 · de planner]\nStep 1 of 3: write the failing tests';

const records = (file: string): string[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { text: string }).text)
    : [];

const opened: AgentPane[] = [];
afterEach(async () => {
  for (const agent of opened.splice(0)) {
    await agent.pane.kill(500);
    agent.dispose();
    agent.pane.dispose();
  }
});

function open(argv: string[], profile: string): AgentPane {
  const pane = new LocalPane({
    argv,
    cwd: tempDir(),
    env: { ...(process.env as Record<string, string>), TERM: 'xterm-256color' },
    cols: 100,
    rows: 30,
  });
  const agent = new AgentPane('builder', pane, loadProfile(profile, 'test'));
  opened.push(agent);
  return agent;
}

/** Starts a delivery and resolves once it is held (or, when it is not, with its result). */
async function heldDelivery(agent: AgentPane, text: string) {
  const holds: boolean[] = [];
  agent.hold.onChange((on) => holds.push(on));
  const delivery = agent.deliver(text, 20_000);
  const first = await Promise.race([
    delivery.then((r) => ({ result: r })),
    until('the hold', () => holds[0] === true, 20_000).then(() => 'held'),
  ]);
  return { delivery, holds, first };
}

describe('a draft in the input box (the input line is read from the screen: sim)', () => {
  const sim = (record: string) =>
    open([process.execPath, BIN, 'sim-agent', '--role', 'builder', '--think-ms', '200', '--record', record], 'sim');

  it('holds the delivery until the person clears the draft, then types the message alone', async () => {
    const record = join(tempDir(), 'received.jsonl');
    const agent = sim(record);
    await until('the idle sim', () => agent.state === 'idle');
    agent.type('also ask about the cache');
    await until('the draft on screen', () => agent.inputText() === 'also ask about the cache');
    const { delivery, holds, first } = await heldDelivery(agent, MESSAGE);
    expect(first).toBe('held');
    expect(agent.inputText()).toBe('also ask about the cache'); // nothing typed into it
    expect(records(record)).toEqual([]);
    agent.type('\x15'); // Ctrl-U: the person clears the box
    expect(await delivery).toMatchObject({ ok: true });
    await until('the message received', () => records(record).length === 1);
    expect(records(record)).toEqual([MESSAGE]);
    expect(holds).toEqual([true, false]);
  });

  it("the person's own draft goes through unchanged when they send it; the message follows after that turn", async () => {
    const record = join(tempDir(), 'received.jsonl');
    const agent = sim(record);
    await until('the idle sim', () => agent.state === 'idle');
    agent.type('also ask about the cache');
    await until('the draft on screen', () => agent.inputText() === 'also ask about the cache');
    const { delivery, first } = await heldDelivery(agent, MESSAGE);
    expect(first).toBe('held');
    agent.type('\r');
    expect(await delivery).toMatchObject({ ok: true });
    await until('both messages received', () => records(record).length === 2);
    expect(records(record)).toEqual(['also ask about the cache', MESSAGE]);
  });

  it('a held delivery gives up when the relay pauses (the message is kept by the relay)', async () => {
    const agent = sim(join(tempDir(), 'received.jsonl'));
    await until('the idle sim', () => agent.state === 'idle');
    agent.type('draft');
    await until('the draft on screen', () => agent.inputText() === 'draft');
    const { delivery, first } = await heldDelivery(agent, MESSAGE);
    expect(first).toBe('held');
    agent.hold.withdraw();
    expect(await delivery).toMatchObject({ ok: false, detail: expect.stringContaining('paused') });
    expect(agent.inputText()).toBe('draft');
  });
});

describe('a draft typed into an agent whose input box cannot be read (generic profile: keys counted)', () => {
  const lineAgent = (record: string) => open([process.execPath, LINE_AGENT, record], 'generic');

  it('holds the delivery while the person has unsent keys, and delivers the message alone once they clear them', async () => {
    const record = join(tempDir(), 'received.jsonl');
    const agent = lineAgent(record);
    await until('the prompt', () => agent.state === 'idle');
    agent.type('half a thought');
    const { delivery, holds, first } = await heldDelivery(agent, 'hello from relevo');
    expect(first).toBe('held');
    expect(records(record)).toEqual([]);
    agent.type('\x15'); // Ctrl-U: the terminal's line discipline kills the line
    expect(await delivery).toMatchObject({ ok: true });
    await until('the message received', () => records(record).length === 1);
    expect(records(record)).toEqual(['hello from relevo']);
    expect(holds).toEqual([true, false]);
  });

  it('the person sending their line (Enter) ends the hold: their line, then the message', async () => {
    const record = join(tempDir(), 'received.jsonl');
    const agent = lineAgent(record);
    await until('the prompt', () => agent.state === 'idle');
    agent.type('half a thought');
    const { delivery, first } = await heldDelivery(agent, 'hello from relevo');
    expect(first).toBe('held');
    agent.type('\r');
    expect(await delivery).toMatchObject({ ok: true });
    await until('both lines received', () => records(record).length === 2);
    expect(records(record)).toEqual(['half a thought', 'hello from relevo']);
  });
});
