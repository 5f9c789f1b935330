import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveProgram, splitCommand } from '../../src/app/config/command.js';
import { langFromEnv, parseOptions } from '../../src/app/config/options.js';
import { loadProfile, profileForCommand } from '../../src/app/config/profiles.js';
import { loadConfig } from '../../src/app/config/relevo-toml.js';
import { ConfigError } from '../../src/app/faults/errors.js';
import { createRunDir, Journal, runIdFor } from '../../src/app/store/journal.js';
import { journalLineSchema } from '../../src/protocol/index.js';
import { tempDir } from '../helpers/cli.js';

const fails = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('options', () => {
  it('has the documented defaults', () => {
    const o = parseOptions(['--headless', '--demo'], { LANG: 'es_ES.UTF-8' });
    expect(o).toMatchObject({ headless: true, demo: true, maxRounds: 10, lang: 'es', stateDir: '.relevo', cols: 120, rows: 40 });
    expect(o.blockedTimeoutMs).toBe(600_000);
    expect(o.stallAfterMs).toBe(20 * 60_000);
  });

  it('take --stall-after as a duration, from the flag or the config file', () => {
    expect(parseOptions(['--stall-after', '90s'], {}).stallAfterMs).toBe(90_000);
    expect(parseOptions(['--stall-after', '1h'], {}).stallAfterMs).toBe(3_600_000);
    expect(parseOptions([], {}, () => ({ 'stall-after': '5m' })).stallAfterMs).toBe(5 * 60_000);
    expect(fails(() => parseOptions(['--stall-after', '20'], {})).toString()).toBe(
      '--stall-after: expected a duration from 1s to 7 days, such as 20m or 90s',
    );
    const dir = tempDir();
    writeFileSync(join(dir, 'relevo.toml'), 'stall_after = "45m"\n');
    expect(parseOptions([], {}, (explicit) => loadConfig(explicit, dir)).stallAfterMs).toBe(45 * 60_000);
  });

  it('takes the role-prompt language from the locale, --lang first', () => {
    expect(langFromEnv({ LANG: 'es_MX.UTF-8' })).toBe('es');
    expect(langFromEnv({ LANG: 'es' })).toBe('es');
    expect(langFromEnv({ LANG: 'en_US.UTF-8', LC_ALL: 'es_ES.UTF-8' })).toBe('es');
    expect(langFromEnv({ LANG: 'estonian' })).toBe('en');
    expect(langFromEnv({})).toBe('en');
    expect(parseOptions(['--lang', 'en'], { LANG: 'es_ES' }).lang).toBe('en');
  });

  it('names the bad flag', () => {
    expect(fails(() => parseOptions(['--max-rounds', '-1'], {})).toString()).toBe(
      '--max-rounds: needs a value (for one starting with a dash, write --max-rounds=VALUE)',
    );
    expect(fails(() => parseOptions(['--max-rounds=-1'], {})).toString()).toBe('--max-rounds: expected a whole number');
    expect(fails(() => parseOptions(['--headless=yes'], {})).toString()).toBe('--headless: takes no value');
    expect(fails(() => parseOptions(['--cols', '5'], {})).toString()).toBe('--cols: expected a number from 20 to 1000');
    expect(fails(() => parseOptions(['--goal', '  '], {})).toString()).toBe('--goal: must not be empty');
    expect(fails(() => parseOptions(['--goal'], {})).toString()).toBe('--goal: needs a value');
    expect(fails(() => parseOptions(['extra'], {})).toString()).toBe('usage: unexpected argument extra (see --help)');
  });
});

describe('agent command lines', () => {
  it('split like a shell, without running one', () => {
    expect(splitCommand(`claude --model opus --append-system-prompt 'be brief' "two words" a\\ b`, '--planner')).toEqual([
      'claude',
      '--model',
      'opus',
      '--append-system-prompt',
      'be brief',
      'two words',
      'a b',
    ]);
    for (const bad of ['claude; rm -rf /', 'claude > out', 'claude && x', 'claude $HOME', 'claude *.ts', 'claude # note', '']) {
      expect(() => splitCommand(bad, '--planner')).toThrow(ConfigError);
    }
  });

  it('resolve their program on PATH, or say it is not found', () => {
    expect(resolveProgram(['sh', '-c', 'x'], '--builder')[0]).toMatch(/\/sh$/);
    expect(fails(() => resolveProgram(['nope-agent'], '--builder', '/nonexistent')).toString()).toBe(
      '--builder: command not found: nope-agent',
    );
  });

  it('pick the profile from the command, falling back to generic', () => {
    expect(profileForCommand(['/usr/bin/node', '/x/bin/relevo-tui.js', 'sim-agent'], '--planner').data.id).toBe('sim');
    expect(profileForCommand(['/usr/local/bin/some-agent'], '--planner').data.id).toBe('generic');
    expect(profileForCommand(['/usr/bin/claude', '--model', 'opus'], '--planner').data.id).toBe('claude');
    expect(profileForCommand(['/usr/local/bin/codex'], '--planner').data.id).toBe('codex');
    expect(profileForCommand(['/p/node_modules/@openai/codex/bin/codex.js'], '--planner').data.id).toBe('codex');
    expect(profileForCommand(['/p/node_modules/@anthropic-ai/claude-code/bin/claude.exe'], '--planner').data.id).toBe('claude');
    expect(profileForCommand(['/usr/bin/env', 'ANTHROPIC_BASE_URL=http://127.0.0.1:9', 'claude'], '--planner').data.id).toBe('claude');
    expect(profileForCommand(['/usr/bin/env', '-i', 'A=1', '/opt/codex'], '--planner').data.id).toBe('codex');
    expect(profileForCommand(['/usr/bin/env'], '--planner').data.id).toBe('generic');
  });

  it('load a profile from a file, naming the bad field', () => {
    const dir = tempDir();
    const file = join(dir, 'mine.toml');
    writeFileSync(
      file,
      readFileSync(new URL('../../profiles/generic.toml', import.meta.url), 'utf8').replace('quiet_ms = 1500', 'quiet_ms = "soon"'),
    );
    expect(fails(() => loadProfile(file, '--builder-profile')).toString()).toMatch(
      /^--builder-profile: profile mine\.toml: detect\.quiet_ms: /,
    );
    writeFileSync(file, 'id = [');
    expect(fails(() => loadProfile(file, '--builder-profile')).toString()).toMatch(/^--builder-profile: cannot read profile/);
    expect(fails(() => loadProfile(join(dir, 'missing.toml'), '--builder-profile')).toString()).toMatch(/no such file/);
  });
});

describe('journal', () => {
  it('names runs by local time, sortable, and never reuses a directory', () => {
    const at = new Date(2026, 10, 30, 9, 5, 7, 42);
    expect(runIdFor(at)).toBe('20261130-090507-042');
    const state = tempDir();
    const a = createRunDir(state, at);
    const b = createRunDir(state, at);
    expect([a.runId, b.runId]).toEqual(['20261130-090507-042', '20261130-090507-042-1']);
    mkdirSync(join(state, 'runs', 'x'), { recursive: true });
  });

  it('appends validated lines with a monotonic seq and an ISO timestamp', () => {
    const { dir } = createRunDir(tempDir());
    const journal = new Journal(dir);
    const seen: number[] = [];
    journal.onAppend((l) => seen.push(l.seq));
    journal.append({ type: 'goal', text: 'G' });
    journal.append({ type: 'resumed', budget: 20 });
    expect(() => journal.append({ type: 'goal' } as never)).toThrow();
    journal.close();
    const lines = readFileSync(join(dir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => journalLineSchema.parse(JSON.parse(l)));
    expect(lines.map((l) => [l.seq, l.type])).toEqual([
      [1, 'goal'],
      [2, 'resumed'],
    ]);
    expect(seen).toEqual([1, 2]);
  });
});

describe('--help', () => {
  it('lists every key the TUI binds after the prefix', async () => {
    const { USAGE } = await import('../../src/app/config/usage.js');
    const { BINDINGS } = await import('../../src/tui/input/keyboard.js');
    const keys = USAGE.slice(USAGE.indexOf('Keys in the TUI'), USAGE.indexOf('Files and environment'));
    for (const key of Object.keys(BINDINGS))
      expect(keys, JSON.stringify(key)).toMatch(
        key === '\t' ? /\bTab\b/ : new RegExp(`(^|\\s)${key.replace(/[[?]/g, '\\$&')}(  | or )`, 'm'),
      );
  });
});
