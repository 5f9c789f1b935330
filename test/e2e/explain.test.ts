/**
 * `relevo-tui explain` as a person runs it (the built command): a saved screen read through a
 * profile, every screen fixture of every agent, and the one-line errors of bad usage.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { shippedProfileNames } from '../../src/app/config/profiles.js';
import { explanationSchema } from '../../src/protocol/index.js';
import { BIN, relevo, tempDir } from '../helpers/cli.js';
import { screenFixture, screenFixtures } from '../helpers/screens.js';

const explain = (...args: string[]) => relevo(['explain', ...args], tempDir());

describe('relevo-tui explain', () => {
  it('prints the state and the rule that decided, then every rule with matched or not and why; exit 0', async () => {
    const f = screenFixture('claude', '2.1.197', 'busy--streaming.txt');
    const r = await explain('--profile', 'claude', f.path);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(
      /^claude: busy, decided by title-spinner \(priority 200, title\)\n {2}saw: ⠂ Fake title\n\nEvery rule, in the profile's order:\n/,
    );
    expect(r.stdout).toContain('  permission-prompt (blocked, priority 300, bottom 16): no match\n    no "Do you want to"\n    held: …');
    expect(r.stdout).toContain(
      '  esc-to-interrupt (busy, priority 190, bottom 3): matched, outranked by title-spinner (200 > 190)\n    "esc to interrupt" found\n',
    );
    expect(r.stdout).toContain('  idle-title (idle, priority 100, title): no match\n    nothing matches /^✳ /\n    held: ⠂ Fake title\n');
    expect(r.stdout.endsWith("\nThe file's rule: header expects title-spinner: as decided")).toBe(true);
  });

  it("works on every screen fixture: each agent's files in one call, each decided by the rule its header names", async () => {
    const fixtures = screenFixtures();
    for (const agent of [...new Set(fixtures.map((f) => f.agent))]) {
      const mine = fixtures.filter((f) => f.agent === agent);
      const r = await explain('--profile', agent, ...mine.map((f) => f.path));
      expect({ agent, exit: r.exitCode, stderr: r.stderr }).toEqual({ agent, exit: 0, stderr: '' });
      for (const f of mine) {
        const section = r.stdout.slice(r.stdout.indexOf(`==> ${f.path} <==\n`));
        expect(section).toMatch(new RegExp(`^==> .*? <==\\n${agent}: ${f.state}, decided by ${f.rule} \\(`));
        expect(section).toMatch(new RegExp(`\\n {2}${f.rule} \\(.*\\): matched, decided\\n`));
        expect(section).toMatch(new RegExp(`\\nThe file's rule: header expects ${f.rule}: as decided(?:\\n|$)`));
      }
      // Every rule of the profile listed for each file, matched or not.
      expect(r.stdout.match(/: (?:no match|matched[^\n]*)\n {4}/g)?.length).toBeGreaterThanOrEqual(mine.length * 3);
    }
  });

  it('--json: one line per file, the explanation as the journal keeps it', async () => {
    const f = screenFixture('codex', '0.171.0', 'busy--working.txt');
    const r = await explain('--profile', 'codex', '--json', f.path);
    expect(r.exitCode).toBe(0);
    const { file, profile, expected, ...explanation } = JSON.parse(r.stdout) as Record<string, unknown>;
    expect([file, profile, expected]).toEqual([f.path, 'codex', 'title-spinner']);
    expect(explanationSchema.parse(explanation)).toMatchObject({ state: 'busy', rule: 'title-spinner' });
  });

  it('a plain capture on stdin (no header): no rule matched is said, with what relevo then does', async () => {
    const r = await execa(process.execPath, [BIN, 'explain', '--profile', 'claude', '-'], {
      input: 'some output\nno prompt here\n',
      reject: false,
      env: { LANG: 'C.UTF-8' },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^claude: unknown\n {2}no rule matched: the state is unknown, so no turn ends/);
    expect(r.stdout).toContain('  idle-title (idle, priority 100, title): no match\n    no title\n    held: (empty)\n');
  });

  it("exit 1 when the file's rule: header names another rule than the one that decided", async () => {
    const dir = tempDir();
    const file = join(dir, 'screen.txt');
    writeFileSync(file, 'title: ✳ Claude Code\nrule: prompt-box\n---\n❯ \n');
    const r = await explain('--profile', 'claude', file);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^claude: idle, decided by idle-title/);
    expect(r.stdout.endsWith("The file's rule: header expects prompt-box: it differs")).toBe(true);
  });

  describe('bad usage: one line on stderr, exit 2, nothing on stdout', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a-dir'));
    const fixture = screenFixture('claude', '2.1.197', 'idle--start.txt').path;
    const known = shippedProfileNames().join(', ');
    const USAGE = '(usage: relevo-tui explain --profile NAME [--json] SCREEN.txt…)';
    it.each([
      [
        'an unknown profile',
        ['--profile', 'clod', fixture],
        `--profile: unknown profile "clod" (known: ${known}; or a path to a .toml file)`,
      ],
      ['no --profile', [fixture], `explain: which profile? --profile NAME (known: ${known}; or a .toml path)`],
      ['no screen', ['--profile', 'claude'], `explain: which screen? give a SCREEN.txt file, or - for stdin ${USAGE}`],
      [
        'a missing file',
        ['--profile', 'claude', join(dir, 'missing.txt')],
        `explain: cannot read ${join(dir, 'missing.txt')}: no such file`,
      ],
      [
        'a directory after a good file',
        ['--profile', 'claude', fixture, join(dir, 'a-dir')],
        `explain: cannot read ${join(dir, 'a-dir')}: a directory`,
      ],
      ['an unknown flag', ['--profile', 'claude', '--colour', fixture], `explain: unknown option --colour ${USAGE}`],
      ['a mistyped flag', ['--profil', 'claude', fixture], `explain: unknown option --profil — did you mean --profile? ${USAGE}`],
      ['--profile with no value', ['--profile'], '--profile: needs a value'],
      [
        'a profile file that is not there',
        ['--profile', join(dir, 'none.toml'), fixture],
        `--profile: cannot read profile ${join(dir, 'none.toml')}: no such file`,
      ],
    ])('%s', async (_what, args, line) => {
      const r = await explain(...args);
      expect({ exit: r.exitCode, stderr: r.stderr, stdout: r.stdout }).toEqual({ exit: 2, stderr: `relevo-tui: ${line}`, stdout: '' });
    });
  });
});
