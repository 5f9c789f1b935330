// The input box's contents and how editing keys change them. PURE.
import type { InputEvent } from './input.js';

export interface InputBox {
  text: string;
  /** Number of the paste that made the text multi-line (shown as `[Pasted text #N …]`). */
  pasteId: number;
  /** Multi-line pastes so far in this session. */
  pasteCount: number;
}

export const emptyInputBox: InputBox = { text: '', pasteId: 0, pasteCount: 0 };

/** The box after an editing key, or null when `event` does not edit the text. */
export function edit(box: InputBox, event: InputEvent): InputBox | null {
  switch (event.type) {
    case 'text':
      return { ...box, text: box.text + event.text };
    case 'paste': {
      if (!event.text.includes('\n')) return { ...box, text: box.text + event.text };
      const pasteCount = box.pasteCount + 1;
      return { text: box.text + event.text, pasteId: pasteCount, pasteCount };
    }
    case 'newline':
      return { ...box, text: `${box.text}\n` };
    case 'ctrl-u':
      return cleared(box);
    case 'backspace':
      return { ...box, text: Array.from(box.text).slice(0, -1).join('') };
    default:
      return null;
  }
}

/** The box emptied (after a submit or Ctrl-C); the paste counter keeps counting. */
export function cleared(box: InputBox): InputBox {
  return { text: '', pasteId: 0, pasteCount: box.pasteCount };
}
