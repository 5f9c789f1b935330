import { describe, expect, it } from 'vitest';
import type { InstalledAgent } from '../../src/app/config/installed.js';
import {
  initialPicker,
  type PickerKey,
  type PickerOutcome,
  type PickerState,
  pickerKeys,
  pickerStep,
} from '../../src/tui/picker/picker-state.js';

const found: InstalledAgent[] = ['claude', 'codex', 'gemini'].map((p) => ({ profile: p, program: p, path: `/bin/${p}` }));

/** The keys pressed one after another from `state`: where the picker ends. */
function press(state: PickerState, keys: readonly PickerKey[]): PickerOutcome {
  let outcome: PickerOutcome = { kind: 'picking', state };
  for (const key of keys) {
    if (outcome.kind !== 'picking') throw new Error(`key ${key} after ${outcome.kind}`);
    outcome = pickerStep(outcome.state, key);
  }
  return outcome;
}

describe('the agent picker', () => {
  const start = initialPicker(found, { planner: 'claude', builder: 'codex' }, true);

  it('Enter Enter takes the defaults: the planner, then the builder', () => {
    expect(start).toMatchObject({ step: 'planner', index: 0 });
    const between = press(start, ['enter']);
    expect(between).toMatchObject({ kind: 'picking', state: { step: 'builder', planner: 'claude', index: 1 } });
    expect(press(start, ['enter', 'enter'])).toEqual({
      kind: 'chosen',
      choice: { planner: 'claude', builder: 'codex' },
      writeConfig: false,
    });
  });

  it('starts on a remembered choice; arrows move within the list, back returns to the planner', () => {
    const remembered = initialPicker(found, { planner: 'gemini', builder: 'claude' }, false);
    expect(remembered.index).toBe(2);
    expect(press(remembered, ['enter', 'enter'])).toMatchObject({ choice: { planner: 'gemini', builder: 'claude' } });
    expect(press(remembered, ['down', 'up', 'enter', 'down', 'down', 'down', 'enter'])).toMatchObject({
      choice: { planner: 'codex', builder: 'gemini' },
    });
    expect(press(remembered, ['up', 'enter', 'back', 'up', 'up', 'enter', 'enter'])).toMatchObject({
      choice: { planner: 'claude', builder: 'claude' },
    });
  });

  it('toggles "also write relevo.toml" only when it is offered; quit ends it', () => {
    expect(press(start, ['toggle', 'enter', 'enter'])).toMatchObject({ writeConfig: true });
    expect(press(start, ['toggle', 'toggle', 'enter', 'enter'])).toMatchObject({ writeConfig: false });
    const none = initialPicker(found, { planner: 'claude', builder: 'codex' }, false);
    expect(press(none, ['toggle'])).toMatchObject({ state: { writeConfig: null } });
    expect(press(none, ['toggle', 'enter', 'enter'])).toMatchObject({ writeConfig: false });
    expect(press(start, ['enter', 'quit'])).toEqual({ kind: 'quit' });
  });

  it('reads the keys of one read: Enter Enter, arrows (CSI and SS3), Esc, Ctrl-C; a paste and other keys are ignored', () => {
    expect(pickerKeys('\r\r')).toEqual(['enter', 'enter']);
    expect(pickerKeys('\x1b[B\x1bOB\x1b[A\x1bOAjk')).toEqual(['down', 'down', 'up', 'up', 'down', 'up']);
    expect(pickerKeys('\x1b')).toEqual(['quit']);
    expect(pickerKeys('\x03')).toEqual(['quit']);
    expect(pickerKeys('\x1b[D\x7f t')).toEqual(['back', 'back', 'toggle', 'toggle']);
    expect(pickerKeys('\x1b[200~claude\r\x1b[201~x\x1b[C\x1b[1;5A')).toEqual([]);
  });
});
