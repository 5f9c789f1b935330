import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FLAG_NAMES } from '../../src/app/config/options.js';
import { BIN, relevo, tempDir } from '../helpers/cli.js';

/** What bash completes for the words typed so far (the last one being completed), with relevo's script loaded. */
async function complete(...words: string[]): Promise<string[]> {
  const script = [
    `source <("${process.execPath}" "${BIN}" completion bash)`,
    `COMP_WORDS=(relevo-tui ${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length}`,
    '_relevo_tui',
    `printf "%s\\n" "\${COMPREPLY[@]}"`,
  ].join('\n');
  const r = await execa('bash', ['-c', script], { cwd: tempDir() });
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('relevo-tui completion', () => {
  it('bash: a valid script that completes commands, flags and their values', async () => {
    const script = await relevo(['completion', 'bash'], tempDir());
    expect(script.exitCode).toBe(0);
    expect((await execa('bash', ['-n'], { input: script.stdout, reject: false })).exitCode).toBe(0);
    expect(await complete('sh')).toEqual(['show']);
    expect(await complete('--max-r')).toEqual(['--max-rounds']);
    expect(await complete('--lang', '')).toEqual(['es', 'en']);
    expect(await complete('--deliver', 'f')).toEqual(['file']);
    expect(await complete('--planner-profile', 'c')).toEqual(['claude', 'codex']);
    expect(await complete('completion', 'z')).toEqual(['zsh']);
    expect((await complete('--')).sort()).toEqual(FLAG_NAMES.map((f) => `--${f}`).sort());
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
