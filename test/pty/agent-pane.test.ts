import { afterEach, describe, expect, it } from 'vitest';
import { AgentPane, type TurnEnd } from '../../src/pty/agent.js';
import { compileProfile } from '../../src/pty/profile.js';
import { FakePane, lineAgent, lineAgentProfile } from '../helpers/fake-pane.js';
import { until } from '../helpers/until.js';

const agents: AgentPane[] = [];
function agentIn(pane: FakePane, profile = lineAgentProfile()): AgentPane {
  const agent = new AgentPane('builder', pane, profile);
  agents.push(agent);
  return agent;
}
afterEach(() => {
  for (const a of agents.splice(0)) {
    a.dispose();
    a.pane.dispose();
  }
});

/** The next turn end the agent reports. */
const nextTurn = (agent: AgentPane) => new Promise<TurnEnd>((resolve) => agent.onTurnEnded(resolve));

describe('AgentPane over a fake pane', () => {
  // A quiet window no test waits out: only the agent's own word can end these turns.
  const saysDone = { id: 'done-line', state: 'idle', priority: 60, region: 'bottom', lines: 1, contains: '[done]', ends_turn: true };
  const patient = () => lineAgentProfile({}, { quiet_ms: 60_000, evidence_quiet_ms: 0, rules: [saysDone] });
  /** An agent idle at its prompt, given a turn, now busy with it. */
  async function busyTurn(profile = patient()) {
    const pane = new FakePane();
    const agent = agentIn(pane, profile);
    await pane.draw('>');
    await until('idle', () => agent.state === 'idle');
    agent.beginTurn('do it');
    const turn = nextTurn(agent);
    await pane.draw('\r\nworking');
    await until('busy', () => agent.state === 'busy');
    return { pane, agent, turn };
  }

  it("ends the turn on the agent's hook report once the screen is idle, without the whole quiet window", async () => {
    const { pane, agent, turn } = await busyTurn();
    expect(agent.settled).toBe(false);
    agent.turnReported(); // the report can come before the screen is idle: it is kept for this turn
    await pane.draw('\r\x1b[Kdone it\r\n> ');
    expect((await turn).reply).toContain('done it');
    expect([agent.inTurn, agent.settled]).toEqual([false, true]); // delivery then needs only evidence_quiet_ms of stillness
    agent.beginTurn('next');
    expect(agent.settled).toBe(false);
  });

  it("ends the turn at once on a report with the reply's text when the profile's hook ends_turn, the screen still busy", async () => {
    const data = patient().data;
    const final = compileProfile({ ...data, hook: { kind: 'claude-stop', grace_ms: 0, async: true, ends_turn: true } });
    const { agent, turn } = await busyTurn(final);
    agent.turnReported(false); // no text in it: the screen must still say idle
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(agent.inTurn).toBe(true);
    agent.turnReported(true);
    await turn;
    expect([agent.inTurn, agent.state]).toEqual([false, 'busy']);
  });

  /** `patient()` with a CLI that needs at least 20×5. */
  const small = (data = patient().data) => compileProfile({ ...data, screen: { ...data.screen, min_cols: 20, min_rows: 5 } });

  it('an agent read from its screen alone keeps its size while its turn runs, and takes the new one when the turn ends', async () => {
    const { pane, agent, turn } = await busyTurn(small());
    const sizes: [number, number][] = [];
    pane.resize = (cols: number, rows: number) => void sizes.push([cols, rows]);
    const resized: number[] = [];
    agent.onResized(() => resized.push(sizes.length));
    agent.resize(50, 10);
    agent.resize(60, 12);
    expect(sizes).toEqual([]);
    agent.turnReported();
    await pane.draw('\r\x1b[Kdone it\r\n> ');
    expect((await turn).reply).toContain('done it');
    expect([sizes, resized]).toEqual([[[60, 12]], [1]]);
    // Between turns a resize is the agent's at once, never below its CLI's minimum.
    agent.resize(70, 14);
    expect(sizes.at(-1)).toEqual([70, 14]);
    agent.resize(10, 3);
    expect(sizes.at(-1)).toEqual([20, 5]);
  });

  it('an agent whose replies come from its hook or transcript follows its pane during a turn too', async () => {
    const hooked = small({ ...patient().data, hook: { kind: 'claude-stop', grace_ms: 0, async: false, ends_turn: false } });
    const { pane, agent } = await busyTurn(hooked);
    const sizes: [number, number][] = [];
    pane.resize = (cols: number, rows: number) => void sizes.push([cols, rows]);
    agent.resize(50, 10);
    expect(sizes).toEqual([[50, 10]]);
  });

  it('ends the turn when a rule marked ends_turn says idle (OSC 7501 done), and not on a plain idle screen', async () => {
    const { pane, agent, turn } = await busyTurn();
    await pane.draw('\r\x1b[K> ');
    await until('idle', () => agent.state === 'idle' && agent.detection.rule === 'input-line');
    expect(agent.inTurn).toBe(true); // idle, but the quiet window is a minute
    await pane.draw('\r\n[done]');
    await turn;
    expect(agent.detection.rule).toBe('done-line');
    expect(agent.inTurn).toBe(false);
  });

  it('reads its state from the screen through the profile, and the input box', async () => {
    const pane = new FakePane();
    const agent = agentIn(pane);
    await pane.draw('>');
    await until('idle', () => agent.state === 'idle');
    expect(agent.detection.rule).toBe('input-line');
    expect(agent.inputText()).toBe('');
    await pane.draw('\r\x1b[K> half a thought');
    await until('the box is read', () => agent.inputText() === 'half a thought');
    expect(agent.draft()).toBe('half a thought');
    await pane.draw('\r\x1b[Kworking');
    await until('busy', () => agent.state === 'busy');
    expect(agent.detection.rule).toBe('working');
  });

  it('delivers a message and reports the turn it starts: what was sent, then the reply without the echo or the input line', async () => {
    const pane = lineAgent(new FakePane(), (sent) => `Got ${sent.split('\n').length} lines.\n<handoff>\nreport\n</handoff>`);
    const agent = agentIn(pane);
    const began: (string | null)[] = [];
    agent.onTurnBegan(({ sent }) => began.push(sent));
    const turn = nextTurn(agent);
    expect(await agent.deliver('[relevo round 1 · from planner]\nbuild it', 5000)).toEqual({ ok: true, attempts: 1 });
    expect(began).toEqual(['[relevo round 1 · from planner]\nbuild it']);
    expect(await turn).toEqual({
      reply: 'Got 2 lines.\n<handoff>\nreport\n</handoff>',
      source: 'screen',
      interrupted: false,
      lossy: false,
    });
    expect(agent.inTurn).toBe(false);
  });

  it('watches a turn the person starts by typing into the agent', async () => {
    const pane = lineAgent(new FakePane(), () => 'answered by hand');
    const agent = agentIn(pane);
    await until('idle', () => agent.state === 'idle');
    const began: (string | null)[] = [];
    agent.onTurnBegan(({ sent }) => began.push(sent));
    const turn = nextTurn(agent);
    agent.typePaste('a question');
    agent.type('\r');
    expect((await turn).reply).toBe('answered by hand');
    expect(began).toEqual([null]);
  });

  it('reports a permission prompt in a turn as blocked (with the rule), then unblocked once it is answered', async () => {
    const pane = new FakePane();
    const agent = agentIn(pane);
    const events: string[] = [];
    agent.onBlocked((rule) => events.push(`blocked:${rule}`));
    agent.onUnblocked(() => events.push('unblocked'));
    await pane.draw('>');
    await until('idle', () => agent.state === 'idle');
    agent.beginTurn('do it');
    await pane.draw('\r\nrun rm -rf build? allow? [y/n]');
    await until('blocked', () => events.length === 1);
    await pane.draw('\r\nworking');
    await until('unblocked', () => events.length === 2);
    expect(events).toEqual(['blocked:asks-permission', 'unblocked']);
  });

  it('an exited program makes the agent exited, and its exit is heard', async () => {
    const pane = new FakePane();
    const agent = agentIn(pane);
    const states: string[] = [];
    const exits: number[] = [];
    agent.onState((s) => states.push(s));
    agent.onExit(({ exitCode }) => exits.push(exitCode));
    pane.exit(3);
    expect(agent.state).toBe('exited');
    expect(states.at(-1)).toBe('exited');
    expect(exits).toEqual([3]);
  });
});
