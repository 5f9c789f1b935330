import { describe, expect, it } from 'vitest';
import type { InstalledAgent } from '../../src/app/config/installed.js';
import { PickerScreen } from '../../src/tui/picker/picker-screen.js';
import { initialPicker, type PickerKey, type PickerState, pickerStep } from '../../src/tui/picker/picker-state.js';
import { RealTerminal } from '../../src/tui/view/terminal.js';
import { againstFresh } from '../helpers/fresh-paint.js';
import { rng } from '../helpers/random-output.js';
import { PersonTerminal } from '../helpers/screen-oracle.js';
import { quietStdin, stub } from '../helpers/stub.js';

const found: InstalledAgent[] = ['claude', 'codex', 'gemini', 'opencode', 'qwen'].map((p) => ({
  profile: p,
  program: p,
  path: `/home/someone/.local/share/a-rather-long-directory-of-agent-programs/bin/${p}`,
}));

function picker(person: PersonTerminal, state: PickerState): PickerScreen {
  const term = new RealTerminal({ stdin: quietStdin(), stdout: stub<NodeJS.WriteStream>(person) });
  term.enter();
  const screen = new PickerScreen(term, state, { home: '/home/someone', plain: false });
  screen.show();
  return screen;
}

const KEYS: readonly PickerKey[] = ['up', 'down', 'down', 'enter', 'back', 'toggle'];

describe('the agent picker on a terminal that changes size', () => {
  it.each([1, 2, 3])('seed %i: after every key and resize the screen equals a fresh paint of the picker', async (seed) => {
    const r = rng(seed);
    const person = new PersonTerminal(80, 24);
    let state = initialPicker(found, { planner: 'claude', builder: 'codex' }, true);
    const live = picker(person, state);
    person.on('resize', () => live.show());
    const done: string[] = [];
    try {
      for (let step = 0; step < 60; step++) {
        if (r(2) === 0) {
          const sizes = Array.from({ length: 1 + r(3) }, (): [number, number] =>
            r(6) === 0 ? [5 + r(30), 2 + r(8)] : [30 + r(200), 8 + r(60)],
          );
          for (const [cols, rows] of sizes) await person.resize(cols, rows);
          done.push(`resize ${sizes.map(([c, w]) => `${c}×${w}`).join(' → ')}`);
        } else {
          const key = KEYS[r(KEYS.length)]!;
          const outcome = pickerStep(state, key);
          if (outcome.kind === 'picking') state = outcome.state;
          live.show(state);
          done.push(key);
        }
        const wrong = await againstFresh(person, (fresh) => picker(fresh, state));
        if (wrong !== null) expect.fail(`seed ${seed}, after ${done.join(', ')}:\n${wrong}`);
      }
    } finally {
      live.dispose();
      person.screen.dispose();
    }
  });
});
