import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { splitKeys } from '../../src/pty/keys.js';
import { BINDINGS, keyName } from '../../src/tui/input/keyboard.js';
import { editLine, emptyLine, type LineState, readPromptLine } from '../../src/tui/input/line-editor.js';
import { columns } from '../../src/tui/paint/width.js';
import type { TuiState } from '../../src/tui/state/store.js';
import { toastFor } from '../../src/tui/state/toast-text.js';
import Chrome from '../../src/tui/view/components/Chrome.js';
import GoalPrompt from '../../src/tui/view/components/GoalPrompt.js';
import Help from '../../src/tui/view/components/Help.js';
import { tuiState } from '../helpers/tui-state.js';

const base = tuiState();
const state: TuiState = tuiState({
  relay: { ...base.relay, phase: 'running', round: 2, turn: 'builder', goal: 'Add pagination to /users with tests' },
  agents: { planner: { name: 'claude', state: 'idle' }, builder: { name: 'codex', state: 'busy' } },
});

describe('chrome', () => {
  it('shows the message area, the band with both agents’ states, then the goal with the help key', () => {
    const frame = render(<Chrome state={state} width={120} />)
      .lastFrame()!
      .split('\n');
    expect(frame).toHaveLength(4);
    expect(frame.slice(0, 2).join('').trim()).toBe('');
    expect(frame[2]).toBe('relevo · planner: claude ○ idle ▸ builder: codex ● working · ▰▰▱▱▱▱▱▱▱▱ 2/10 · turn: builder · running');
    expect(frame[3]).toMatch(/^goal: Add pagination to \/users with tests +C-\] \? help$/);
    const blocked = {
      ...state,
      agents: { planner: { name: 'claude', state: 'blocked' as const }, builder: { name: 'codex', state: 'exited' as const } },
    };
    expect(render(<Chrome state={blocked} width={120} />).lastFrame()).toContain('planner: claude ◆ blocked ▸ builder: codex ✕ exited');
  });

  it('keeps the goal and both states at 80 columns, the goal cut to fit; with no goal yet it says how to give one', () => {
    const long = { ...state, relay: { ...state.relay, goal: `Add pagination to /users with tests, ${'and much more detail '.repeat(5)}` } };
    const frame = render(<Chrome state={long} width={80} />)
      .lastFrame()!
      .split('\n');
    expect(frame[2]).toBe('relevo · planner ○ idle ▸ builder ● working · ▰▰▱▱▱▱▱▱▱▱ 2/10 · running');
    expect(frame[3]).toMatch(/^goal: Add pagination to \/users with tests, and much more detail .*… +C-\] \? help$/);
    expect(frame.every((line) => line.length <= 80)).toBe(true);
    const none = { ...state, relay: { ...state.relay, goal: null } };
    expect(render(<Chrome state={none} width={80} />).lastFrame()).toContain('no goal yet: C-] g');
  });

  it('asks its questions in the message area, above the band: the command keys after the prefix, quit', () => {
    const armed = render(<Chrome state={{ ...state, armed: true }} width={100} />)
      .lastFrame()!
      .split('\n');
    expect(armed[0]).toContain('C-] … o/Tab focus · z zoom');
    const quit = render(<Chrome state={{ ...state, confirmQuit: true }} width={100} />)
      .lastFrame()!
      .split('\n');
    expect(quit[0]).toContain('q again quits');
    expect(quit[2]).toMatch(/^relevo · /);
  });

  it('after the prefix, lists every binding on the message area’s two rows at 80 columns', () => {
    const armed = render(<Chrome state={{ ...state, armed: true }} width={80} />)
      .lastFrame()!
      .split('\n');
    const rows = armed.slice(0, 2).join(' ');
    for (const binding of ['e edit pending', 's step', '[ copy mode', 'o/Tab focus', 'z zoom', 'p pause', 'r resume', 'g goal'])
      expect(rows).toContain(binding);
    for (const binding of ['n note', 'h history', '? help', 'q quit']) expect(rows).toContain(binding);
    // Every key of input/keyboard.ts, however it is bound later: the row is read from BINDINGS.
    for (const key of Object.keys(BINDINGS)) expect(rows).toMatch(new RegExp(`(^|[ /])${keyName(key).replace(/[[?]/g, '\\$&')}[ /]`));
    expect(armed[2]).toMatch(/^relevo · /);
  });

  it('lists every key in the help', () => {
    const help = render(<Help prefix="C-]" width={90} />).lastFrame()!;
    for (const text of [
      'relevo keys — press C-], then:',
      'o or Tab',
      'switch focus',
      'zoom',
      'pause the relay',
      'resume',
      'goal prompt',
      'pending handoff',
      'step mode',
      'copy mode',
      '/ ? n N search · v select · y copy',
      'click focuses · drag copies',
      'quit',
    ]) {
      expect(help).toContain(text);
    }
  });

  it('fits the help whole in the pane area of an 80×24 terminal, each key on one line', () => {
    const help = render(<Help prefix="C-]" width={80} />)
      .lastFrame()!
      .split('\n');
    // 24 rows less the chrome's four.
    expect(help.length).toBeLessThanOrEqual(20);
    expect(help.filter((line) => /^│ {11}\S/.test(line))).toEqual([]);
    const cut = render(<Help prefix="C-]" width={60} rows={12} />)
      .lastFrame()!
      .split('\n');
    expect(cut).toHaveLength(12);
    expect(cut.at(-2)).toContain('a taller terminal shows every key');
    expect(cut.at(-1)).toMatch(/^╰─+╯$/);
  });
});

describe('goal prompt', () => {
  const type = (keys: string, from: LineState = emptyLine, history: string[] = []) => {
    let line = from;
    for (const key of splitKeys(keys)) {
      const r = editLine(line, key, history);
      if (!('state' in r)) return r;
      line = r.state;
    }
    return { state: line };
  };

  it('edits one line: typing, arrows, backspace, Ctrl-A / Ctrl-E / Ctrl-U, pastes on one line', () => {
    expect(type('helo\x1b[Dl')).toEqual({ state: { text: 'hello', cursor: 4, browsing: null, draft: '' } });
    expect(type('abc\x7f\x01X\x05Y')).toMatchObject({ state: { text: 'XabY', cursor: 4 } });
    expect(type('abc\x15')).toMatchObject({ state: { text: '', cursor: 0 } });
    expect(type('go: \x1b[200~two\nlines\x1b[201~')).toMatchObject({ state: { text: 'go: two lines' } });
    expect(type('x\r')).toEqual({ submit: 'x' });
    expect(type('x\x1b')).toEqual({ cancel: true });
  });

  it('browses the history with ↑ and ↓, keeping the draft', () => {
    const history = ['first goal', 'second goal'];
    expect(type('dra\x1b[A', emptyLine, history)).toMatchObject({ state: { text: 'second goal', browsing: 1 } });
    expect(type('dra\x1b[A\x1b[A', emptyLine, history)).toMatchObject({ state: { text: 'first goal' } });
    expect(type('dra\x1b[A\x1b[B', emptyLine, history)).toMatchObject({ state: { text: 'dra', browsing: null } });
  });

  it("understands the seed's /relevo commands", () => {
    expect(readPromptLine('Add pagination')).toEqual({ type: 'goal', goal: 'Add pagination' });
    expect(readPromptLine('/relevo goal Add pagination')).toEqual({ type: 'goal', goal: 'Add pagination' });
    expect(readPromptLine('/relevo pause')).toEqual({ type: 'pause' });
    expect(readPromptLine('/relevo resume')).toEqual({ type: 'resume' });
    expect(readPromptLine('/relevo goal')).toMatchObject({ type: 'error', message: 'usage: /relevo goal TEXT' });
    expect(readPromptLine('/relevo dance')).toMatchObject({ type: 'error' });
    expect(readPromptLine('   ')).toMatchObject({ type: 'error' });
  });

  it('reads /relevo note [planner|builder] TEXT and /relevo note cancel [role]', () => {
    expect(readPromptLine('/relevo note builder keep the old API')).toEqual({ type: 'note', to: 'builder', text: 'keep the old API' });
    expect(readPromptLine('/relevo note  the planner decides')).toEqual({ type: 'note', to: null, text: 'the planner decides' });
    expect(readPromptLine('/relevo note cancel')).toEqual({ type: 'cancel-note', to: null });
    expect(readPromptLine('/relevo note cancel planner')).toEqual({ type: 'cancel-note', to: 'planner' });
    expect(readPromptLine('/relevo note cancel the tests first')).toEqual({ type: 'note', to: null, text: 'cancel the tests first' });
    for (const bad of ['/relevo note', '/relevo note builder', '/relevo note cancel someone'])
      expect(readPromptLine(bad)).toMatchObject({ type: 'error', message: expect.stringMatching(/^usage: \/relevo note/) });
  });

  it('renders with a block cursor and a refusal', () => {
    const frame = render(
      <GoalPrompt line={{ text: 'abc', cursor: 1, browsing: null, draft: '' }} width={60} error="the goal is empty" />,
    ).lastFrame()!;
    expect(frame).toBe('goal › abc  ⚠ the goal is empty');
  });

  it('keeps the help key at the right while a long line scrolls in the room left of it; a long refusal goes to the message rows', () => {
    const text = `Add pagination to /users with tests, ${'and much more detail '.repeat(5)}`;
    const line = { text, cursor: text.length, browsing: null, draft: '' };
    for (const width of [30, 80, 120]) {
      const prompt = render(<Chrome state={{ ...state, prompt: line }} width={width} />)
        .lastFrame()!
        .split('\n')[3]!;
      expect(prompt).toMatch(/^goal › .*detail +C-\] \? help$/);
      expect(columns(prompt)).toBeLessThanOrEqual(width);
    }
    const why = 'this run already has its goal (Add pagination to /users with tests): a next goal can be given after done';
    const refused = render(<Chrome state={{ ...state, prompt: line, promptError: why }} width={80} />)
      .lastFrame()!
      .split('\n');
    expect(refused.slice(0, 2).join(' ').replace(/\s+/g, ' ')).toBe(`⚠ ${why}`);
    expect(refused[3]).toMatch(/^goal › .*detail +C-\] \? help$/);
  });
});

describe('toasts', () => {
  const toasts = [
    { id: 1, text: 'round 1 delivered to the builder', level: 'info' as const },
    { id: 2, text: 'paused: no_handoff (planner): a very long reason that will not fit in the corner at all', level: 'warn' as const },
  ];

  it('sit in the message area above the band, newest first, wrapped rather than cut; never more than its two rows', () => {
    const frame = render(<Chrome state={{ ...state, toasts }} width={60} />)
      .lastFrame()!
      .split('\n');
    expect(frame).toHaveLength(4);
    expect(frame[0]).toBe('▲ paused: no_handoff (planner): a very long reason that will');
    expect(frame[1]).toBe('  not fit in the corner at all');
    expect(frame[2]).toMatch(/^relevo · /);
    const short = render(<Chrome state={{ ...state, toasts: [toasts[0]!, { ...toasts[0]!, id: 3, text: 'goal sent' }] }} width={60} />)
      .lastFrame()!
      .split('\n');
    expect(short.slice(0, 2)).toEqual(['● goal sent', '● round 1 delivered to the builder']);
  });

  it('say what the journal means, and ring for what needs the person', () => {
    const at = { seq: 1, ts: '2026-11-30T00:00:00.000Z' };
    expect(
      toastFor({
        ...at,
        type: 'delivered',
        kind: 'handoff',
        round: 2,
        from: 'planner',
        to: 'builder',
        sha256: 'a'.repeat(64),
        chars: 1,
        attempts: 1,
      }),
    ).toEqual({ text: 'round 2 delivered to the builder', level: 'info' });
    expect(toastFor({ ...at, type: 'paused', reason: 'delivery_failed', role: 'builder', detail: 'not submitted' })).toMatchObject({
      level: 'error',
      notify: true,
    });
    expect(toastFor({ ...at, type: 'done', summary: 'Shipped.\nmore', rounds: 3 })).toEqual({
      text: 'done: Shipped. — C-] g gives the same agents a next goal',
      level: 'done',
      notify: true,
    });
    expect(toastFor({ ...at, type: 'blocked', role: 'builder' })).toMatchObject({ level: 'warn', notify: true });
    expect(toastFor({ ...at, type: 'lookalike', role: 'builder', line: '[relevo ronda 9 · de planner]' })?.text).toContain('discarded');
    expect(toastFor({ ...at, type: 'agent_exited', role: 'planner', exit_code: 1 })).toEqual({
      text: 'the planner exited (code 1); nothing is lost: C-] r starts it again',
      level: 'error',
    });
    expect(toastFor({ ...at, type: 'goal', text: 'G' })).toBeNull();
  });

  it('name the configured prefix in pause and exit toasts', () => {
    const at = { seq: 1, ts: '2026-11-30T00:00:00.000Z' };
    expect(toastFor({ ...at, type: 'paused', reason: 'no_handoff', role: 'builder' }, 'C-a')?.text).toBe(
      'paused: no_handoff (builder) — C-a r resumes',
    );
    expect(
      toastFor({ ...at, type: 'paused', reason: 'agent_exited', role: 'planner', detail: 'the goal waits until it runs again' }, 'C-a')
        ?.text,
    ).toBe('paused: agent_exited (planner): the goal waits until it runs again — C-a r starts it again');
    expect(toastFor({ ...at, type: 'agent_exited', role: 'builder', exit_code: 0 }, 'C-a')?.text).toBe(
      'the builder exited (code 0); nothing is lost: C-a r starts it again',
    );
  });

  it('say why a notice was sent: an agent started again, or a resumed run (older journals name no cause: a resume)', () => {
    const notice = {
      seq: 1,
      ts: '2026-11-30T00:00:00.000Z',
      type: 'delivered',
      kind: 'notice',
      round: 2,
      from: 'relevo',
      to: 'builder',
      sha256: 'a'.repeat(64),
      chars: 1,
      attempts: 1,
    } as const;
    expect(toastFor({ ...notice, cause: 'restart' })?.text).toBe(
      'the builder was told where its handoff is (it had exited and was started again)',
    );
    expect(toastFor({ ...notice, cause: 'resume' })?.text).toBe('the builder was told where its handoff is (resumed run)');
    expect(toastFor(notice)?.text).toBe('the builder was told where its handoff is (resumed run)');
    expect(toastFor({ ...notice, to: 'planner', round: 0, cause: 'restart' })?.text).toBe(
      'the planner was given its goal again (it had exited and was started again)',
    );
  });
});
