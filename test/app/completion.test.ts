import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { FLAG_NAMES } from '../../src/app/config/options.js';
import { BIN, relevo, tempDir } from '../helpers/cli.js';

/** What bash completes in `cwd` (its HOME too) for the words typed so far (the last one being completed, each as typed), with relevo's script loaded. */
async function completeIn(cwd: string, ...words: string[]): Promise<string[]> {
  const script = [
    `source <("${process.execPath}" "${BIN}" completion bash)`,
    `COMP_WORDS=(relevo-tui ${words.map((w) => quote([w])).join(' ')})`,
    `COMP_CWORD=${words.length}`,
    '_relevo_tui',
    `printf "%s\\n" "\${COMPREPLY[@]}"`,
  ].join('\n');
  const r = await execa('bash', ['-c', script], { cwd, env: { HOME: cwd } });
  return r.stdout.split('\n').filter((l) => l !== '');
}

const complete = (...words: string[]) => completeIn(tempDir(), ...words);

describe('relevo-tui completion', () => {
  it('bash: a valid script that completes commands, flags and their values', async () => {
    const script = await relevo(['completion', 'bash'], tempDir());
    expect(script.exitCode).toBe(0);
    expect((await execa('bash', ['-n'], { input: script.stdout, reject: false })).exitCode).toBe(0);
    expect(await complete('sh')).toEqual(['show']);
    expect(await complete('--max-r')).toEqual(['--max-rounds']);
    expect(await complete('--lang', '')).toEqual(['es', 'en']);
    expect(await complete('--deliver', 'f')).toEqual(['file']);
    expect(await complete('--planner-profile', 'c')).toEqual(['claude', 'codex', 'copilot']);
    expect(await complete('completion', 'z')).toEqual(['zsh']);
    expect((await complete('--')).sort()).toEqual(FLAG_NAMES.map((f) => `--${f}`).sort());
  });

  it('bash: the run ids after --resume and show, from the state dir a --state-dir earlier on the line names', async () => {
    const cwd = tempDir();
    const runs = (dir: string, ...ids: string[]) => {
      for (const id of ids) mkdirSync(join(cwd, dir, 'runs', id), { recursive: true });
    };
    runs('.relevo', '20261101-090000-000', '20261102-100000-000');
    runs('my runs', '20261201-120000-000');
    runs('state', '20261203-080000-000');
    expect(await completeIn(cwd, '--resume', '')).toEqual(['20261101-090000-000', '20261102-100000-000']);
    expect(await completeIn(cwd, '--headless', '--resume', '2026110')).toEqual(['20261101-090000-000', '20261102-100000-000']);
    expect(await completeIn(cwd, 'show', '20261102')).toEqual(['20261102-100000-000']);
    expect(await completeIn(cwd, 'show', '--json', '')).toEqual(['20261101-090000-000', '20261102-100000-000']);
    // --state-dir as typed: quoted, with an escaped space, joined with =, under ~.
    expect(await completeIn(cwd, 'show', '--state-dir', "'my runs'", '')).toEqual(['20261201-120000-000']);
    expect(await completeIn(cwd, '--state-dir', 'my\\ runs', '--resume', '')).toEqual(['20261201-120000-000']);
    expect(await completeIn(cwd, '--state-dir', '=', 'state', '--resume', '')).toEqual(['20261203-080000-000']);
    expect(await completeIn(cwd, '--state-dir=state', '--resume', '')).toEqual(['20261203-080000-000']);
    expect(await completeIn(cwd, 'show', '--state-dir', '~/state', '')).toEqual(['20261203-080000-000']);
    // No runs there: nothing to offer (not the flags); a flag after --resume is still a flag.
    expect(await completeIn(cwd, '--state-dir', 'nowhere', '--resume', '')).toEqual([]);
    expect(await completeIn(cwd, '--resume', '--dem')).toEqual(['--demo']);
  });

  it('zsh and fish: every flag, the commands, and the values relevo knows', async () => {
    const zsh = (await relevo(['completion', 'zsh'], tempDir())).stdout;
    const fish = (await relevo(['completion', 'fish'], tempDir())).stdout;
    expect(zsh.split('\n')[0]).toBe('#compdef relevo-tui');
    for (const f of FLAG_NAMES) {
      expect(zsh).toMatch(new RegExp(`'--${f}[:']`));
      expect(fish).toMatch(new RegExp(`^complete -c relevo-tui -l ${f}( |$)`, 'm'));
    }
    expect(zsh).toContain("'--lang:value:(es en)'");
    expect(fish).toContain("complete -c relevo-tui -l deliver -x -a 'auto file inline'");
  });

  it('refuses a missing or unknown shell in one line, exit 2', async () => {
    const none = await relevo(['completion'], tempDir());
    expect([none.exitCode, none.stderr]).toEqual([2, 'relevo-tui: completion: which shell? (usage: relevo-tui completion bash|zsh|fish)']);
    const bad = await relevo(['completion', 'tcsh'], tempDir());
    expect(bad.stderr).toBe('relevo-tui: completion: unknown shell tcsh (usage: relevo-tui completion bash|zsh|fish)');
  });
});
