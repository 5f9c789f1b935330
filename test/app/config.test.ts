import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../src/app/config/options.js';
import { loadConfig } from '../../src/app/config/relevo-toml.js';
import { onlyRunJournal, relevo, tempDir } from '../helpers/cli.js';

function project(toml: string): string {
  const cwd = tempDir();
  writeFileSync(join(cwd, 'relevo.toml'), toml);
  return cwd;
}

const parse = (args: string[], cwd: string) => parseOptions(args, {}, (explicit) => loadConfig(explicit, cwd));

describe('relevo.toml', () => {
  it('gives the flags defaults; a flag on the command line wins', () => {
    const cwd = project(
      'max_rounds = 4\nlang = "es"\ndeliver = "file"\ndeliver_max_lines = 30\nmemory = true\nplanner = "claude --model opus"\n',
    );
    const o = parse(['--demo'], cwd);
    expect([o.maxRounds, o.lang, o.delivery, o.memory, o.planner]).toEqual([
      4,
      'es',
      { mode: 'file', maxBytes: 4096, maxLines: 30 },
      true,
      'claude --model opus',
    ]);
    const flags = parse(['--demo', '--max-rounds', '7', '--lang', 'en', '--deliver', 'inline'], cwd);
    expect([flags.maxRounds, flags.lang, flags.delivery.mode, flags.memory]).toEqual([7, 'en', 'inline', true]);
  });

  it('is optional; --config names another file, which must exist', () => {
    expect(parse(['--demo'], tempDir()).maxRounds).toBe(10);
    const cwd = tempDir();
    writeFileSync(join(cwd, 'team.toml'), 'max_rounds = 3\n');
    expect(parse(['--demo', '--config', 'team.toml'], cwd).maxRounds).toBe(3);
    expect(() => parse(['--demo', '--config', 'missing.toml'], cwd)).toThrow('no such file: missing.toml');
  });

  it.each([
    ['max_rounds = 0\n', 'relevo.toml: max_rounds: Too small: expected number to be >=1'],
    ['max_rounds = "ten"\n', 'relevo.toml: max_rounds: Invalid input: expected number, received string'],
    ['deliver = "email"\n', 'relevo.toml: deliver: Invalid option: expected one of "auto"|"file"|"inline"'],
    ['maxrounds = 5\n', 'relevo.toml: unknown setting maxrounds'],
    ['max_rounds = \n', /^relevo\.toml: not valid TOML: /],
  ])('refuses %j in one line naming the file and the key', (toml, message) => {
    const cwd = project(toml);
    let error: unknown;
    try {
      parse(['--demo'], cwd);
    } catch (e) {
      error = e;
    }
    expect(String(error)).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message,
    );
  });

  it('drives a real run: file delivery and memory from the file, exit 2 with one line on a bad file', async () => {
    const cwd = project('deliver = "file"\nmemory = true\nmax_rounds = 5\n');
    const result = await relevo(['--headless', '--demo'], cwd, { PATH: '/usr/bin:/bin' });
    expect(result.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(lines[0]).toMatchObject({ type: 'run_started', max_rounds: 5 });
    expect(lines.some((l) => l.type === 'memory' && l.state === 'blocked')).toBe(true);
    expect(
      lines.filter((l) => l.type === 'delivered' && l.kind === 'handoff').every((l) => l.type === 'delivered' && l.via === 'file'),
    ).toBe(true);

    const bad = await relevo(['--headless', '--demo'], project('lang = "fr"\n'));
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('relevo-tui: relevo.toml: lang: Invalid option: expected one of "es"|"en"');
  });
});
