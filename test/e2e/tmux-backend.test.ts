/**
 * Agents in panes of a real tmux server: relevo attaches to them (`--tmux`) or starts them there
 * (`--tmux-launch`), reads their screens with capture-pane and types with paste-buffer / send-keys.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { BIN, onlyRunJournal, parseJournal, recorded, relevo, simArgv, tempDir } from '../helpers/cli.js';

const GOAL = 'Add pagination to /users with tests';
const sockets: string[] = [];
let serial = 0;

function server() {
  const socket = `relevo-b-${process.pid}-${++serial}`;
  sockets.push(socket);
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { reject: false });
  return { socket, tmux };
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
});

const sim = (role: Role, cwd: string) => simArgv(role, '150', '--record', join(cwd, `${role}.record`));

const received = (cwd: string, role: Role): string[] => recorded(join(cwd, `${role}.record`));

/** A tmux server with the simulated planner in %0 and the builder in %1, 60 columns each. */
async function agentsInTmux() {
  const cwd = tempDir('relevo-tmux-');
  const { socket, tmux } = server();
  expect((await tmux('new-session', '-d', '-s', 'work', '-x', '121', '-y', '40', '-c', cwd, '--', ...sim('planner', cwd))).exitCode).toBe(
    0,
  );
  expect((await tmux('split-window', '-h', '-t', 'work', '-c', cwd, '--', ...sim('builder', cwd))).exitCode).toBe(0);
  // Both simulators drawn.
  for (let i = 0; i < 100; i++) {
    const panes = (await tmux('list-panes', '-a', '-F', '#{pane_current_command}')).stdout.split('\n');
    const drawn = (await tmux('capture-pane', '-p', '-t', '%1')).stdout.includes('relevo sim-agent');
    if (panes.every((c) => c === 'node') && drawn) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { cwd, socket, tmux };
}

const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);

describe('tmux backend', () => {
  it('--tmux attaches to running agents: exact handoffs (long lines re-joined), role prompt inline, agents left running', async () => {
    const { cwd, socket, tmux } = await agentsInTmux();
    const result = await relevo(
      ['--headless', '--tmux', '--tmux-socket', socket, '--planner-pane', '%0', '--builder-pane', '%1', '--goal', GOAL],
      cwd,
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const lines = parseJournal(result.stdout);
    expect(lines[0]).toMatchObject({
      type: 'run_started',
      tmux_socket: socket,
      planner: { profile: 'sim', pane: 'tmux %0' },
      builder: { profile: 'sim', pane: 'tmux %1' },
    });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    // Attached agents were started without relevo's flags: the role prompt opens their first message.
    const first = received(cwd, 'builder')[0]!;
    expect(first).toMatch(/^# relevo: builder\n/);
    // The 60-column panes wrapped the step's long context line; it arrives as the planner wrote it.
    const { runId } = onlyRunJournal(join(cwd, '.relevo'));
    const body = (
      JSON.parse(readFileSync(join(cwd, '.relevo', 'runs', runId, 'planner/checkpoints/1/handoff.json'), 'utf8')) as { body: string }
    ).body;
    expect(body).toMatch(
      /^Step 1 of 3: Write the failing tests — Add pagination to \/users with tests\nContext: this is step 1 of 3 towards the goal above; keep the change small and reviewable, touch only the files this step needs, leave unrelated code alone, and write down any doubt in your report so the planner can adjust the next step before sending it\.\nDo:/,
    );
    expect(first.endsWith(`[relevo ronda 1 · de planner]\n${body}`)).toBe(true);
    expect(of(lines, 'delivered').map((d) => `${d.from}>${d.to}:${d.round}`)).toEqual([
      'relevo>planner:0',
      'planner>builder:1',
      'builder>planner:1',
      'planner>builder:2',
      'builder>planner:2',
      'planner>builder:3',
      'builder>planner:3',
    ]);
    // relevo lets attached agents be: both still run.
    expect((await tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_current_command} #{pane_dead}')).stdout).toBe('%0 node 0\n%1 node 0');
  });

  it('a pause says where the agents live on (their tmux panes, the socket) and leaves them running', async () => {
    const { cwd, socket, tmux } = await agentsInTmux();
    const result = await relevo(
      [
        '--headless',
        '--tmux',
        '--tmux-socket',
        socket,
        '--planner-pane',
        '%0',
        '--builder-pane',
        '%1',
        '--goal',
        GOAL,
        '--max-rounds',
        '1',
      ],
      cwd,
    );
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(
      new RegExp(`^relevo-tui: paused: max_rounds .*; the agents live on: planner in tmux %0, builder in tmux %1 \\(tmux -L ${socket}\\)$`),
    );
    expect((await tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_current_command} #{pane_dead}')).stdout).toBe('%0 node 0\n%1 node 0');
  });

  it('--tmux-launch starts both agents in a new tmux session and relays to done', async () => {
    const cwd = tempDir('relevo-tmux-');
    const { socket, tmux } = server();
    const result = await relevo(['--headless', '--tmux-launch', '--tmux-socket', socket, '--demo'], cwd);
    expect(result.exitCode).toBe(0);
    const lines = parseJournal(result.stdout);
    const runId = (lines[0] as Extract<JournalLine, { type: 'run_started' }>).run_id;
    expect(lines[0]).toMatchObject({ planner: { pane: 'tmux %0' }, builder: { pane: 'tmux %1' } });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    expect((await tmux('list-panes', '-a', '-F', '#{session_name} #{pane_id} #{pane_current_command}')).stdout).toBe(
      `relevo-${runId} %0 node\nrelevo-${runId} %1 node`,
    );
    // Each pane has the size of relevo's box for it (--headless: 120×40), input box and all.
    expect((await tmux('list-panes', '-a', '-F', '#{pane_width}x#{pane_height}')).stdout).toBe('120x40\n120x40');
  });

  it('--tmux-launch inside tmux opens a new window of the current session', async () => {
    const cwd = tempDir('relevo-tmux-');
    const { tmux } = server();
    const out = join(cwd, 'journal.jsonl');
    // relevo itself runs in a tmux pane (so $TMUX is set), without --tmux-socket.
    const command = `'${process.execPath}' '${BIN}' --headless --tmux-launch --demo > '${out}' 2>&1; echo $? > '${out}.exit'`;
    expect((await tmux('new-session', '-d', '-s', 'mine', '-x', '200', '-y', '50', '-c', cwd, command)).exitCode).toBe(0);
    for (let i = 0; i < 600 && !existsSync(`${out}.exit`); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(`${out}.exit`, 'utf8').trim()).toBe('0');
    const lines = parseJournal(readFileSync(out, 'utf8'));
    const runId = (lines[0] as Extract<JournalLine, { type: 'run_started' }>).run_id;
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
    const windows = (await tmux('list-panes', '-s', '-t', 'mine', '-F', '#{window_name} #{pane_id}')).stdout.split('\n');
    expect(windows).toContain(`relevo-${runId} ${(lines[0] as { planner: { pane: string } }).planner.pane.slice(5)}`);
    expect(windows.filter((w) => w.startsWith(`relevo-${runId} `))).toHaveLength(2);
  });

  it('a killed relevo is resumed on the same tmux panes, which kept running', async () => {
    const { cwd, socket } = await agentsInTmux();
    const args = ['--headless', '--tmux', '--tmux-socket', socket, '--planner-pane', '%0', '--builder-pane', '%1', '--goal', GOAL];
    const killed = await relevo(args, cwd, { RELEVO_FAILPOINT: 'delivered:2' });
    expect(killed.signal).toBe('SIGKILL');
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.stderr).toBe('');
    expect(resumed.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(of(lines, 'run_resumed')[0]).toMatchObject({
      planner: { pane: 'tmux %0' },
      builder: { pane: 'tmux %1' },
      pending_kind: 'notice',
      pending_to: 'builder',
    });
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });

  it.each([
    [['--tmux', '--planner-pane', '%0'], 'relevo-tui: --builder-pane: required with --tmux (or use --tmux-launch)'],
    [['--planner-pane', '%0', '--builder-pane', '%1'], 'relevo-tui: --planner-pane: needs --tmux or --herdr'],
    [['--tmux', '--planner-pane', '%0', '--builder-pane', '%0'], "relevo-tui: --builder-pane: the same pane as the planner's (%0)"],
    [['--tmux-launch', '--planner-pane', '%0'], 'relevo-tui: --planner-pane: not with --tmux-launch, which opens new panes'],
  ])('usage %j: exit 2, one line', async (args, line) => {
    const result = await relevo(['--headless', '--goal', 'g', ...args], tempDir());
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(line);
  });

  it('says what is wrong with the tmux side: no server, no such pane, a shell instead of an agent', async () => {
    const cwd = tempDir();
    const { socket, tmux } = server();
    const attach = (planner: string, builder: string) =>
      relevo(['--headless', '--goal', 'g', '--tmux', '--tmux-socket', socket, '--planner-pane', planner, '--builder-pane', builder], cwd);
    const none = await attach('%0', '%1');
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(
      new RegExp(`^relevo-tui: --planner-pane: tmux: (no server running on .*${socket}|error connecting to .*${socket}.*)$`),
    );
    expect((await tmux('new-session', '-d', '-s', 's', '-x', '80', '-y', '24', '--', '/bin/sh')).exitCode).toBe(0);
    const missing = await attach('%0', '%7');
    expect(missing.stderr).toBe('relevo-tui: --planner-pane: tmux pane %0 runs sh, not an agent: start the agent in it first');
    expect((await tmux('split-window', '-t', 's', '--', ...sim('builder', cwd))).exitCode).toBe(0);
    const noPane = await attach('%1', '%7');
    expect(noPane.exitCode).toBe(2);
    expect(noPane.stderr).toBe("relevo-tui: --builder-pane: tmux: can't find pane: %7");
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
  });
});
