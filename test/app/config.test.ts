import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { FLAG_NAMES, parseOptions, settingOf } from '../../src/app/config/options.js';
import { PACKAGE_ROOT } from '../../src/app/config/paths.js';
import { configSchema, loadConfig } from '../../src/app/config/relevo-toml.js';
import { onlyRunJournal, relevo, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';

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
    // A bad value, of every kind: the key, the file and line, what it expects in the flags' words, what it got.
    ['max_rounds = 0\n', 'relevo.toml:1: max_rounds: expected a whole number from 1 to 1000, got 0'],
    ['lang = "es"\nmax_rounds = "ten"\n', 'relevo.toml:2: max_rounds: expected a whole number from 1 to 1000, got "ten"'],
    ['cols = 80.5\n', 'relevo.toml:1: cols: expected a whole number from 20 to 1000, got 80.5'],
    ['memory = "yes"\n', 'relevo.toml:1: memory: expected true or false, got "yes"'],
    ['mouse = [1]\n', 'relevo.toml:1: mouse: expected true or false, got an array'],
    ['deliver = "email"\n', 'relevo.toml:1: deliver: expected auto, file or inline, got "email"'],
    ['lang = 1\n', 'relevo.toml:1: lang: expected es or en, got 1'],
    ['state_dir = ""\n', 'relevo.toml:1: state_dir: expected a directory path (a string, not empty), got ""'],
    [
      'planner_profile = { name = "claude" }\n',
      'relevo.toml:1: planner_profile: expected a profile name or path (a string, not empty), got a table',
    ],
    ['planner = 7\n', 'relevo.toml:1: planner: expected a command line (a string, not empty), got 7'],
    // What only the flags check, in the flags' words.
    ['stall_after = "20"\n', 'relevo.toml:1: stall_after: expected a duration from 1s to 7 days, such as 20m or 90s, got "20"'],
    ['prefix = "C-m"\n', 'relevo.toml:1: prefix: expected a control key such as C-] or C-b (not Esc, Enter, Tab), got "C-m"'],
    [
      'tmux_socket = "my server"\n',
      'relevo.toml:1: tmux_socket: expected a socket name as tmux -L takes (letters, digits, . _ -), got "my server"',
    ],
    ['lang = "es"\n\nmaxrounds = 5\n', 'relevo.toml:3: unknown setting maxrounds — did you mean max_rounds?'],
    ['stal_after = "5m"\n', 'relevo.toml:1: unknown setting stal_after — did you mean stall_after?'],
    ['colour = "red"\n', 'relevo.toml:1: unknown setting colour'],
    ['lang = "es"\nmax_rounds = \n', /^relevo\.toml:2:14: not valid TOML: /],
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
    expect(bad.stderr).toBe('relevo-tui: relevo.toml:1: lang: expected es or en, got "fr"');
  });
});

describe('relevo.example.toml and relevo-tui schema', () => {
  const example = readFileSync(join(PACKAGE_ROOT, 'relevo.example.toml'), 'utf8');
  const keys = Object.keys(configSchema().shape);

  it('every flag is a setting (snake_case; --no-mouse is mouse = false; --setup and --copy in [worktree]), but the per-invocation ones: --resume, --all, --config, --help, --version, --branch, --base', () => {
    const perInvocation = new Set(['resume', 'all', 'config', 'help', 'version', 'branch', 'base']);
    const inWorktree = new Set(['setup', 'copy']);
    const expected = FLAG_NAMES.filter((f) => !perInvocation.has(f) && !inWorktree.has(f)).map(settingOf);
    expect([...keys].sort()).toEqual([...expected, 'worktree'].sort());
    expect(Object.keys(configSchema().shape.worktree._zod.def.innerType.shape).sort()).toEqual([...inWorktree].sort());
  });

  it('the example is a valid relevo.toml that shows every setting (set or commented out)', () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'relevo.toml'), example);
    expect(parse([], cwd)).toMatchObject({ planner: 'claude', builder: 'codex', maxRounds: 10, prefix: '\x1d' });
    for (const key of keys) expect(example, key).toMatch(new RegExp(key === 'worktree' ? '^\\[worktree\\]$' : `^(# )?${key} = `, 'm'));
    for (const key of ['setup', 'copy']) expect(example, key).toMatch(new RegExp(`^\\[worktree\\][^[]*^(# )?${key} = `, 'm'));
  });

  it('prints a JSON Schema with every setting, its type and bounds, that the example satisfies', async () => {
    const printed = await relevo(['schema'], tempDir());
    expect(printed.exitCode).toBe(0);
    const schema = JSON.parse(printed.stdout) as {
      type: string;
      additionalProperties: boolean;
      properties: Record<string, { type: string; enum?: string[]; minimum?: number; maximum?: number; description?: string }>;
    };
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(Object.keys(schema.properties).sort()).toEqual([...keys].sort());
    for (const [key, p] of Object.entries(schema.properties)) expect(p.description, key).toMatch(/\w/);
    // Each value of the example, checked against its property as an editor would.
    const values = parseToml(example) as Record<string, unknown>;
    for (const [key, value] of Object.entries(values)) {
      const p = schema.properties[key]!;
      expect(p.type === 'integer' ? Number.isInteger(value) : typeof value, key).toBe(p.type === 'integer' ? true : p.type);
      if (p.enum) expect(p.enum, key).toContain(value);
      if (p.minimum !== undefined) expect(value as number, key).toBeGreaterThanOrEqual(p.minimum);
      if (p.maximum !== undefined) expect(value as number, key).toBeLessThanOrEqual(p.maximum);
    }
    expect(schema.properties.max_rounds).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(schema.properties.lang).toMatchObject({ type: 'string', enum: ['es', 'en'] });
  });
});

describe('the state directory', () => {
  it('relevo creates it with a .gitignore of its own, so a run leaves git status clean; one that exists is left as it is', async () => {
    const cwd = tempDir();
    await gitRepo(cwd);
    const result = await relevo(['--headless', '--demo'], cwd, { PATH: '/usr/bin:/bin' });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(join(cwd, '.relevo', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect((await execa('git', ['status', '--porcelain'], { cwd })).stdout).toBe('');

    const mine = tempDir();
    mkdirSync(join(mine, 'state'));
    const again = await relevo(['--headless', '--demo', '--state-dir', 'state'], mine, { PATH: '/usr/bin:/bin' });
    expect(again.exitCode).toBe(0);
    expect(existsSync(join(mine, 'state', '.gitignore'))).toBe(false);
  });
});
