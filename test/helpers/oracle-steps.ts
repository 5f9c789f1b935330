/** What happens to relevo's TUI, as steps of the screen oracle's seeded walk (screen-oracle.ts). */
import type { PauseReason, RelayState, Role } from '../../src/protocol/index.js';
import type { HistoryEntry, HistoryView } from '../../src/tui/state/handoff-history.js';
import type { TuiState } from '../../src/tui/state/store.js';
import { programOutput } from './random-output.js';

export type Size = readonly [cols: number, rows: number];

export type Step =
  /** The window is resized; more than one size is a burst (a window being dragged). */
  | { readonly kind: 'resize'; readonly sizes: readonly Size[] }
  | { readonly kind: 'output'; readonly role: Role; readonly text: string }
  /** The focused agent fills its pane and parks its cursor in an input box; the window shrinks to `shrink` and grows back. */
  | { readonly kind: 'regrow'; readonly text: string; readonly shrink: Size }
  | { readonly kind: 'toast'; readonly text: string }
  /** The oldest toast leaves. */
  | { readonly kind: 'expire' }
  | { readonly kind: 'help'; readonly open: boolean }
  | { readonly kind: 'history-open'; readonly view: HistoryView }
  | { readonly kind: 'history-keys'; readonly keys: string }
  /** The goal prompt opens (null), or keys are typed into it. */
  | { readonly kind: 'prompt'; readonly keys: readonly string[] | null }
  /** Copy mode starts on the focused pane (null), or keys are typed in it. */
  | { readonly kind: 'copy'; readonly keys: string | null }
  /** The wheel over the pane not focused: its view `lines` up (negative) or down. */
  | { readonly kind: 'peek'; readonly lines: number }
  /** A drag in the focused pane from one cell of its view to another; `end`: the button let go. */
  | {
      readonly kind: 'drag';
      readonly from: readonly [row: number, col: number];
      readonly to: readonly [row: number, col: number];
      readonly end: boolean;
    }
  | { readonly kind: 'focus' }
  | { readonly kind: 'zoom' }
  | { readonly kind: 'relay'; readonly relay: Partial<RelayState> }
  | { readonly kind: 'agent'; readonly role: Role; readonly state: TuiState['agents'][Role]['state'] }
  /** The prefix armed, quit asked, notes and memory in the band. */
  | { readonly kind: 'chrome'; readonly patch: Partial<TuiState> };

/** A step in one line, for a failure's report. */
export function stepText(step: Step): string {
  switch (step.kind) {
    case 'resize':
      return `resize ${step.sizes.map(([c, r]) => `${c}×${r}`).join(' → ')}`;
    case 'output':
      return `output ${step.role} ${JSON.stringify(step.text).slice(0, 120)}`;
    case 'regrow':
      return `regrow through ${step.shrink.join('×')} after ${JSON.stringify(step.text).slice(0, 80)}`;
    case 'history-open':
      return `history opens (${step.view.entries.length} handoffs)`;
    default:
      return `${step.kind} ${JSON.stringify({ ...step, kind: undefined })}`;
  }
}

type R = (n: number) => number;
const pick = <T>(r: R, items: readonly T[]): T => items[r(items.length)]!;
const words = ['pagination', 'tests', '日本語の文', 'emoji ✅', 'a-rather-long-identifier-without-spaces', 'ok', 'README'];
const sentence = (r: R, n: number) => Array.from({ length: n }, () => pick(r, words)).join(' ');

/** A size a person may give a terminal; now and then one below relevo's minimum. */
function size(r: R): Size {
  if (r(12) === 0) return [15 + r(25), 5 + r(7)];
  return [40 + r(211), 12 + r(59)];
}

function historyView(r: R): HistoryView {
  const roles: Role[] = ['planner', 'builder'];
  const entries: HistoryEntry[] = Array.from({ length: r(6) }, (_, i) => ({
    path: `planner/${String(i + 1).padStart(4, '0')}/handoff.json`,
    round: i + 1,
    from: roles[i % 2]!,
    to: roles[(i + 1) % 2]!,
    status: pick(r, ['acked', 'offered', 'pending', 'edited'] as const),
    replacedBy: null,
    time: `12:00:0${i % 10}`,
    lines: [`[relevo ronda ${i + 1} · de ${roles[i % 2]}]`, ...Array.from({ length: 1 + r(40) }, () => sentence(r, 1 + r(40)))],
  }));
  const done = r(2) === 0 ? null : sentence(r, 8);
  return { run: 'r-20261205-1', state: 'running', goal: sentence(r, 3 + r(30)), entries, done, selected: 0, open: null, scroll: 0 };
}

const PAUSES: readonly PauseReason[] = ['user', 'max_rounds', 'agent_exited', 'delivery_failed', 'state_unwritable'];

function relay(r: R): Partial<RelayState> {
  switch (r(5)) {
    case 0:
      return { phase: 'running', goal: sentence(r, 2 + r(40)), round: r(11), turn: pick(r, ['planner', 'builder'] as const), pause: null };
    case 1:
      return { phase: 'paused', pause: { reason: pick(r, PAUSES), role: 'builder' }, turn: null };
    case 2:
      return { phase: 'done', summary: sentence(r, 5), turn: null, pause: null };
    case 3:
      return { stale: r(2) === 0 ? null : [' src/a.ts | 2 +-', ' 1 file changed'] };
    default:
      return { round: r(14), budget: 10 };
  }
}

function chrome(r: R): Partial<TuiState> {
  switch (r(4)) {
    case 0:
      return { armed: r(2) === 0 };
    case 1:
      return { confirmQuit: r(2) === 0 };
    case 2:
      return { notes: { planner: null, builder: r(2) === 0 ? null : 'builder: your draft holds round 1 — send it or clear it' } };
    default:
      return { memory: r(2) === 0 ? null : 'memory: blocked' };
  }
}

const HISTORY_KEYS = ['\x1b[B', '\x1b[A', '\r', '\x1b[6~', '\x1b[5~', '\x1b', 'j', 'k'];
const PROMPT_KEYS = ['a', 'Z', '日', '✅', ' ', '\x7f', '\x1b[D', '\x1b[C', '\x1b[H', '\x1b[F', '\x1b[A'];
const COPY_KEYS = ['k', 'j', 'h', 'l', 'v', '\x1b[5~', '\x1b[6~', 'g', 'G', '$', '0', 'q', '/ab\r', 'n'];

/** The next step of the walk, fitting what is on screen now (`state`). */
export function nextStep(r: R, state: TuiState, paneRows: number): Step {
  const role = pick(r, ['planner', 'builder'] as const);
  const roll = r(100);
  if (roll < 14) return { kind: 'resize', sizes: [size(r)] };
  if (roll < 19) return { kind: 'resize', sizes: Array.from({ length: 2 + r(5) }, () => size(r)) };
  if (roll < 45) {
    const text = Array.from({ length: 1 + r(4) }, () => programOutput(r, Math.max(1, paneRows))).join('');
    return { kind: 'output', role, text };
  }
  if (roll < 48) {
    // Out of the alternate screen and any scroll region, more lines than the pane has, then an input box;
    // each narrower than the narrowest pane (xterm rewraps the cursor's line by a rule of its own).
    const lines = Array.from({ length: paneRows + 2 + r(20) }, (_, i) => `${i} ${'ab'.repeat(r(4))}`).join('\r\n');
    const text = `\x1b[?1049l\x1b[r\r\n${lines}\r\n${'─'.repeat(10)}\r\n❯ ${'x'.repeat(r(8))}\r\n${'─'.repeat(10)}\x1b[A\r`;
    return { kind: 'regrow', text, shrink: [15 + r(40), 5 + r(8)] };
  }
  if (roll < 53) return { kind: 'toast', text: sentence(r, 1 + r(30)) };
  if (roll < 57) return { kind: 'expire' };
  if (roll < 61) return { kind: 'relay', relay: relay(r) };
  if (roll < 64) return { kind: 'agent', role, state: pick(r, ['busy', 'idle', 'blocked', 'exited', 'unknown'] as const) };
  if (roll < 68) return { kind: 'chrome', patch: chrome(r) };
  if (state.overlay === 'help') return { kind: 'help', open: false };
  if (state.overlay === 'history') return { kind: 'history-keys', keys: pick(r, HISTORY_KEYS) };
  if (state.scroll !== null) return { kind: 'copy', keys: Array.from({ length: 1 + r(4) }, () => pick(r, COPY_KEYS)).join('') };
  if (state.prompt !== null && roll < 85)
    return { kind: 'prompt', keys: Array.from({ length: 1 + r(12) }, () => pick(r, [...PROMPT_KEYS, r(8) === 0 ? '\x1b' : 'x'])) };
  switch (r(9)) {
    case 7:
      return { kind: 'peek', lines: (r(2) === 0 ? -1 : 1) * (1 + r(20)) };
    case 8:
      return { kind: 'drag', from: [r(paneRows), r(40)], to: [r(paneRows), r(40)], end: r(2) === 0 };
    case 0:
      return { kind: 'help', open: true };
    case 1:
      return { kind: 'history-open', view: historyView(r) };
    case 2:
      return { kind: 'prompt', keys: null };
    case 3:
      return { kind: 'copy', keys: null };
    case 4:
      return { kind: 'zoom' };
    default:
      return { kind: 'focus' };
  }
}
