import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RelayRunner } from '../../src/app/run/runner.js';
import type { Phase } from '../../src/protocol/index.js';
import { commandRunner } from '../../src/tui/actions/commands.js';
import { goalPromptKeys } from '../../src/tui/actions/goal-prompt.js';
import { type InputDeps, inputRouter } from '../../src/tui/actions/input-router.js';
import { type Command, KeyRouter } from '../../src/tui/input/keyboard.js';
import { emptyLine } from '../../src/tui/input/line-editor.js';
import { GoalHistory } from '../../src/tui/state/goal-history.js';
import { Store, type TuiState } from '../../src/tui/state/store.js';
import type { Compositor } from '../../src/tui/view/compositor.js';
import { stub } from '../helpers/stub.js';
import { tuiState as stateWith } from '../helpers/tui-state.js';

const historyFile = () => join(mkdtempSync(join(tmpdir(), 'relevo-goals-')), 'goal-history.json');

/** Just what the prompt and the router use of a runner: its phase, what it was told, the focused agent's keys and screen. */
function fakeRunner(phase: 'ready' | 'running' | 'done') {
  const told: unknown[] = [];
  const typed: string[] = [];
  let scrolled = 0;
  const screen = {
    scrollView: (n: number) => (scrolled += n),
    scrollViewToBottom: () => (scrolled = 0),
    get scrolledBack() {
      return Math.abs(scrolled);
    },
  };
  const agent = { type: (d: string) => typed.push(d), typePaste: (t: string) => typed.push(`paste:${t}`), pane: { screen } };
  const runner = stub<RelayRunner>({
    state: {
      phase,
      goal: phase === 'ready' ? null : 'G',
      pending: null,
      turn: phase === 'running' ? 'builder' : null,
      notes: { planner: null, builder: null },
    },
    agents: { planner: agent, builder: agent },
    dispatch: (event: unknown) => told.push(event),
    start: (goal: string) => told.push({ start: goal }),
    note: async (to: string, text: string) => void told.push({ note: to, text }),
  });
  return { runner, told, typed, screen };
}

const tuiState = (patch: Partial<TuiState> = {}) => new Store(stateWith(patch));

describe('goal history', () => {
  it('keeps each goal once, newest last, in the state directory, for the next run', () => {
    const file = historyFile();
    const history = new GoalHistory(file);
    for (const goal of ['a', 'b', 'a']) history.add(goal);
    expect(new GoalHistory(file).goals).toEqual(['b', 'a']);
    for (let i = 0; i < 120; i++) history.add(`g${i}`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(100);
  });

  it('starts empty from a file that is not a list of goals', () => {
    const file = historyFile();
    writeFileSync(file, '{not json');
    expect(new GoalHistory(file).goals).toEqual([]);
    writeFileSync(file, '["ok", 3, null]');
    expect(new GoalHistory(file).goals).toEqual(['ok']);
  });
});

/** The goal prompt's keys over `runner`, with its toasts collected. */
function promptOver(runner: RelayRunner, store: Store, nextGoal: (goal: string) => boolean = () => true) {
  const toasts: string[] = [];
  const keys = goalPromptKeys({ store, runner, history: new GoalHistory(historyFile()), toast: (t) => toasts.push(t), nextGoal });
  return { keys, toasts };
}

describe('the goal prompt', () => {
  it('starts the run with the goal typed, and remembers it', () => {
    const { runner, told } = fakeRunner('ready');
    const store = tuiState({ prompt: emptyLine });
    const history = new GoalHistory(historyFile());
    goalPromptKeys({ store, runner, history, toast: () => {}, nextGoal: () => true })('Add pagination\r');
    expect(told).toEqual([{ start: 'Add pagination' }]);
    expect(store.state.prompt).toBeNull();
    expect(history.goals).toEqual(['Add pagination']);
  });

  it('after done, a goal starts the next run with the same agents (not refused as the run already having one)', () => {
    const { runner, told } = fakeRunner('done');
    const store = tuiState({ prompt: emptyLine });
    const next: string[] = [];
    const { keys, toasts } = promptOver(runner, store, (g) => next.push(g) > 0);
    keys('/relevo goal Now the docs\r');
    expect(next).toEqual(['Now the docs']);
    expect(told).toEqual([]);
    expect(toasts).toEqual([]);
  });

  it('queues a note for the agent the next handoff is for, keeps a refused note on the line, and says when nothing is to cancel', async () => {
    const { runner, told } = fakeRunner('running');
    const store = tuiState({ prompt: emptyLine });
    const { keys, toasts } = promptOver(runner, store);
    keys('/relevo note mind the tests\r');
    await new Promise((r) => setImmediate(r));
    // The builder works: the next handoff goes to the planner.
    expect(told).toEqual([{ note: 'planner', text: 'mind the tests' }]);
    expect(toasts[0]).toMatch(/^note for the planner queued/);
    store.update({ prompt: emptyLine });
    keys('/relevo note cancel builder\r');
    expect(store.state.promptError).toBe('no note is waiting for the builder');
    expect(store.state.prompt?.text).toBe('/relevo note cancel builder');
    const done = fakeRunner('done');
    const keysDone = promptOver(done.runner, store).keys;
    store.update({ prompt: emptyLine, promptError: null });
    keysDone('/relevo note builder hi\r');
    expect(store.state.promptError).toMatch(/the run is done/);
    expect(done.told).toEqual([]);
  });

  it('keeps a goal given while the run has one on the line, says why, and remembers it for ↑', () => {
    const { runner, told } = fakeRunner('running');
    const store = tuiState({ prompt: emptyLine });
    const history = new GoalHistory(historyFile());
    const toasts: string[] = [];
    const keys = goalPromptKeys({ store, runner, history, toast: (t) => toasts.push(t), nextGoal: () => true });
    keys('Also write the docs\r');
    expect(store.state.prompt?.text).toBe('Also write the docs');
    expect(store.state.promptError).toBe('this run already has its goal (G): a next goal can be given after done');
    expect(told).toEqual([]);
    expect(toasts).toEqual([]);
    keys('\x1b');
    store.update({ prompt: emptyLine });
    keys('\x1b[A');
    expect(store.state.prompt?.text).toBe('Also write the docs');
  });

  it('says why a line is refused until the next key; /relevo pause steers the relay; Esc with no goal yet says how to come back', () => {
    const { runner, told } = fakeRunner('ready');
    const store = tuiState({ prompt: emptyLine });
    const { keys, toasts } = promptOver(runner, store);
    keys('/relevo goal\r');
    expect(store.state.promptError).toBe('usage: /relevo goal TEXT');
    keys('\x15');
    expect(store.state.promptError).toBeNull();
    keys('/relevo pause\r');
    expect(told).toEqual([{ type: 'pause' }]);
    store.update({ prompt: emptyLine });
    keys('\x1b');
    expect(store.state.prompt).toBeNull();
    expect(toasts).toEqual(['no goal yet: C-] g opens the goal prompt']);
  });
});

describe('input routing', () => {
  const compositor = stub<Compositor>({ view: { panes: { planner: { inner: { height: 11 } } } } });
  /** The router over `runner`, with what each test changes. */
  const router = (runner: RelayRunner, deps: Partial<InputDeps> = {}) =>
    inputRouter({
      store: tuiState(),
      runner,
      compositor,
      toast: () => {},
      keys: new KeyRouter('\x1d'),
      run: () => {},
      promptKeys: () => {},
      clipboard: () => {},
      ...deps,
    });

  it('keys go to the focused agent and commands to relevo; any key closes the help first', () => {
    const { runner, typed } = fakeRunner('running');
    const store = tuiState();
    const ran: Command[] = [];
    const route = router(runner, { store, run: (c) => ran.push(c) });
    route('ls\r\x1dp\x1b[200~pasted\x1b[201~');
    expect(typed).toEqual(['ls\r', 'paste:pasted']);
    expect(ran).toEqual(['pause']);
    store.update({ overlay: 'help' });
    route('x');
    expect(store.state.overlay).toBe('none');
    expect(typed).toHaveLength(2);
  });

  it('names an unbound key as people read it: an arrow, a function key, a letter, a Ctrl key', () => {
    const { runner } = fakeRunner('running');
    const toasts: string[] = [];
    const route = router(runner, { toast: (t) => toasts.push(t) });
    for (const key of ['\x1b[A', '\x1b[15~', 'x', '\x01', '\x1b[1;5C']) route(`\x1d${key}`);
    expect(toasts).toEqual(['↑', 'F5', 'x', 'C-a', 'C-→'].map((name) => `C-] ${name} is not bound: C-] ? lists the keys`));
  });

  it('while the goal prompt is open, the prefix commands work and the other keys (a paste too) edit its line', () => {
    const { runner, typed } = fakeRunner('ready');
    const store = tuiState({ prompt: emptyLine });
    const ran: Command[] = [];
    const route = router(runner, { store, run: (c) => ran.push(c), promptKeys: promptOver(runner, store).keys });
    route('Pagin\x1dq\x1b[200~ate\x1b[201~\x1d\x1d');
    expect(ran).toEqual(['quit']);
    expect(store.state.prompt?.text).toBe('Paginate');
    // Opening the prompt again keeps its line.
    route('\x1dg\x1dn');
    expect(ran).toEqual(['quit']);
    expect(store.state.prompt?.text).toBe('Paginate');
    expect(typed).toEqual([]);
  });
});

describe('quitting', () => {
  /** The router and the real commands over a runner whose panes are relevo's own (`owned`) or mirrored, alive or exited. */
  function quitting(pane: { owned: boolean; exited: null | { exitCode: number } }, phase: Phase = 'running') {
    const typed: string[] = [];
    const told: unknown[] = [];
    const finished: number[] = [];
    const agent = { type: (d: string) => typed.push(d), typePaste: (t: string) => typed.push(`paste:${t}`), pane };
    const runner = stub<RelayRunner>({
      state: { phase },
      agents: { planner: agent, builder: agent },
      dispatch: (event: unknown) => told.push(event),
    });
    const store = tuiState();
    const run = commandRunner({
      store,
      runner,
      toast: () => {},
      finish: (code) => finished.push(code),
      editPending: async () => {},
      readHistory: () => {
        throw new Error('not used');
      },
    });
    const route = inputRouter({
      store,
      runner,
      compositor: {} as Compositor,
      toast: () => {},
      keys: new KeyRouter('\x1d'),
      run,
      promptKeys: () => {},
      clipboard: () => {},
    });
    return { route, store, typed, told, finished };
  }

  it('asks while it would end an agent; any other key cancels and reaches no agent; the prefix and q again, or y, quits', () => {
    const q = quitting({ owned: true, exited: null });
    q.route('\x1dq');
    expect(q.store.state.confirmQuit).toBe(true);
    expect(q.finished).toEqual([]);
    q.route('q');
    expect(q.store.state.confirmQuit).toBe(false);
    expect(q.typed).toEqual([]);
    q.route('\x1dq');
    q.route('\x1d');
    expect(q.store.state.confirmQuit).toBe(true); // the prefix alone waits for its command
    q.route('q');
    expect(q.finished).toEqual([3]);
    expect(q.told).toEqual([{ type: 'stop' }]);

    const y = quitting({ owned: true, exited: null }, 'done');
    y.route('\x1dq');
    y.route('y');
    expect(y.finished).toEqual([0]);
    expect(y.typed).toEqual([]);

    const once = quitting({ owned: true, exited: null });
    once.route('\x1dqy'); // the question and its answer in one read
    expect(once.finished).toEqual([3]);
    const no = quitting({ owned: true, exited: null });
    no.route('\x1dqnls\r'); // anything else cancels, and the rest of that read is dropped with it
    expect(no.store.state.confirmQuit).toBe(false);
    expect(no.typed).toEqual([]);
  });

  it('quits at once when no agent would be ended: mirrored panes, or agents that have exited', () => {
    for (const pane of [
      { owned: false, exited: null },
      { owned: true, exited: { exitCode: 0 } },
    ]) {
      const q = quitting(pane, 'paused');
      q.route('\x1dq');
      expect(q.finished).toEqual([3]);
      expect(q.store.state.confirmQuit).toBe(false);
    }
  });
});
