/**
 * Agents in tmux panes as a person in tmux meets them: `--tmux-launch` leaves them on relevo's
 * window, the exit line says how to reach the session the agents live on in, and a pane taller
 * than relevo's box shows its bottom rows (the agent's input box).
 */
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, onlyRunJournal, tempDir } from '../helpers/cli.js';
import { band, freshTmuxServers, socket, start, tmux, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** One line of tmux's output, trimmed. */
const one = async (...args: string[]) => (await tmux(...args)).stdout.trim();

/** The rows of a pane as capture-pane shows them (no colours, wrapped lines left wrapped). */
const rowsOf = async (run: typeof tmux, pane: string) => (await run('capture-pane', '-p', '-t', pane)).stdout.split('\n');

/**
 * The inner rows of relevo's box for `role` (a side by side layout: the planner's box on the left
 * half, the builder's on the right), from relevo's screen.
 */
function boxRows(screen: string, role: 'planner' | 'builder', cols: number): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((l) => l.startsWith('╭─ planner'));
  const bottom = lines.findIndex((l) => l.startsWith('╰─'));
  const half = cols / 2;
  const from = role === 'planner' ? 1 : half + 1;
  return lines.slice(top + 1, bottom).map((l) => l.slice(from, from + half - 2));
}

/** What a box `width` wide, `height` high shows of the pane's rows when it shows their bottom. */
const bottomOf = (rows: readonly string[], width: number, height: number) =>
  rows.slice(-height).map((r) => r.slice(0, width).padEnd(width));

/** The last row of the pane with the agent's input prompt (`❯`). */
const promptRow = (rows: readonly string[]) => rows.findLastIndex((r) => r.startsWith('❯'));

describe('agents in tmux panes, seen by a person in tmux', () => {
  it('--tmux-launch inside tmux: the person stays on relevo’s window, which shows both agents’ input boxes', async () => {
    await start(180, 50, ['--tmux-launch', '--demo']);
    // The person's own client, attached to the session relevo runs in (not nested in a tmux the tests may run in).
    const env = Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('TMUX')),
    );
    const client = pty.spawn('tmux', ['-L', socket(), 'attach-session', '-t', 'relevo'], { cols: 180, rows: 50, env });
    client.onData(() => {});
    try {
      const [relevoWindow, relevoPane] = (await one('list-panes', '-t', 'relevo:0', '-F', '#{window_id} #{pane_id}')).split(' ') as [
        string,
        string,
      ];
      const person = async () =>
        (await one('list-clients', '-F', '#{client_control_mode} #{window_id}'))
          .split('\n')
          .filter((l) => l.startsWith('0 '))
          .map((l) => l.slice(2));
      for (let i = 0; i < 100 && (await person()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await person()).toEqual([relevoWindow]);
      await untilScreen(
        'both launched agents in relevo’s boxes',
        (s) =>
          s.includes('builder · sim') &&
          (['planner', 'builder'] as const).every((r) => boxRows(s, r, 180).some((row) => row.startsWith('❯'))),
        30_000,
        relevoPane,
      );
      const launched = (await one('list-panes', '-s', '-t', 'relevo', '-F', '#{window_id} #{window_name} #{pane_id}')).split('\n');
      expect(launched.filter((l) => l.startsWith(`${relevoWindow} `))).toHaveLength(1);
      expect(launched.filter((l) => / relevo-\S+ %\d+$/.test(l))).toHaveLength(2);
      // relevo kept the focus: the session's current window and the person's client are still relevo's.
      expect(await one('display-message', '-p', '-t', 'relevo:', '#{window_id}')).toBe(relevoWindow);
      expect(await person()).toEqual([relevoWindow]);
      const done = await untilScreen('done', (s) => / · done$/.test(band(s)), 60_000, relevoPane);
      expect(await person()).toEqual([relevoWindow]);
      // The agents' panes are the window's height, taller than relevo's boxes: the boxes show their
      // bottom rows, the input box (which the transcript pushed to the bottom) included.
      const [plannerPane, builderPane] = launched.filter((l) => / relevo-\S+ %\d+$/.test(l)).map((l) => l.split(' ')[2]!);
      const height = boxRows(done, 'planner', 180).length;
      for (const [role, pane] of [
        ['planner', plannerPane!],
        ['builder', builderPane!],
      ] as const) {
        const rows = await rowsOf(tmux, pane);
        expect(rows.length).toBeGreaterThan(height);
        expect(promptRow(rows)).toBeGreaterThanOrEqual(height); // below what the box could show from the top
        const shown = await untilScreen(
          `the ${role}'s bottom rows`,
          (s) => boxRows(s, role, 180).some((r) => r.startsWith('❯')),
          10_000,
          relevoPane,
        );
        expect(boxRows(shown, role, 180)).toEqual(bottomOf(rows, 88, height));
      }
      // Quitting leaves the agents in their window; the last line says which, and how to go there.
      await tmux('send-keys', '-t', relevoPane, 'C-]', 'q');
      await untilScreen('the shell back', (s) => s.includes('exited with'), 30_000, relevoPane);
      const window = launched.find((l) => / relevo-\S+ %\d+$/.test(l))!.split(' ')[1]!;
      const said = (await tmux('capture-pane', '-p', '-J', '-t', relevoPane)).stdout;
      expect(said.split('\n').find((l) => l.startsWith('relevo-tui: '))).toMatch(
        new RegExp(
          `; the agents live on in tmux window ${window} of session relevo: planner in tmux ${plannerPane}, builder in tmux ${builderPane} \\(see them: tmux select-window -t relevo:${window}\\)$`,
        ),
      );
    } finally {
      client.kill();
    }
  }, 120_000);

  it('--tmux-launch outside tmux: quitting names the session the agents live on in, and how to attach to it', async () => {
    const cwd = tempDir();
    const other = `${socket()}-agents`;
    const agents = (...args: string[]) => execa('tmux', ['-L', other, ...args], { reject: false });
    try {
      await start(180, 50, ['--tmux-launch', '--tmux-socket', other, '--demo'], [], cwd);
      await untilScreen(
        'both launched agents',
        (s) => s.includes('✻ relevo sim-agent · builder') && s.includes('✻ relevo sim-agent · planner'),
      );
      await untilScreen('round 1 in the band', (s) => /[▰▱]{10} [1-9]\/10/.test(band(s)));
      await tmux('send-keys', '-t', 'relevo', 'C-]', 'q');
      await untilScreen('the shell back', (s) => s.includes('exited with'));
      const { runId } = onlyRunJournal(join(cwd, '.relevo'));
      const said = (await tmux('capture-pane', '-p', '-J', '-t', 'relevo')).stdout;
      const line = said.split('\n').find((l) => l.startsWith('relevo-tui: ')) ?? '';
      expect(line).toMatch(
        new RegExp(
          `; the agents live on in tmux session relevo-${runId}: planner in tmux %0, builder in tmux %1 \\(attach: tmux -L ${other} attach -t relevo-${runId}\\)$`,
        ),
      );
      // The session it names is there, both agents still running in it.
      expect((await agents('has-session', '-t', `relevo-${runId}`)).exitCode).toBe(0);
      expect((await agents('list-panes', '-s', '-t', `relevo-${runId}`, '-F', '#{pane_id} #{pane_current_command}')).stdout).toBe(
        '%0 node\n%1 node',
      );
    } finally {
      await agents('kill-server');
    }
  }, 90_000);

  it('--tmux on agents in another window of the person’s session: relevo keeps its window, boxes show the panes’ bottom rows', async () => {
    const cwd = tempDir();
    // The agents' window, 60 rows high, first: each agent starts under 70 lines of a shell's output,
    // so its banner and input box are in the pane's bottom rows.
    const sim = (role: string) => ['sh', '-c', 'seq 1 70; exec "$@"', 'sh', process.execPath, BIN, 'sim-agent', '--role', role];
    const made = await tmux(
      'new-session',
      '-d',
      '-s',
      'relevo',
      '-n',
      'agents',
      '-x',
      '160',
      '-y',
      '60',
      '-c',
      cwd,
      '--',
      ...sim('planner'),
    );
    expect(made.exitCode, made.stderr).toBe(0);
    const builder = await one('split-window', '-h', '-P', '-F', '#{pane_id}', '-t', 'relevo:agents', '-c', cwd, '--', ...sim('builder'));
    const planner = await one('list-panes', '-t', 'relevo:agents', '-F', '#{pane_id}').then((s) => s.split('\n')[0]!);
    for (const pane of [planner, builder]) await untilScreen(`the ${pane} agent drawn`, (s) => s.includes('? for shortcuts'), 10_000, pane);
    // relevo in a new window of the session, which becomes the current one, 160×30 (boxes 24 rows high).
    const command = [process.execPath, BIN, '--tmux', '--planner-pane', planner, '--builder-pane', builder];
    const opened = await one('new-window', '-P', '-F', '#{window_id} #{pane_id}', '-t', 'relevo', '-c', cwd, '--', ...command);
    const [relevoWindow, relevoPane] = opened.split(' ') as [string, string];
    await tmux('resize-window', '-t', relevoWindow, '-x', '160', '-y', '30');
    const shown = await untilScreen(
      'both agents’ input boxes',
      (s) => boxRows(s, 'planner', 160).length === 24 && boxRows(s, 'builder', 160).filter((r) => r.startsWith('❯')).length === 1,
      30_000,
      relevoPane,
    );
    expect(await one('display-message', '-p', '-t', 'relevo:', '#{window_id}')).toBe(relevoWindow);
    for (const [role, pane] of [
      ['planner', planner],
      ['builder', builder],
    ] as const) {
      const rows = await rowsOf(tmux, pane);
      expect(rows).toHaveLength(60);
      expect(promptRow(rows)).toBeGreaterThanOrEqual(24);
      const box = boxRows(shown, role, 160);
      expect(box).toEqual(bottomOf(rows, 78, 24));
      expect(box.join('\n')).toContain('✻ relevo sim-agent');
    }
  }, 90_000);
});
