import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { versionCommand } from '../../src/app/config/versions.js';
import {
  compareVersions,
  type ProfileData,
  pieces,
  profileForVersion,
  profileSchema,
  rangeText,
  settingsFor,
  typingPlan,
  versionIn,
  versionVerdict,
} from '../../src/protocol/index.js';

const shipped = (name: string): ProfileData =>
  profileSchema.parse(parse(readFileSync(new URL(`../../profiles/${name}.toml`, import.meta.url), 'utf8')));

describe('agent CLI versions', () => {
  it('compares releases number by number, not as text', () => {
    expect(compareVersions('2.1.9', '2.1.10')).toBeLessThan(0);
    expect(compareVersions('2.1.332', '2.1.197')).toBeGreaterThan(0);
    expect(compareVersions('0.171.0', '0.171.0')).toBe(0);
    expect(compareVersions('1.0.0', '0.999.999')).toBeGreaterThan(0);
    expect(compareVersions('x', '1.0.0')).toBeLessThan(0);
  });

  it('finds the version in what `--version` prints, by the profile pattern', () => {
    expect(versionIn('2.1.332 (Claude Code)\n', '^(\\d+\\.\\d+\\.\\d+)')).toBe('2.1.332');
    expect(versionIn('codex-cli 0.171.0\n', '(\\d+\\.\\d+\\.\\d+)')).toBe('0.171.0');
    expect(versionIn('WARNING: something\n2.1.197 (Claude Code)', '^(\\d+\\.\\d+\\.\\d+)')).toBe('2.1.197');
    expect(versionIn('Claude Code', '(\\d+\\.\\d+\\.\\d+)')).toBeNull();
    expect(versionIn('v2.1', '(\\d+\\.\\d+)')).toBeNull(); // not a release number
  });

  it('places a release against the tested range (oldest to newest of the tested list)', () => {
    const tested = ['2.1.332', '2.1.197'];
    expect(rangeText(tested)).toBe('2.1.197 – 2.1.332');
    expect(rangeText(['1.0.0'])).toBe('1.0.0');
    expect(versionVerdict('2.1.197', tested)).toBe('tested');
    expect(versionVerdict('2.1.250', tested)).toBe('tested');
    expect(versionVerdict('2.1.196', tested)).toBe('older');
    expect(versionVerdict('2.1.333', tested)).toBe('newer');
  });

  it('asks the program alone, behind the same env, never with the rest of its command line', () => {
    expect(versionCommand(['/usr/bin/claude', '--model', 'opus'], ['--version'])).toEqual(['/usr/bin/claude', '--version']);
    expect(versionCommand(['/usr/bin/env', 'A=1', 'codex', '--no-alt-screen'], ['--version'])).toEqual([
      '/usr/bin/env',
      'A=1',
      'codex',
      '--version',
    ]);
  });
});

describe('settings per release', () => {
  type Typing = { paste: 'whole' | 'lines'; paste_max: number; line_key: string };
  const since: ({ version: string } & Partial<Typing>)[] = [
    { version: '2.0.0', paste: 'lines' },
    { version: '3.0.0', paste_max: 10 },
  ];
  const base: Typing = { paste: 'whole', paste_max: 800, line_key: '\n' };

  it('applies each `since` entry at and after its release, oldest first', () => {
    expect(settingsFor(base, since, '1.9.9')).toEqual(base);
    expect(settingsFor(base, since, '2.0.0')).toEqual({ ...base, paste: 'lines' });
    expect(settingsFor(base, since, '3.1.0')).toEqual({ paste: 'lines', paste_max: 10, line_key: '\n' });
  });

  it('gives an unknown release the newest settings: people run the newest CLI', () => {
    expect(settingsFor(base, since, null)).toEqual({ paste: 'lines', paste_max: 10, line_key: '\n' });
  });

  it('Claude Code: one paste up to 2.1.327, line by line from 2.1.328 (which wraps long pastes)', () => {
    const claude = shipped('claude');
    expect(profileForVersion(claude, '2.1.197').deliver).toMatchObject({ paste: 'whole', since: [] });
    expect(profileForVersion(claude, '2.1.327').deliver.paste).toBe('whole');
    expect(profileForVersion(claude, '2.1.328').deliver).toMatchObject({ paste: 'lines', line_key: '\n', paste_max: 800, settle_ms: 0 });
    expect(profileForVersion(claude, null).deliver.paste).toBe('lines');
    expect(profileForVersion(shipped('codex'), '0.171.0').deliver.paste).toBe('whole');
  });

  it('the shipped profiles state the releases they were tested with', () => {
    expect(shipped('claude').versions?.tested).toEqual(['2.1.197', '2.1.332']);
    expect(shipped('codex').versions?.tested).toEqual(['0.156.0', '0.171.0']);
    expect(shipped('sim').versions).toBeUndefined();
  });

  it('refuses malformed version data, naming the field', () => {
    const claude = parse(readFileSync(new URL('../../profiles/claude.toml', import.meta.url), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const issue = (edit: (p: typeof claude) => void) => {
      const copy = structuredClone(claude);
      edit(copy);
      const r = profileSchema.safeParse(copy);
      return r.success ? 'ok' : `${r.error.issues[0]!.path.join('.')}: ${r.error.issues[0]!.message}`;
    };
    expect(issue(() => {})).toBe('ok');
    expect(issue((p) => (p.versions!.tested = ['2.1'] as never))).toBe('versions.tested.0: a version such as 2.1.197');
    expect(issue((p) => (p.versions!.tested = [] as never))).toMatch(/^versions\.tested: /);
    expect(
      issue(
        (p) =>
          (p.deliver!.since = [
            { version: '2.1.328', paste: 'lines' },
            { version: '2.1.300', paste: 'whole' },
          ] as never),
      ),
    ).toBe('deliver.since: oldest first, each version once');
    expect(issue((p) => (p.deliver!.since = [{ version: '2.1.328', retries: 3 }] as never))).toMatch(/^deliver\.since\.0: /);
    expect(issue((p) => (p.deliver!.paste = 'typed' as never))).toMatch(/^deliver\.paste: /);
  });
});

describe('typing plan', () => {
  const lines = { paste: 'lines' as const, line_key: '\n', paste_max: 5 };

  it('whole: the message as one paste', () => {
    expect(typingPlan('a\nb', { ...lines, paste: 'whole' })).toEqual([{ paste: 'a\nb' }]);
  });

  it('lines: each line pasted alone, the line key between lines, blank lines as keys only', () => {
    expect(typingPlan('[h]\nab\n\n  cd', lines)).toEqual([
      { paste: '[h]' },
      { keys: '\n' },
      { paste: 'ab' },
      { keys: '\n' },
      { keys: '\n' },
      { paste: '  cd' },
    ]);
  });

  it('lines: a long line in pieces of at most paste_max UTF-16 units, never splitting a surrogate pair', () => {
    expect(pieces('abcdefghijk', 5)).toEqual(['abcde', 'fghij', 'k']);
    expect(pieces('abcd🎉ef', 5)).toEqual(['abcd', '🎉ef']);
    expect(pieces('', 5)).toEqual([]);
    const line = `x${'🎉'.repeat(600)}y`;
    const cut = pieces(line, 800);
    expect(cut.join('')).toBe(line);
    expect(cut.every((p) => p.length <= 800)).toBe(true);
  });

  it('lines: typed back together, the plan is the message', () => {
    const text = '[relevo ronda 1 · de planner]\nPaso 1: añadir\n\n    - sangría\n```ts\nconst x = 1;\n```';
    const typed = typingPlan(text, { ...lines, paste_max: 4 })
      .map((s) => ('paste' in s ? s.paste : s.keys))
      .join('');
    expect(typed).toBe(text);
  });
});
