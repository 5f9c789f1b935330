import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentState } from '../../src/protocol/index.js';
import { type DeliveryTarget, deliver } from '../../src/pty/deliver.js';
import { DraftHold } from '../../src/pty/draft.js';
import { Emitter } from '../../src/pty/emitter.js';
import type { Profile } from '../../src/pty/profile.js';
import { FakePane, type Input, lineAgentProfile } from '../helpers/fake-pane.js';
import { until } from '../helpers/until.js';

/** An agent as delivery sees it, every part of it set by the test: state, input box, draft, turn. */
class FakeTarget implements DeliveryTarget {
  #state: AgentState = 'idle';
  inTurn = false;
  settled = false;
  readonly readsInput = true;
  readonly hold = new DraftHold();
  readonly #evaluated = new Emitter<void>();
  readonly onEvaluated = this.#evaluated.event;
  /** The text in the agent's input box. */
  box = '';
  /** The person's unsent words. */
  drafted = '';
  readonly began: string[] = [];
  cancelled = 0;
  /** What happened, in order: relevo's inputs and the agent's reactions. */
  readonly log: string[] = [];

  constructor(
    readonly pane: FakePane,
    readonly profile: Profile,
  ) {}

  get state(): AgentState | 'exited' {
    return this.pane.exited ? 'exited' : this.#state;
  }

  /** The agent's screen changes to `state`: delivery re-checks at once. */
  set(state: AgentState): void {
    this.#state = state;
    void this.pane.draw(state).then(() => this.#evaluated.fire());
  }

  /** The agent's program: how it reacts to each input. */
  reacts(program: (input: Input) => void): this {
    this.pane.program = (input) => {
      this.log.push('paste' in input ? 'paste' : input.keys === '\r' ? 'enter' : 'keys');
      program(input);
    };
    return this;
  }

  /** Shows `text` in the input box (the screen changes). */
  show(text: string): void {
    this.box = text;
    this.log.push(text === '' ? 'box emptied' : 'shown');
    void this.pane.draw(`\r${text}`).then(() => this.#evaluated.fire());
  }

  draft(): string {
    return this.drafted;
  }

  inputText(): string | null {
    return this.box;
  }

  /** The rows turns began at, for messages taken before relevo looked. */
  readonly takenAt: number[] = [];

  beginTurn(sent: string, takenAt?: number): void {
    this.inTurn = true;
    this.began.push(sent);
    if (takenAt !== undefined) this.takenAt.push(takenAt);
  }

  cancelTurn(): void {
    this.inTurn = false;
    this.cancelled++;
  }

  evaluated(): void {
    this.#evaluated.fire();
  }
}

const targets: FakeTarget[] = [];
function target(): FakeTarget {
  const t = new FakeTarget(new FakePane(), lineAgentProfile({ confirm_ms: 150 }));
  targets.push(t);
  return t;
}
afterEach(() => {
  for (const t of targets.splice(0)) t.pane.dispose();
});

/** A well-behaved agent: the paste shows at once, Enter submits (busy, box empty). */
const submits = (t: FakeTarget) => (input: Input) => {
  if ('paste' in input) t.show(input.paste);
  else if (input.keys === '\r') {
    t.box = '';
    t.set('busy');
  }
};

describe('deliver: typing a message into an agent', () => {
  it('waits until the agent is idle and quiet before typing anything, then pastes once and presses Enter once', async () => {
    const t = target();
    t.reacts(submits(t));
    t.set('busy');
    const result = deliver(t, 'hello builder', 5000);
    await sleep(200);
    expect(t.pane.inputs).toEqual([]);
    expect(t.began).toEqual([]);
    t.set('idle');
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(t.pane.inputs).toEqual([{ paste: 'hello builder' }, { keys: '\r' }]);
    expect(t.began).toEqual(['hello builder']);
  });

  it('types into an agent whose watched turn ended once its screen kept still for evidence_quiet_ms; one relevo knows nothing of waits the whole quiet window', async () => {
    const profile = lineAgentProfile({ confirm_ms: 150 }, { quiet_ms: 60_000, evidence_quiet_ms: 20 });
    const [fresh, settled] = [new FakeTarget(new FakePane(), profile), new FakeTarget(new FakePane(), profile)];
    targets.push(fresh, settled);
    settled.settled = true;
    for (const t of [fresh, settled]) {
      t.reacts(submits(t));
      t.set('idle');
    }
    expect(await deliver(fresh, 'x', 300)).toEqual({ ok: false, detail: 'agent not ready: timed out after 300 ms (agent idle)' });
    expect(fresh.pane.inputs).toEqual([]);
    expect(await deliver(settled, 'x', 300)).toEqual({ ok: true, attempts: 1 });
    expect(settled.pane.inputs).toEqual([{ paste: 'x' }, { keys: '\r' }]);
  });

  it('gives up with the reason when the agent never gets ready', async () => {
    const t = target();
    t.set('busy');
    expect(await deliver(t, 'x', 150)).toEqual({ ok: false, detail: 'agent not ready: timed out after 150 ms (agent busy)' });
    expect(t.pane.inputs).toEqual([]);
  });

  it('presses Enter only once the paste shows in the input box (an Enter before it would be dropped)', async () => {
    const t = target();
    t.reacts((input) => {
      if ('paste' in input) setTimeout(() => t.show(input.paste), 400);
      else submits(t)(input);
    });
    expect(await deliver(t, 'slow paste', 5000)).toEqual({ ok: true, attempts: 1 });
    expect(t.log).toEqual(['paste', 'shown', 'enter']);
  });

  it('presses Enter again while the text stays in the box, and reports the attempts', async () => {
    const t = target();
    let enters = 0;
    t.reacts((input) => {
      if ('paste' in input) return t.show(input.paste);
      // The first Enter is lost: the box keeps the text, the agent stays idle.
      if (++enters === 1) return void t.pane.draw('.');
      submits(t)(input);
    });
    expect(await deliver(t, 'retry me', 5000)).toEqual({ ok: true, attempts: 2 });
    expect(t.pane.inputs.filter((i) => 'keys' in i)).toEqual([{ keys: '\r' }, { keys: '\r' }]);
  });

  it("stops after the profile's retries when Enter never submits, and the turn it began is cancelled", async () => {
    const t = target();
    t.reacts((input) => {
      if ('paste' in input) t.show(input.paste);
    });
    const result = await deliver(t, 'stuck', 5000);
    expect(result).toEqual({ ok: false, detail: 'not submitted after 3 Enter presses (input box: "stuck")' });
    expect(t.pane.inputs.filter((i) => 'keys' in i)).toHaveLength(3);
    expect(t.cancelled).toBe(1);
    expect(t.inTurn).toBe(false);
  });

  it('the agent exiting while the message is typed ends the delivery: no Enter, the reason says so', async () => {
    const t = target();
    t.reacts((input) => {
      if ('paste' in input) t.pane.exit(1);
    });
    expect(await deliver(t, 'bye', 5000)).toEqual({ ok: false, detail: 'the agent exited while the message was typed' });
    expect(t.pane.inputs).toEqual([{ paste: 'bye' }]);
    expect(t.cancelled).toBe(1);
  });

  it('the agent exiting while delivery waits for it to be ready: nothing is typed', async () => {
    const t = target();
    t.set('busy');
    const result = deliver(t, 'never', 5000);
    await sleep(100);
    t.pane.exit(1);
    expect(await result).toEqual({ ok: false, detail: 'agent not ready: the agent exited' });
    expect(t.pane.inputs).toEqual([]);
  });

  it("a person's draft holds the delivery, with no timeout, until it is cleared; the hold is announced and released", async () => {
    const t = target();
    t.reacts(submits(t));
    t.drafted = 'my own words';
    const holds: boolean[] = [];
    t.hold.onChange((on) => holds.push(on));
    const result = deliver(t, 'after the draft', 100);
    await sleep(400);
    expect(holds).toEqual([true]);
    expect(t.pane.inputs).toEqual([]);
    t.drafted = '';
    t.evaluated();
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(holds).toEqual([true, false]);
    expect(t.pane.pastes).toEqual(['after the draft']);
  });

  it('a held delivery gives up when the relay pauses (the hold is withdrawn): nothing is typed over the draft', async () => {
    const t = target();
    t.reacts(submits(t));
    t.drafted = 'still typing';
    const holds: boolean[] = [];
    t.hold.onChange((on) => holds.push(on));
    const result = deliver(t, 'not now', 5000);
    await sleep(100);
    t.hold.withdraw();
    expect(await result).toEqual({ ok: false, detail: "agent not ready: the relay paused while the person's draft held the delivery" });
    expect(holds).toEqual([true, false]);
    expect(t.pane.inputs).toEqual([]);
  });
});

/** A pane on a host whose link the test drops: a send it drops never arrives, a late one arrives but ssh says it failed. */
class LinkPane extends FakePane {
  unreachable: string | null = null;
  /** What the link does to the next send. */
  failNext: 'drop' | 'late' | null = null;
  #lost = 0;

  override write(data: string): void {
    this.#through(() => super.write(data));
  }

  override paste(text: string): void {
    this.#through(() => super.paste(text));
  }

  sent(): Promise<number> {
    return Promise.resolve(this.#lost);
  }

  /** The host answers again: a fresh look at its screen. */
  back(): void {
    this.unreachable = null;
    void this.draw('');
  }

  #through(send: () => void): void {
    const how = this.failNext;
    this.failNext = null;
    if (how !== 'drop') send();
    if (how === null) return;
    this.#lost++;
    this.unreachable = 'ssh: connect to host 10.1.1.2 port 22: Connection timed out';
    void this.draw('');
  }
}

describe('deliver over a link that drops', () => {
  const linked = () => {
    const t = new FakeTarget(new LinkPane(), lineAgentProfile({ confirm_ms: 150 }));
    targets.push(t);
    t.reacts(submits(t));
    t.set('idle');
    return { t, pane: t.pane as LinkPane };
  };

  it('a paste the link dropped is typed again once the host answers and its box shows nothing: it arrives once', async () => {
    const { t, pane } = linked();
    pane.failNext = 'drop';
    const result = deliver(t, 'round 2', 5000);
    await until('the paste lost', () => pane.unreachable !== null);
    await sleep(300);
    expect(pane.inputs).toEqual([]);
    pane.back();
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(pane.inputs).toEqual([{ paste: 'round 2' }, { keys: '\r' }]);
  });

  it('a paste that arrived though ssh said it failed is not typed again (its box shows it)', async () => {
    const { t, pane } = linked();
    pane.failNext = 'late';
    const result = deliver(t, 'round 2', 5000);
    await until('the paste arrived, its answer lost', () => pane.unreachable !== null);
    await sleep(300);
    expect(pane.inputs).toEqual([{ paste: 'round 2' }]);
    pane.back();
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(pane.inputs).toEqual([{ paste: 'round 2' }, { keys: '\r' }]);
  });

  it('an Enter the link dropped is pressed again once the host answers, and is not counted', async () => {
    const { t, pane } = linked();
    t.reacts((input) => {
      submits(t)(input);
      if ('paste' in input) pane.failNext = 'drop';
    });
    const result = deliver(t, 'round 2', 5000);
    await until('the Enter lost', () => pane.unreachable !== null);
    await sleep(400);
    expect(pane.inputs).toEqual([{ paste: 'round 2' }]);
    pane.back();
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(pane.inputs).toEqual([{ paste: 'round 2' }, { keys: '\r' }]);
  });

  it('waits for a host out of reach with no timeout running, then types', async () => {
    const { t, pane } = linked();
    pane.unreachable = 'ssh: connect to host 10.1.1.2 port 22: No route to host';
    const result = deliver(t, 'round 2', 150);
    await sleep(500);
    expect(pane.inputs).toEqual([]);
    pane.back();
    expect(await result).toEqual({ ok: true, attempts: 1 });
    expect(pane.inputs).toEqual([{ paste: 'round 2' }, { keys: '\r' }]);
  });
});

describe('deliver again: a message a relevo that stopped had typed and not sent', () => {
  const message = '[relevo ronda 1 · de planner]\nStep 1 of 3\n</handoff>';

  it('its text left in the input box, or a paste the box folds: only Enter is pressed, once', async () => {
    for (const [shown, profile] of [
      ['[relevo ronda 1 · de planner]', lineAgentProfile({ confirm_ms: 150 })],
      ['[Pasted text #1 +2 lines]', lineAgentProfile({ confirm_ms: 150, folded_paste: '^\\[Pasted text #\\d+ \\+\\d+ lines\\]$' })],
    ] as const) {
      const t = new FakeTarget(new FakePane(), profile);
      targets.push(t);
      t.reacts(submits(t));
      t.set('idle');
      t.show(shown);
      t.drafted = shown;
      expect(await deliver(t, message, 5000, undefined, true)).toEqual({ ok: true, attempts: 1 });
      expect(t.pane.inputs).toEqual([{ keys: '\r' }]);
      expect(t.began).toEqual([message]);
    }
  });

  it('taken before relevo stopped (it shows above the input box): nothing is typed, its turn is watched from its row', async () => {
    const t = target();
    t.reacts(submits(t));
    t.set('busy');
    await t.pane.draw('\r\n» [relevo ronda 1 · de planner]\r\n  Step 1 of 3\r\n  </handoff>\r\nWorking on step 1\r\n\r\n>');
    expect(await deliver(t, message, 5000, undefined, true)).toEqual({ ok: true, attempts: 1 });
    expect(t.pane.inputs).toEqual([]);
    expect(t.began).toEqual([message]);
    expect(t.takenAt).toEqual([1]);
  });

  it('typed as usual when what shows is another message under the same header, or on a first delivery', async () => {
    for (const [shown, again] of [
      ['» [relevo ronda 1 · de planner]\r\n  Step 1 of 2 for another goal\r\n  </handoff>', true],
      ['» [relevo ronda 1 · de planner]\r\n  Step 1 of 3\r\n  </handoff>', false],
    ] as const) {
      const t = target();
      t.reacts(submits(t));
      await t.pane.draw(`${shown}\r\nDone.\r\n\r\n>`);
      t.set('idle');
      expect(await deliver(t, message, 5000, undefined, again)).toEqual({ ok: true, attempts: 1 });
      expect(t.pane.inputs).toEqual([{ paste: message }, { keys: '\r' }]);
      expect(t.takenAt).toEqual([]);
    }
  });

  it('a draft that is not its text holds the delivery as a person’s would; a first delivery never takes it for its own', async () => {
    for (const [drafted, again] of [
      ['fix the tests first', true],
      ['[relevo ronda 1 · de planner]', false],
    ] as const) {
      const t = target();
      t.reacts(submits(t));
      t.set('idle');
      t.show(drafted);
      t.drafted = drafted;
      const held = new Promise<boolean>((resolve) => t.hold.onChange(resolve));
      const result = deliver(t, message, 5000, undefined, again);
      expect(await held).toBe(true);
      expect(t.pane.inputs).toEqual([]);
      t.hold.withdraw();
      expect(await result).toEqual({ ok: false, detail: "agent not ready: the relay paused while the person's draft held the delivery" });
    }
  });
});
