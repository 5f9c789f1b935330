/**
 * The dashboard on a terminal that changes size while relays change and keys are pressed: after
 * every step the person's terminal equals a fresh paint of the same view at its size, cell for cell
 * with styles (Ink's colours forced on, as a colour terminal gets them).
 */
import { describe, expect, it, vi } from 'vitest';
import type { DashboardScreen as Screen } from '../../src/tui/dashboard/dashboard-screen.js';
import type { RelayRow } from '../../src/tui/dashboard/rows.js';
import type { DashboardView } from '../../src/tui/dashboard/table.js';

vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

const { DashboardScreen } = await import('../../src/tui/dashboard/dashboard-screen.js');
const { dashboardInput, initialDashboard } = await import('../../src/tui/dashboard/dashboard-state.js');
const { RealTerminal } = await import('../../src/tui/view/terminal.js');
const { FOUR, NOW, relayRow } = await import('../helpers/relay-rows.js');
const { rng } = await import('../helpers/random-output.js');
const { againstFresh } = await import('../helpers/fresh-paint.js');
const { PersonTerminal } = await import('../helpers/screen-oracle.js');
const { quietStdin, stub } = await import('../helpers/stub.js');

type Person = InstanceType<typeof PersonTerminal>;

function dashboard(person: Person, view: DashboardView): Screen {
  const term = new RealTerminal({ stdin: quietStdin(), stdout: stub<NodeJS.WriteStream>(person) });
  term.enter();
  const screen = new DashboardScreen(term, view, { plain: false });
  screen.show();
  return screen;
}

/** What a person presses: moves, the filter typed and left, a merge asked and answered or cancelled. */
const KEYS = ['j', 'k', '\x1b[B', '\x1b[A', '/', 'pag', 'e', '\x7f', '\r', '\x1b', 'm', 'x', 'y', 'n'];
const PHASES: readonly RelayRow['phase'][] = ['starting', 'working', 'idle', 'paused', 'done', 'merged', 'ended'];

/** A relay changes: its phase (and a pause reason), an attention flag, a round further, a new handoff. */
function change(rows: readonly RelayRow[], r: (n: number) => number, now: number): RelayRow[] {
  if (rows.length === 0 || r(5) === 0)
    return [...rows, relayRow(`relevo/task-${r(1000)}-with-a-long-name`, { changedAt: now, phase: 'starting' })];
  if (r(6) === 0) return rows.filter((_, i) => i !== r(rows.length));
  const at = r(rows.length);
  return rows.map((row, i) => {
    if (i !== at) return row;
    const phase = PHASES[r(PHASES.length)]!;
    return {
      ...row,
      phase,
      reason: phase === 'paused' ? ['rate_limited', 'agent_blocked', 'setup_failed'][r(3)]! : null,
      attention: r(4) === 0 ? (['blocked', 'draft', 'stalled'] as const)[r(3)]! : null,
      round: Math.min(row.maxRounds, row.round + r(2)),
      lastHandoff: r(2) === 0 ? `Handoff ${r(100)}: 日本語 and an emoji 🚀 in a line long enough to be cut at any width` : row.lastHandoff,
      added: r(3) === 0 ? null : r(900),
      changedAt: now,
    };
  });
}

/** The last line taken by a new relay's goal being typed (the cursor anywhere in it), or by a notice, or given back to the keys. */
function footerLine(r: (n: number) => number): Pick<DashboardView, 'prompt' | 'notice'> {
  const text = [...'Add pagination to /users 日本語 🚀 and keep going past the edge of a narrow terminal'].slice(0, r(90)).join('');
  switch (r(3)) {
    case 0:
      return { prompt: { text, cursor: r([...text].length + 1) }, notice: null };
    case 1:
      return { prompt: null, notice: `merged ${text}` };
    default:
      return { prompt: null, notice: null };
  }
}

describe('the dashboard on a terminal that changes size', () => {
  it.each([1, 2, 3])('seed %i: after every key, change and resize the screen equals a fresh paint of the dashboard', async (seed) => {
    const r = rng(seed);
    const person = new PersonTerminal(80, 24);
    let view: DashboardView = { rows: FOUR, state: initialDashboard, now: NOW };
    const live = dashboard(person, view);
    person.on('resize', () => live.show());
    const done: string[] = [];
    try {
      for (let step = 0; step < 60; step++) {
        const kind = r(4);
        if (kind === 0) {
          const sizes = Array.from({ length: 1 + r(3) }, (): [number, number] =>
            r(6) === 0 ? [5 + r(30), 2 + r(8)] : [30 + r(200), 8 + r(60)],
          );
          for (const [cols, rows] of sizes) await person.resize(cols, rows);
          done.push(`resize ${sizes.map(([c, w]) => `${c}×${w}`).join(' → ')}`);
        } else if (kind === 1) {
          const key = KEYS[r(KEYS.length)]!;
          view = { ...view, state: dashboardInput(view.state, view.rows, key).state };
          live.show(view);
          done.push(JSON.stringify(key));
        } else if (kind === 2) {
          view = { ...view, ...footerLine(r) };
          live.show(view);
          done.push(`footer ${JSON.stringify({ prompt: view.prompt, notice: view.notice })}`);
        } else {
          const now = view.now + r(100_000);
          view = { ...view, rows: change(view.rows, r, now), now };
          live.show(view);
          done.push('a relay changed');
        }
        const wrong = await againstFresh(person, (fresh) => dashboard(fresh, view));
        if (wrong !== null) expect.fail(`seed ${seed}, after ${done.join(', ')}:\n${wrong}`);
      }
    } finally {
      live.dispose();
      person.screen.dispose();
    }
  });
});
