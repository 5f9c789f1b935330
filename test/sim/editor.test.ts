import { describe, expect, it } from 'vitest';
import { cleared, edit, emptyInputBox, type InputBox } from '../../src/sim/editor.js';
import type { InputEvent } from '../../src/sim/input.js';

function apply(events: InputEvent[], box: InputBox = emptyInputBox): InputBox {
  return events.reduce((current, event) => edit(current, event) ?? current, box);
}

describe('input box editing', () => {
  it('appends text, inserts newlines and deletes whole code points', () => {
    const box = apply([{ type: 'text', text: 'ab😀' }, { type: 'backspace' }, { type: 'newline' }, { type: 'text', text: 'c' }]);
    expect(box).toEqual({ text: 'ab\nc', pasteId: 0, pasteCount: 0 });
  });

  it('numbers multi-line pastes, not single-line ones', () => {
    const box = apply([
      { type: 'paste', text: 'one line' },
      { type: 'paste', text: '\nsecond' },
    ]);
    expect(box).toEqual({ text: 'one line\nsecond', pasteId: 1, pasteCount: 1 });
    const next = apply([{ type: 'paste', text: 'a\nb' }], cleared(box));
    expect(next).toEqual({ text: 'a\nb', pasteId: 2, pasteCount: 2 });
  });

  it('leaves other keys to the caller', () => {
    for (const type of ['enter', 'escape', 'ctrl-c', 'ctrl-d'] as const) expect(edit(emptyInputBox, { type })).toBeNull();
    expect(edit(emptyInputBox, { type: 'sequence', sequence: '\x1b[A' })).toBeNull();
  });
});
