import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DELIVERY, initialState } from '../../src/protocol/index.js';
import { splitKeys } from '../../src/pty/keys.js';
import Chrome from '../../src/tui/components/Chrome.js';
import GoalPrompt from '../../src/tui/components/GoalPrompt.js';
import Help from '../../src/tui/components/Help.js';
import { editLine, emptyLine, type LineState, readPromptLine } from '../../src/tui/line-editor.js';
import type { TuiState } from '../../src/tui/store.js';
import { toastFor, toastLines, toastOverlay, toastRect } from '../../src/tui/toasts.js';

const state: TuiState = {
  relay: {
    ...initialState({
      maxRounds: 10,
      lang: 'en',
      inlineRolePrompt: { planner: false, builder: false },
      delivery: DEFAULT_DELIVERY,
      runPath: 'r',
    }),
    phase: 'running',
    round: 2,
    turn: 'builder',
  },
  agents: { planner: { name: 'claude', state: 'idle' }, builder: { name: 'codex', state: 'busy' } },
  focus: 'planner',
  memory: null,
  zoom: false,
  toasts: [],
  overlay: 'none',
  prompt: null,
  promptError: null,
  scroll: null,
  armed: false,
  confirmQuit: false,
  prefix: 'C-]',
};

describe('chrome', () => {
  it('shows the band, then the key hint', () => {
    const frame = render(<Chrome state={state} width={100} />)
      .lastFrame()!
      .split('\n');
    expect(frame[0]).toBe('relevo · planner: claude ▸ builder: codex · ▰▰▱▱▱▱▱▱▱▱ 2/10 · turn: builder · running');
    expect(frame[1]).toContain('C-] ? help');
  });

  it('shows the command keys once the prefix is pressed, and asks before quitting a running relay', () => {
    expect(render(<Chrome state={{ ...state, armed: true }} width={100} />).lastFrame()).toContain('C-] … o focus · z zoom');
    expect(render(<Chrome state={{ ...state, confirmQuit: true }} width={100} />).lastFrame()).toContain('q again quits');
  });

  it('lists every key in the help', () => {
    const help = render(<Help prefix="C-]" />).lastFrame()!;
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
      'scroll mode',
      'quit',
    ]) {
      expect(help).toContain(text);
    }
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

  it('renders with a block cursor and a refusal', () => {
    const frame = render(
      <GoalPrompt line={{ text: 'abc', cursor: 1, browsing: null, draft: '' }} width={60} error="the goal is empty" />,
    ).lastFrame()!;
    expect(frame).toBe('goal › abc  ⚠ the goal is empty');
  });
});

describe('toasts', () => {
  const toasts = [
    { id: 1, text: 'round 1 delivered to the builder', level: 'info' as const },
    { id: 2, text: 'paused: no_handoff (planner): a very long reason that will not fit in the corner at all', level: 'warn' as const },
  ];

  it('stack in the top-right corner, newest last, cut to their width', () => {
    const rect = toastRect(2, 200, 48, null)!;
    expect(rect).toEqual({ top: 1, left: 108, width: 90, height: 2 });
    const lines = toastLines(toasts, 40).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
    expect(lines).toEqual([` ● ${'round 1 delivered to the builder'.padEnd(36)} `, ' ▲ paused: no_handoff (planner): a ver… ']);
    expect(lines.every((l) => l.length === 40)).toBe(true);
  });

  it('move to the bottom corner rather than cover the focused cursor line', () => {
    expect(toastRect(2, 200, 48, { row: 2, col: 120 })).toMatchObject({ top: 45 });
    expect(toastRect(2, 200, 48, { row: 2, col: 40 })).toMatchObject({ top: 1 }); // the cursor is in the other half
    expect(toastRect(0, 200, 48, null)).toBeNull();
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
      text: 'done: Shipped.',
      level: 'done',
      notify: true,
    });
    expect(toastFor({ ...at, type: 'blocked', role: 'builder' })).toMatchObject({ level: 'warn', notify: true });
    expect(toastFor({ ...at, type: 'lookalike', role: 'builder', line: '[relevo ronda 9 · de planner]' })?.text).toContain('discarded');
    expect(toastFor({ ...at, type: 'agent_exited', role: 'planner', exit_code: 1 })).toEqual({
      text: 'the planner exited (code 1); its work is checkpointed: quit, then relevo-tui --resume starts it again',
      level: 'error',
    });
    expect(toastFor({ ...at, type: 'goal', text: 'G' })).toBeNull();
  });

  it('are painted cursor-addressed inside their rectangle', () => {
    expect(toastOverlay(toasts.slice(0, 1), { top: 1, left: 138, width: 60, height: 1 })).toMatch(/^\x1b\[2;138H/);
  });
});
