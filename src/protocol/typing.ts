/**
 * How a message is typed into an agent's input box, as a list of writes: pastes and keys. Pure.
 * The shape comes from the agent's profile (`deliver.paste`), chosen per release of its CLI.
 */
import type { PasteShape } from './schemas/profile.js';

/** One write: text as a bracketed paste, or keys as they are. */
export type Keystroke = { readonly paste: string } | { readonly keys: string };

export type TypingShape = {
  readonly paste: PasteShape;
  /** The key that starts a new line in the input box (`lines`). */
  readonly line_key: string;
  /** The longest paste, in UTF-16 units (`lines`). */
  readonly paste_max: number;
};

/** Cuts a line into pieces of at most `max` UTF-16 units, never inside a surrogate pair. */
export function pieces(line: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const ch of line) {
    if (current !== '' && current.length + ch.length > max) {
      out.push(current);
      current = '';
    }
    current += ch;
  }
  if (current !== '') out.push(current);
  return out;
}

/**
 * `whole`: one paste. `lines`: each line pasted by itself (long ones in pieces), `line_key`
 * between lines, so no single paste is long enough for the CLI to treat it as pasted content:
 * the model then reads the message exactly as typed, header first.
 */
export function typingPlan(text: string, shape: TypingShape): Keystroke[] {
  if (shape.paste === 'whole') return [{ paste: text }];
  const plan: Keystroke[] = [];
  text.split('\n').forEach((line, i) => {
    if (i > 0) plan.push({ keys: shape.line_key });
    for (const piece of pieces(line, shape.paste_max)) plan.push({ paste: piece });
  });
  return plan;
}
