/**
 * Quitting before any goal, as people meet it: relevo-tui in a real tmux server, the goal prompt
 * left empty, then quit. Nothing was started, so nothing is offered to resume: the last line says
 * so and exits 0, `runs` lists the run as `no goal`, and `--resume` passes it by.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJournal, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

describe('quitting before a goal', () => {
  it('says nothing was started and exits 0; runs lists it as no goal; --resume never offers it', async () => {
    const cwd = tempDir('relevo-no-goal-');
    const stateDir = join(cwd, '.relevo');
    // A run that got its goal and paused, then one quit before its goal: --resume goes on with the first.
    const paused = await relevo(
      [
        '--headless',
        '--planner',
        simCommand('planner'),
        '--builder',
        simCommand('builder'),
        '--goal',
        'Add pagination',
        '--max-rounds',
        '1',
      ],
      cwd,
    );
    expect(paused.exitCode).toBe(3);
    const pausedId = (JSON.parse(paused.stdout.split('\n')[0]!) as { run_id: string }).run_id;

    await start(160, 40, ['--planner', simCommand('planner'), '--builder', simCommand('builder')], [], cwd);
    await untilScreen('the goal prompt', (s) => s.split('\n').some((l) => l.startsWith('goal ›')));
    await keys('Escape');
    await untilScreen('the prompt closed', (s) => !s.split('\n').some((l) => l.startsWith('goal ›')));
    await keys('C-]', 'q');
    await untilScreen('quit asks', (s) => s.includes('Quit relevo-tui?'));
    await keys('y');
    const after = await untilScreen('the shell back', (s) => /exited with \d+/.test(s));
    expect(after).toContain('exited with 0');
    expect(after).toMatch(/relevo-tui: no goal was given: nothing was started, nothing to resume — journal: \S+events\.jsonl/);
    expect(after).not.toContain('--resume');
    expect(after).not.toContain('stopped (ready)');

    const runs = await relevo(['runs', '--json'], cwd);
    const listed = JSON.parse(runs.stdout) as { id: string; state: string; goal: string | null }[];
    expect(listed).toHaveLength(2);
    const noGoal = listed.find((r) => r.id !== pausedId)!;
    expect(noGoal).toMatchObject({ state: 'no_goal', goal: null });
    const table = (await relevo(['runs'], cwd)).stdout.split('\n');
    expect(table.find((l) => l.startsWith(noGoal.id))).toMatch(/ {2}no goal +-$/);
    const journalOf = (id: string) => parseJournal(readFileSync(join(stateDir, 'runs', id, 'events.jsonl'), 'utf8'));
    expect(journalOf(noGoal.id).map((l) => l.type)).toContain('no_goal');
    expect(journalOf(noGoal.id).map((l) => l.type)).not.toContain('goal');
    const shown = await relevo(['show', noGoal.id, '--json'], cwd);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: noGoal.id, state: 'no_goal', goal: null });

    // `--resume` with no run named goes on with the run that got its goal, never the newer one without.
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.stderr).not.toContain('got its goal');
    expect(journalOf(pausedId).map((l) => l.type)).toContain('run_resumed');
    expect(journalOf(noGoal.id).map((l) => l.type)).not.toContain('run_resumed');
  }, 120_000);
});
