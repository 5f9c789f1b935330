/**
 * `relevo-tui` alone, in a project directory, as people meet it in a terminal: nothing names the
 * agents, so relevo finds the agent CLIs on the PATH and asks which plays the planner and which the
 * builder before any starts. The agents here are fakes named `claude` and `codex` on a temporary PATH
 * that are really the built-in simulator (the picker and the journal are what is tested, not a relay).
 */
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { BIN, parseJournal, tempDir } from '../helpers/cli.js';
import { freshTmuxServers, keys, session, tmux, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** Fake agent CLIs: `--version` answers as the real one would, anything else runs the simulator in `role`. */
function fakeAgents(agents: Readonly<Record<string, { role: 'planner' | 'builder'; version: string }>>): string {
  const dir = tempDir('relevo-picker-bin-');
  for (const [name, { role, version }] of Object.entries(agents)) {
    const sim = quote([process.execPath, BIN, 'sim-agent', '--role', role, '--think-ms', '150']);
    writeFileSync(join(dir, name), `#!/bin/sh\ncase "$1" in --version) echo ${quote([version])}; exit 0;; esac\nexec ${sim}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const CLAUDE_AND_CODEX = {
  claude: { role: 'planner', version: '2.1.332 (Claude Code)' },
  codex: { role: 'builder', version: 'codex-cli 0.171.0' },
} as const;

/** `relevo-tui` (with no arguments unless `args`), in `cwd`, with `bin` and the system's directories as its PATH. */
async function startBare(cwd: string, bin: string, args: readonly string[] = []): Promise<void> {
  const command = quote(['env', `PATH=${bin}:/usr/bin:/bin`, 'LANG=C.UTF-8', process.execPath, BIN, ...args]);
  await session(160, 40, cwd, `${command}; echo "exited with $?"; sleep 60`);
}

/** The run_started lines of the runs in `cwd`'s state dir, oldest first. */
function runsStarted(cwd: string): Extract<JournalLine, { type: 'run_started' }>[] {
  const runs = join(cwd, '.relevo', 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs)
    .sort()
    .map((id) => parseJournal(readFileSync(join(runs, id, 'events.jsonl'), 'utf8'))[0] as Extract<JournalLine, { type: 'run_started' }>);
}

/**
 * The run_started lines once `count` runs have started: the TUI paints its first frame (and the goal
 * prompt) before the run opens, so a run is only on disk a moment after the screen shows its prompt.
 */
async function runsOpened(cwd: string, count: number): Promise<Extract<JournalLine, { type: 'run_started' }>[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    let runs: Extract<JournalLine, { type: 'run_started' }>[] = [];
    try {
      runs = runsStarted(cwd).filter((r) => r !== undefined);
    } catch {
      // A journal being written: read it again.
    }
    if (runs.length >= count || Date.now() > deadline) return runs;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const picker = (s: string) => s.includes('relevo-tui · which agents?');
/** The goal prompt in the chrome, with both agents' panes above it. */
const goalPrompt = (s: string) => /^goal ›/m.test(s) && s.includes('planner · ') && s.includes('builder · ');

/** Closes the goal prompt (Esc), then quits relevo (C-] q, y) and ends the session. */
async function quit(): Promise<string> {
  await keys('Escape');
  await untilScreen('the goal prompt closed', (s) => !/^goal ›/m.test(s));
  await keys('C-]', 'q');
  await untilScreen('quit asks', (s) => s.includes('Quit relevo-tui?'));
  await keys('y');
  const after = await untilScreen('the shell back', (s) => s.includes('exited with'));
  await tmux('kill-session', '-t', 'relevo');
  return after;
}

describe('relevo-tui with no flags: the agent picker', () => {
  it('offers the agent CLIs on the PATH, Enter Enter runs claude and codex, and the choice is remembered next time', async () => {
    const cwd = tempDir('relevo-picker-');
    const bin = fakeAgents(CLAUDE_AND_CODEX);
    await startBare(cwd, bin);
    const first = await untilScreen('the picker', picker);
    expect(first).toContain('found on the PATH: claude, codex');
    expect(first).toMatch(/^ *planner$/m);
    expect(first).toMatch(/▸ claude +\S*relevo-picker-bin-\w+\/claude/);
    expect(first).toContain('[ ] also write relevo.toml');
    expect(runsStarted(cwd)).toEqual([]);
    await keys('Enter');
    const builderStep = await untilScreen('the builder step', (s) => /planner: claude/.test(s) && /^ *builder$/m.test(s));
    expect(builderStep).toMatch(/▸ codex /);
    await keys('Enter');
    const started = await untilScreen('the goal prompt, the run open', (s) => goalPrompt(s) && s.includes('runs are journaled'));
    expect(started).toContain('╭─ planner · claude');
    expect(started).toContain('builder · codex');
    expect(started).toContain('runs are journaled in .relevo/ (kept out of git)');
    expect((await runsOpened(cwd, 1)).map((r) => [r.planner.command, r.builder.command])).toEqual([
      [[join(bin, 'claude')], [join(bin, 'codex')]],
    ]);
    expect(JSON.parse(readFileSync(join(cwd, '.relevo', 'agents.json'), 'utf8'))).toEqual({ planner: 'claude', builder: 'codex' });
    await quit();

    // Another pick: codex plans, claude builds.
    await startBare(cwd, bin);
    await untilScreen('the picker again', picker);
    await keys('Down', 'Enter');
    // The builder's list starts on the builder picked last time.
    expect(await untilScreen('the builder step', (s) => /planner: codex/.test(s))).toMatch(/▸ codex /);
    await keys('Up', 'Enter');
    const second = await untilScreen('the goal prompt', goalPrompt);
    expect(second).toContain('╭─ planner · codex');
    expect(second).not.toContain('journaled in');
    expect((await runsOpened(cwd, 2)).map((r) => [r.planner.command[0], r.builder.command[0]])).toEqual([
      [join(bin, 'claude'), join(bin, 'codex')],
      [join(bin, 'codex'), join(bin, 'claude')],
    ]);
    await quit();

    // Remembered: the picker starts on codex for the planner, then claude for the builder; t also writes relevo.toml.
    await startBare(cwd, bin);
    expect(await untilScreen('the picker, remembered', picker)).toMatch(/▸ codex /);
    await keys('t');
    await untilScreen('relevo.toml ticked', (s) => s.includes('[x] also write relevo.toml'));
    await keys('Enter');
    expect(await untilScreen('the builder step', (s) => /planner: codex/.test(s))).toMatch(/▸ claude /);
    await keys('Enter');
    expect(await untilScreen('relevo.toml written', (s) => goalPrompt(s) && s.includes('wrote relevo.toml'))).toContain(
      '╭─ planner · codex',
    );
    expect(readFileSync(join(cwd, 'relevo.toml'), 'utf8')).toContain('planner = "codex"\nbuilder = "claude"\n');
    await quit();

    // relevo.toml names the agents now: no picker, straight to the goal prompt.
    await startBare(cwd, bin);
    const named = await untilScreen('the goal prompt from relevo.toml', goalPrompt);
    expect(named).toContain('╭─ planner · codex');
    expect(await runsOpened(cwd, 4)).toHaveLength(4);
    await quit();
  });

  it('the picked agents relay: with --goal (and the simulator’s profile for the fakes), Enter Enter relays the goal to done', async () => {
    const cwd = tempDir('relevo-picker-');
    const bin = fakeAgents(CLAUDE_AND_CODEX);
    await startBare(cwd, bin, ['--goal', 'Add pagination to /users', '--planner-profile', 'sim', '--builder-profile', 'sim']);
    await untilScreen('the picker', picker);
    await keys('Enter', 'Enter');
    const done = await untilScreen(
      'done',
      (s) => / · done$/m.test(s) && s.includes('Goal met: Add pagination to /users in 3 rounds.'),
      60_000,
    );
    expect(done).toContain('╭─ planner · sim');
    expect((await runsOpened(cwd, 1)).map((r) => [r.planner.command[0], r.builder.command[0]])).toEqual([
      [join(bin, 'claude'), join(bin, 'codex')],
    ]);
    await keys('C-]', 'q');
    await untilScreen('quit asks', (s) => s.includes('Quit relevo-tui?'));
    await keys('y');
    expect(await untilScreen('the shell back', (s) => s.includes('exited with'))).toContain('exited with 0');
  });

  it('Esc quits before any agent starts, in one line; the terminal is given back', async () => {
    const cwd = tempDir('relevo-picker-');
    await startBare(cwd, fakeAgents(CLAUDE_AND_CODEX));
    await untilScreen('the picker', picker);
    await keys('Escape');
    const after = await untilScreen('the shell back', (s) => s.includes('exited with'));
    expect(after).toContain('relevo-tui: no agents picked: nothing was started\nexited with 0');
    expect(after).not.toContain('which agents?');
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
  });

  it('with one agent CLI found, offers it for both roles', async () => {
    const cwd = tempDir('relevo-picker-');
    const bin = fakeAgents({ claude: CLAUDE_AND_CODEX.claude });
    await startBare(cwd, bin);
    expect(await untilScreen('the picker', picker)).toContain('only claude is on the PATH: it can play both roles');
    await keys('Enter');
    expect(await untilScreen('the builder step', (s) => /planner: claude/.test(s))).toMatch(/▸ claude /);
    await keys('Enter');
    expect(await untilScreen('the goal prompt', goalPrompt)).toContain('builder · claude');
    expect((await runsOpened(cwd, 1)).map((r) => [r.planner.command[0], r.builder.command[0]])).toEqual([
      [join(bin, 'claude'), join(bin, 'claude')],
    ]);
    await quit();
  });

  it('with none found, says what it looked for in one line and exits 2', async () => {
    const cwd = tempDir('relevo-picker-');
    await startBare(cwd, fakeAgents({}));
    const after = await untilScreen('the shell back', (s) => s.includes('exited with'));
    expect(after).toContain(
      'relevo-tui: no agents named: give --planner and --builder, or a relevo.toml; none of claude, codex, copilot, gemini, opencode, qwen is on the PATH\nexited with 2',
    );
  });
});
