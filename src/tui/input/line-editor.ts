/**
 * A one-line editor for the goal prompt. Pure: keys (read by pty/keys.ts's `splitKeys`) in, state
 * out. The cursor steps over whole graphemes: an emoji or an accented letter moves and goes as one.
 */

import type { Role } from '../../protocol/index.js';
import { isPaste, pastedText } from '../../pty/keys.js';
import { graphemeAfter, graphemeBefore } from '../paint/width.js';

export type LineState = {
  readonly text: string;
  readonly cursor: number;
  /** Position in the history while browsing it with ↑ ↓; null when editing a new line. */
  readonly browsing: number | null;
  readonly draft: string;
};

export type LineResult = { readonly state: LineState } | { readonly submit: string } | { readonly cancel: true };

export const emptyLine: LineState = { text: '', cursor: 0, browsing: null, draft: '' };

const at = (s: LineState, text: string, cursor: number): LineState => ({ ...s, text, cursor: Math.max(0, Math.min(text.length, cursor)) });

export function editLine(s: LineState, key: string, history: readonly string[]): LineResult {
  const { text, cursor } = s;
  if (isPaste(key)) {
    const pasted = pastedText(key).replace(/\s*[\r\n]+\s*/g, ' ');
    return { state: at(s, text.slice(0, cursor) + pasted + text.slice(cursor), cursor + pasted.length) };
  }
  switch (key) {
    case '\r':
    case '\n':
      return { submit: text.trim() };
    case '\x1b':
    case '\x03':
      return { cancel: true };
    case '\x7f':
    case '\b':
      return { state: at(s, text.slice(0, graphemeBefore(text, cursor)) + text.slice(cursor), graphemeBefore(text, cursor)) };
    case '\x1b[3~':
      return { state: at(s, text.slice(0, cursor) + text.slice(graphemeAfter(text, cursor)), cursor) };
    case '\x1b[D':
    case '\x1bOD':
      return { state: at(s, text, graphemeBefore(text, cursor)) };
    case '\x1b[C':
    case '\x1bOC':
      return { state: at(s, text, graphemeAfter(text, cursor)) };
    case '\x01':
    case '\x1b[H':
      return { state: at(s, text, 0) };
    case '\x05':
    case '\x1b[F':
      return { state: at(s, text, text.length) };
    case '\x15':
      return { state: at(s, text.slice(cursor), 0) };
    case '\x1b[A':
    case '\x1bOA': {
      if (history.length === 0) return { state: s };
      const i = s.browsing === null ? history.length - 1 : Math.max(0, s.browsing - 1);
      const draft = s.browsing === null ? text : s.draft;
      return { state: { text: history[i]!, cursor: history[i]!.length, browsing: i, draft } };
    }
    case '\x1b[B':
    case '\x1bOB': {
      if (s.browsing === null) return { state: s };
      const i = s.browsing + 1;
      if (i >= history.length) return { state: { text: s.draft, cursor: s.draft.length, browsing: null, draft: '' } };
      return { state: { ...s, text: history[i]!, cursor: history[i]!.length, browsing: i } };
    }
    default:
      // Printable text only; other control keys and sequences do nothing here.
      if (/^[^\x00-\x1f\x7f]+$/u.test(key)) return { state: at(s, text.slice(0, cursor) + key + text.slice(cursor), cursor + key.length) };
      return { state: s };
  }
}

export type PromptCommand =
  | { readonly type: 'goal'; readonly goal: string }
  | { readonly type: 'pause' }
  | { readonly type: 'resume' }
  /** `/relevo note [planner|builder] TEXT`: no role means the agent the next handoff is for. */
  | { readonly type: 'note'; readonly to: Role | null; readonly text: string }
  | { readonly type: 'cancel-note'; readonly to: Role | null }
  | { readonly type: 'error'; readonly message: string };

const NOTE_USAGE = 'usage: /relevo note [planner|builder] TEXT, or /relevo note cancel [planner|builder]';

function readNote(rest: string): PromptCommand {
  const words = rest.trim().split(/\s+/);
  const role = (w: string | undefined): Role | null => (w === 'planner' || w === 'builder' ? w : null);
  if (words[0] === 'cancel' && words.length <= 2) {
    if (words.length === 2 && role(words[1]) === null) return { type: 'error', message: NOTE_USAGE };
    return { type: 'cancel-note', to: role(words[1]) };
  }
  const to = role(words[0]);
  const text = (to === null ? rest : rest.trim().slice(words[0]!.length)).trim();
  return text === '' ? { type: 'error', message: NOTE_USAGE } : { type: 'note', to, text };
}

/** What a submitted line asks for: a goal, or one of the relevo protocol's `/relevo` commands. */
export function readPromptLine(line: string): PromptCommand {
  const m = /^\/relevo(?:\s+(\S+))?(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return line.trim() === '' ? { type: 'error', message: 'the goal is empty' } : { type: 'goal', goal: line.trim() };
  const [, verb, rest = ''] = m;
  switch (verb) {
    case 'goal':
      return rest.trim() === '' ? { type: 'error', message: 'usage: /relevo goal TEXT' } : { type: 'goal', goal: rest.trim() };
    case 'pause':
      return { type: 'pause' };
    case 'resume':
      return { type: 'resume' };
    case 'note':
      return readNote(rest);
    default:
      return {
        type: 'error',
        message: `unknown command /relevo ${verb ?? ''}: use /relevo goal TEXT, /relevo note TEXT, /relevo pause or /relevo resume`,
      };
  }
}
