/** How relevo sees a person's draft: the input line read through the profile, or the keys counted. */
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import { captureGroups, draftSource, profileSchema } from '../../src/protocol/index.js';
import { KeyDraft } from '../../src/pty/draft.js';

describe('the draft source', () => {
  it('counts capture groups as the engine does: escaped, class-bound and non-capturing parentheses are not groups', () => {
    expect(captureGroups('^[()]\\(x\\)(?:y)$')).toBe(0);
    expect(captureGroups('^❯\\u00a0(.*)$')).toBe(1);
    expect(captureGroups('^(?<text>.*)$')).toBe(1);
  });

  it('is keys for generic (said in its data) and the screen for the others', () => {
    expect(loadProfile('generic', 'test').data.deliver.draft).toBe('keys');
    for (const name of ['sim', 'claude', 'codex']) expect(draftSource(loadProfile(name, 'test').data), name).toBe('screen');
  });

  it('a profile asking to read a draft from a prompt that captures nothing is refused', () => {
    const data = structuredClone(loadProfile('generic', 'test').data) as Record<string, unknown> & { deliver: Record<string, unknown> };
    data.deliver.draft = 'screen';
    const parsed = profileSchema.safeParse(data);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['deliver', 'draft']);
  });
});

describe('KeyDraft (the person’s keys since their last submit)', () => {
  it('printable keys and pastes make a draft; Enter submits it; Ctrl-U and Ctrl-C clear it', () => {
    const d = new KeyDraft();
    d.keys('ab\x1b[Dc');
    expect(d.text).toBe('abc');
    d.keys('\x7f');
    expect(d.text).toBe('ab');
    d.paste('two\nlines');
    expect(d.text).toBe('abtwo\nlines');
    d.keys('\r');
    expect(d.text).toBe('');
    for (const clear of ['\x15', '\x03']) {
      d.keys('x');
      d.keys(clear);
      expect(d.text).toBe('');
    }
    d.keys('é\x7f\x7f');
    expect(d.text).toBe('');
  });
});
