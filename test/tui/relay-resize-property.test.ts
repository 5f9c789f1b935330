/**
 * Issue 50: a person resizing their terminal while a relay runs never changes what is relayed.
 * For each seed, a whole relay runs to done — two built simulators in real pseudo-terminals under a
 * real RelayRunner — with relevo's compositor painting into a person's terminal and sizing the
 * agents' PTYs to its panes, while storms of resizes (from 30×10 to 250×70, the small sizes often)
 * come at random moments of the turns. Then every checkpoint is the handoff its agent printed, byte
 * for byte and in order, the done summary is the one printed, nothing is delivered twice, and each
 * agent received the round header and the body. RELEVO_RESIZE_SEEDS sets how many seeds (a soak).
 * The agents are the built simulator (run `npm run build` first).
 */
import { describe, it } from 'vitest';
import { CheckpointStore, sha256 } from '../../src/app/store/checkpoints.js';
import { formatHeader, type JournalLine, peerOf, ROLES, type Role } from '../../src/protocol/index.js';
import { firstLayout } from '../../src/tui/view/compositor.js';
import { rng } from '../helpers/random-output.js';
import { closeTui, openTui, type Tui } from '../helpers/screen-oracle.js';
import { simRelay } from '../helpers/sim-relay.js';
import { tuiState } from '../helpers/tui-state.js';
import { undoWhenFinished } from '../helpers/undo.js';
import { sleep, until } from '../helpers/until.js';

const SEEDS = Array.from({ length: Number(process.env.RELEVO_RESIZE_SEEDS ?? 6) }, (_, i) => i + 1);
const GOAL = 'Add pagination to /users';
/** Where an agent's pane is only a few rows high: the sizes issue 50 was seen at. */
const SMALL: readonly (readonly [number, number])[] = [
  [30, 10],
  [120, 10],
  [40, 12],
];

/** Two relays at a time: each is two agents and a runner on CI's two cores. */
const RELAYS_AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (running >= RELAYS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  return () => {
    running -= 1;
    waiting.shift()?.();
  };
}

type Relay = Awaited<ReturnType<typeof simRelay>>;

/** A size for the person's terminal: one of the small ones every other time, else anything from 30×10 to 250×70. */
function size(r: (n: number) => number): readonly [number, number] {
  return r(2) === 0 ? SMALL[r(SMALL.length)]! : [30 + r(221), 10 + r(61)];
}

/**
 * A person resizing their terminal until stopped: at a random moment of the relay (now, while an
 * agent thinks, while it prints its reply, right after a turn ended, while a delivery is typed), a
 * burst of resizes a few ms apart (or far enough apart that each is laid out), the focus moved now
 * and then (a narrow terminal shows the focused pane alone, and sizes only its agent's PTY).
 */
class Storm {
  /** The sizes walked and the focus moves, in order, for the report. */
  readonly walked: string[] = [];
  #stopped = false;
  readonly #done: Promise<void>;

  constructor(
    private readonly r: (n: number) => number,
    private readonly tui: Tui,
    private readonly relay: Relay,
    private readonly thinkMs: Readonly<Record<Role, number>>,
  ) {
    this.#done = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#done;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      await this.#moment();
      if (this.#stopped) return;
      await this.#burst();
    }
  }

  /** Waits for `what` (or the storm's end), polling often enough to catch a short moment. */
  #until(what: string, check: () => boolean): Promise<void> {
    return until(what, () => this.#stopped || check(), 600_000, { everyMs: 5 });
  }

  #count(type: JournalLine['type']): number {
    return this.relay.lines.filter((l) => l.type === type).length;
  }

  #busy(): Role | undefined {
    return ROLES.find((role) => this.relay.runner.agents[role].state === 'busy');
  }

  async #moment(): Promise<void> {
    const { r } = this;
    switch (r(5)) {
      case 0:
        this.walked.push('(now)');
        await sleep(r(300));
        return;
      case 1:
        this.walked.push('(thinking)');
        await this.#until('an agent thinking', () => this.#busy() !== undefined);
        await sleep(r(100));
        return;
      case 2: {
        this.walked.push('(printing)');
        await this.#until('an agent thinking', () => this.#busy() !== undefined);
        const role = this.#busy();
        await sleep((role === undefined ? 0 : this.thinkMs[role]) + r(120));
        return;
      }
      case 3: {
        this.walked.push('(turn ended)');
        const ended = this.#count('turn_ended');
        await this.#until('a turn ended', () => this.#count('turn_ended') > ended);
        await sleep(r(150));
        return;
      }
      default: {
        this.walked.push('(typing)');
        const offered = this.#count('offered');
        await this.#until('a delivery offered', () => this.#count('offered') > offered);
        await sleep(r(40));
      }
    }
  }

  async #burst(): Promise<void> {
    const { r, tui } = this;
    const apart = r(3) === 0;
    for (let n = 1 + r(5); n > 0 && !this.#stopped; n--) {
      if (r(3) === 0) {
        const focus = peerOf(tui.store.state.focus);
        this.walked.push(`focus ${focus}`);
        tui.store.update({ focus });
      }
      const [cols, rows] = size(r);
      this.walked.push(`${cols}x${rows}`);
      await tui.person.resize(cols, rows);
      await sleep(apart ? 50 + r(100) : 1 + r(15));
    }
  }
}

/** A line diff of what was printed (`-`) and what relevo kept (`+`), unchanged lines shown only next to a change (else `…`). */
function shortDiff(printed: string, kept: string): string {
  const a = printed.split('\n');
  const b = kept.split('\n');
  // The longest common subsequence of lines, from the ends: common[i][j] for a[i…] and b[j…].
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const lines: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || common[i]![j + 1]! >= common[i + 1]![j]!)) lines.push(`+ ${b[j++]}`);
    else lines.push(`- ${a[i++]}`);
  }
  const changed = (k: number) => lines[k] !== undefined && !lines[k]!.startsWith('  ');
  const shown: string[] = [];
  lines.forEach((line, k) => {
    if (changed(k) || changed(k - 1) || changed(k + 1)) shown.push(line);
    else if (shown.at(-1) !== '  …') shown.push('  …');
  });
  return shown.join('\n');
}

/** Where two lists of texts first differ (`what` names an entry), with a short diff; null when equal. */
function firstDifference(what: string, printed: readonly string[], kept: readonly string[]): string | null {
  for (let i = 0; i < Math.max(printed.length, kept.length); i++) {
    const [p, k] = [printed[i], kept[i]];
    if (p === k) continue;
    if (p === undefined) return `${what} ${i + 1}: kept but never printed:\n${k}`;
    if (k === undefined) return `${what} ${i + 1}: printed but never kept:\n${p}`;
    return `${what} ${i + 1} (- printed, + kept):\n${shortDiff(p, k)}`;
  }
  return null;
}

/** What went wrong in a relay that ran to its end: one entry per check that failed. */
function problems(relay: Relay): string[] {
  const found: string[] = [];
  const { runner, lines } = relay;
  const checkpoints = new CheckpointStore(relay.dir, relay.runId).readAll();
  for (const role of ROLES) {
    const printed = relay.printed(role).handoffs;
    const lane = checkpoints.filter((c) => c.checkpoint.from === role).sort((x, y) => x.checkpoint.seq - y.checkpoint.seq);
    const files = firstDifference(
      `the ${role}'s checkpoint`,
      printed,
      lane.map((c) => c.body),
    );
    if (files !== null) found.push(files);
    const journaled = lines.flatMap((l) => (l.type === 'checkpoint' && l.lane === role ? [l.sha256] : []));
    if (files === null && JSON.stringify(journaled) !== JSON.stringify(printed.map(sha256)))
      found.push(`the ${role}'s checkpoint lines journal sha256s ${journaled.join(', ')}, not those of the bodies printed`);
    // Each handoff reaches the peer as its round header, then its body.
    const typed = relay.received(peerOf(role)).slice(role === 'builder' ? 1 : 0);
    const received = firstDifference(
      `the ${peerOf(role)}'s message`,
      printed.map((body, i) => `${formatHeader(i + 1, role)}\n${body}`),
      typed,
    );
    if (received !== null) found.push(received);
  }
  const goal = relay.received('planner')[0];
  if (goal !== `Goal: ${GOAL}`) found.push(`the planner's first message: ${JSON.stringify(goal)}`);
  const done = lines.flatMap((l) => (l.type === 'done' ? [l.summary] : []));
  const summary = relay.printed('planner').done;
  if (JSON.stringify(done) !== JSON.stringify(summary))
    found.push(`the done summary (- printed, + journaled):\n${shortDiff(summary.join('\n'), done.join('\n'))}`);
  if (runner.state.summary !== (summary[0] ?? null)) found.push(`the relay's summary: ${JSON.stringify(runner.state.summary)}`);
  const delivered = lines.flatMap((l) => (l.type === 'delivered' ? [`${l.kind} ${l.from}>${l.to} round ${l.round}`] : []));
  const twice = delivered.filter((d, i) => delivered.indexOf(d) !== i);
  if (twice.length > 0) found.push(`delivered twice: ${twice.join(', ')}`);
  return found;
}

describe.concurrent('resize storms through a relay (issue 50)', () => {
  it.for(SEEDS)(
    'seed %i: every checkpoint, delivery and the done summary are exactly what the agents printed',
    { timeout: 300_000 },
    async (seed, { expect, onTestFinished }) => {
      const release = await slot();
      const undo = undoWhenFinished(onTestFinished);
      undo.add(release);
      const r = rng(seed);
      const [cols, rows] = size(r);
      const thinkMs = { planner: 60 + r(141), builder: 60 + r(141) };
      const steps = 2 + r(3);
      const tui = openTui(cols, rows, tuiState(), null);
      undo.add(() => closeTui(tui));
      const inner = firstLayout(cols, rows).panes.planner!.inner;
      const relay = await simRelay(
        undo,
        'relevo-resize-',
        { planner: [String(thinkMs.planner), '--steps', String(steps)], builder: [String(thinkMs.builder)] },
        { cols: inner.width, rows: inner.height },
      );
      const { runner } = relay;
      // As the TUI wires a relay: the compositor sizes the agents' PTYs to its panes and paints their screens.
      tui.compositor.attach(runner.agents);
      const onResize = () => tui.compositor.resized();
      tui.person.on('resize', onResize);
      undo.add(() => tui.person.off('resize', onResize));
      for (const role of ROLES) {
        const painting = runner.agents[role].pane.onUpdate(() => tui.compositor.schedule(role));
        undo.add(() => painting.dispose());
      }
      const storm = new Storm(r, tui, relay, thinkMs);
      undo.add(() => storm.stop());
      runner.start(GOAL);
      let ended: string | null = null;
      try {
        await until('the relay done', () => runner.state.phase === 'done' || runner.state.phase === 'paused', 240_000);
      } catch (error) {
        ended = (error as Error).message;
      }
      await storm.stop();
      if (runner.state.phase === 'paused') ended = `the relay paused: ${JSON.stringify(runner.state.pause)}`;
      const found = ended === null ? problems(relay) : [ended];
      if (found.length > 0)
        expect.fail(
          [
            `seed ${seed}: ${steps} steps, thinking ${thinkMs.planner}/${thinkMs.builder} ms, starting at ${cols}x${rows}`,
            `sizes walked (each storm's moment in brackets): ${storm.walked.join(' ')}`,
            ...found,
          ].join('\n'),
        );
    },
  );
});
