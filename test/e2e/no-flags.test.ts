/**
 * `relevo-tui --headless` with nothing naming the agents, as a script meets it: one line saying what
 * was looked for on the PATH and how to name the agents, exit 2, nothing created. And the first run
 * in a directory says once where the runs are journaled.
 */
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { BIN, relevo, tempDir } from '../helpers/cli.js';
import { freshTmuxServers, session, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** A PATH directory holding fake `names` (executable shell scripts; detection never runs them). */
function fakeBin(names: readonly string[]): string {
  const dir = tempDir('relevo-bin-');
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\nexit 1\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('relevo-tui with no flags, headless', () => {
  it('with no agent CLI on the PATH: one line naming what it looked for, exit 2, no state dir', async () => {
    const cwd = tempDir();
    const r = await relevo(['--headless', '--goal', 'Add pagination'], cwd, { PATH: fakeBin([]) });
    expect(r.stderr).toBe(
      'relevo-tui: no agents named: give --planner and --builder, or a relevo.toml; none of claude, codex, copilot, gemini, opencode, qwen is on the PATH',
    );
    expect(r.stdout).toBe('');
    expect(r.exitCode).toBe(2);
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
  });

  it('with claude and codex on the PATH: the line lists them (and starts neither)', async () => {
    const cwd = tempDir();
    const r = await relevo(['--headless'], cwd, { PATH: fakeBin(['codex', 'claude']) });
    expect(r.stderr).toBe('relevo-tui: no agents named: give --planner and --builder, or a relevo.toml; found on the PATH: claude, codex');
    expect(r.exitCode).toBe(2);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('says where runs are journaled the first time it creates .relevo, to a person at a terminal, and never again', async () => {
    const cwd = tempDir();
    const run = quote([process.execPath, BIN, '--headless', '--demo', '--goal', 'One step', '--max-rounds', '1']);
    // stdout (the JSON lines) to a file, stderr on the terminal.
    await session(200, 20, cwd, `${run} > out.jsonl; ${run} > again.jsonl; echo "exited with $?"; sleep 60`);
    const screen = await untilScreen('both runs', (s) => s.includes('exited with'), 90_000);
    expect(screen.match(/relevo-tui: runs are journaled in \.relevo\/ \(kept out of git\)/g)).toHaveLength(1);
    expect(screen.split('\n')[0]).toBe('relevo-tui: runs are journaled in .relevo/ (kept out of git)');
    expect(readdirSync(join(cwd, '.relevo', 'runs'))).toHaveLength(2);
    // A script's stderr (a pipe) keeps only the pause line.
    const piped = await relevo(['--headless', '--demo', '--goal', 'One step', '--max-rounds', '1'], tempDir());
    expect(piped.stderr).toMatch(/^relevo-tui: paused: max_rounds/);
  });
});
