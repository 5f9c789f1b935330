// The sim's event loop on in-memory streams, rendered by a headless xterm.
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/sim/agent.js';
import { parseSimArgs } from '../../src/sim/options.js';
import { NBSP } from '../../src/sim/screen.js';
import { type Block, stepText } from '../../src/sim/script.js';
import { VirtualScreen } from '../helpers/pty/screen.js';
import { SIM_REPORT_1, simPermissionPrompt } from '../helpers/sim-screen.js';
import { sleep, until } from '../helpers/until.js';

const RULE = /^─+$/;

interface Sim {
  screen: VirtualScreen;
  send(data: string): void;
  resize(cols: number): void;
  exit: Promise<number>;
  stderr(): string;
  /** Messages passed to the record hook. */
  records: string[];
  /** Blocks passed to the printed hook, at the end of each turn that printed one. */
  printed: Block[];
  until(text: string | RegExp, timeoutMs?: number): Promise<void>;
  text(): Promise<string>;
}

const running: Sim[] = [];

function startSim(args: string[], cols = 80, rows = 30): Sim {
  const parsed = parseSimArgs(args);
  if (!parsed.ok) throw new Error(parsed.error);
  const screen = new VirtualScreen(cols, rows);
  const stdin = new PassThrough();
  const stdout = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        screen.write(chunk.toString('utf8'));
        callback();
      },
    }),
    { columns: cols },
  );
  let stderr = '';
  const records: string[] = [];
  const printed: Block[] = [];
  const exit = runAgent(parsed.options, {
    stdin,
    stdout,
    stderr: { write: (t: string) => (stderr += t) },
    cwd: '/tmp/project',
    record: (message) => records.push(message),
    printed: (block) => printed.push(block),
  });
  const text = async (): Promise<string> => {
    await screen.flush();
    return screen.text();
  };
  const sim: Sim = {
    screen,
    send: (data) => stdin.write(data),
    resize(newCols) {
      screen.term.resize(newCols, rows);
      stdout.columns = newCols;
      stdout.emit('resize');
    },
    exit,
    stderr: () => stderr,
    records,
    printed,
    text,
    until: (wanted, timeoutMs = 5000) => screen.waitForText(wanted, timeoutMs),
  };
  running.push(sim);
  return sim;
}

afterEach(async () => {
  for (const sim of running.splice(0)) {
    sim.send('\x15'); // ignored control byte
    sim.send('\x03\x03');
    await sim.exit;
  }
});

/** The bottom rows of the screen: the live region. */
async function region(sim: Sim, rows: number): Promise<string[]> {
  return (await sim.text()).split('\n').slice(-rows);
}

const paste = (text: string): string => `\x1b[200~${text}\x1b[201~`;

describe('sim agent loop', () => {
  it('draws the banner and the idle input box', async () => {
    const sim = startSim(['--role', 'builder', '--append-system-prompt', 'hello'], 60);
    await sim.until('? for shortcuts');
    expect((await sim.text()).split('\n')).toEqual([
      '✻ relevo sim-agent · builder',
      '  simulated agent for relevo-tui demos and tests',
      '  cwd: /tmp/project',
      '  system prompt: appended (5 chars)',
      '',
      '─'.repeat(60),
      `❯${NBSP}`,
      '─'.repeat(60),
      '  ? for shortcuts',
    ]);
    expect(sim.screen.cursor()).toEqual({ row: 6, col: 2, line: `❯${NBSP}` });
    expect(sim.screen.titles).toEqual(['✳ relevo sim · builder']);
    sim.send('héllo');
    await sim.until(`❯${NBSP}héllo`);
    expect(sim.screen.cursor().col).toBe(7);
  });

  it('answers a relayed handoff with spinner, streamed reply and footer', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '300']);
    await sim.until('? for shortcuts');
    sim.send(paste('[relevo ronda 1 · de planner]\nStep 1 of 3: Write the failing tests — X'));
    await sim.until('[Pasted text #1 +1 lines]');
    sim.send('\r');
    await sim.until(/[·✢*✶✻✽] Thinking… \(0s\)/);
    expect(await region(sim, 2)).toEqual(['─'.repeat(80), '  esc to interrupt']);
    await sim.until('✻ Worked for 0s');
    const text = await sim.text();
    expect(text).toContain(
      [
        '❯ [relevo ronda 1 · de planner]',
        '  Step 1 of 3: Write the failing tests — X',
        '',
        ...SIM_REPORT_1,
        '',
        '✻ Worked for 0s',
        '',
        '─'.repeat(80),
        `❯${NBSP}`,
        '─'.repeat(80),
        '  ? for shortcuts',
      ].join('\n'),
    );
    expect(text).not.toContain('Thinking');
    expect(sim.screen.titles).toContain('⠂ relevo sim · builder');
    expect(sim.screen.titles).toContain('⠐ relevo sim · builder');
    expect(sim.screen.title).toBe('✳ relevo sim · builder');
  });

  it('shows a permission prompt and writes a denial', async () => {
    const sim = startSim(['--think-ms', '20', '--misbehave', 'permission:1']);
    await sim.until('? for shortcuts');
    sim.send('Goal: ship it\r');
    await sim.until('Esc to cancel · Enter to confirm');
    expect(await region(sim, 7)).toEqual(simPermissionPrompt(80));
    expect(sim.screen.title).toBe('✳ relevo sim · planner');
    sim.send('2');
    await sim.until('? for shortcuts');
    const text = await sim.text();
    expect(text).toContain('❯ Goal: ship it\n\n  ⎿ Denied\n\n● Permission denied; nothing done.\n\n✻ Worked for 0s');
    expect(text).not.toContain('<handoff>');
    // Nothing was done: the goal message can be sent again.
    sim.send('Goal: ship it\r');
    await sim.until('Step 1 of 3: Write the failing tests — ship it');
  });

  it('continues with the normal reply when the permission is granted', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '20', '--misbehave', 'permission:1']);
    await sim.until('? for shortcuts');
    sim.send(`${paste('[relevo ronda 3 · de planner]\nDo it')}\r`);
    await sim.until('Do you want to proceed?');
    sim.send('\r');
    await sim.until('✻ Worked for');
    expect(await sim.text()).toContain('● Working on round 3.\n\n  <handoff>\n  Round 3 report\n  Did: Do it');
  });

  it('is interrupted by Esc while thinking', async () => {
    const sim = startSim(['--think-ms', '5000']);
    await sim.until('? for shortcuts');
    sim.send('Goal: slow\r');
    await sim.until('esc to interrupt');
    sim.send('\x1b');
    await sim.until('⎿ Interrupted · What should the sim do instead?');
    await sim.until('? for shortcuts');
    const text = await sim.text();
    expect(text).not.toContain('●');
    expect(text).not.toContain('Thinking');
    expect(sim.screen.title).toBe('✳ relevo sim · planner');
  });

  it('ignores arrows and focus events, and Esc when idle', async () => {
    const sim = startSim(['--think-ms', '0']);
    await sim.until('? for shortcuts');
    sim.send('ab\x1b[A\x1b[I\x1b[Oc');
    sim.send('\x1b');
    await sleep(60);
    sim.send('d');
    await sim.until(`❯${NBSP}abcd`);
  });

  it('queues a message sent while busy and answers it afterwards', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '150']);
    await sim.until('? for shortcuts');
    sim.send('first\r');
    await sim.until('esc to interrupt');
    sim.send('second');
    await sim.until(`❯${NBSP}second`);
    sim.send('\r');
    await sim.until('● You said: second');
    const text = await sim.text();
    expect(text.indexOf('● You said: first')).toBeLessThan(text.indexOf('❯ second'));
    expect(text.match(/✻ Worked for/g)).toHaveLength(2);
    expect(sim.records).toEqual(['first', 'second']);
  });

  it('records every message as received, echoing it trimmed', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '0']);
    await sim.until('? for shortcuts');
    sim.send(`${paste('\r\n[relevo ronda 2 · de planner]\r\nbody  \n')}\r`);
    await sim.until('● Working on round 2.');
    sim.send('   \r');
    await sleep(30);
    expect(sim.records).toEqual(['\n[relevo ronda 2 · de planner]\nbody  \n']);
    expect(await sim.text()).toContain('❯ [relevo ronda 2 · de planner]\n  body\n\n●');
  });

  it('reports each block it printed at the end of its turn, its body as on screen without the indents', async () => {
    const sim = startSim(['--think-ms', '0', '--steps', '2'], 320);
    await sim.until('? for shortcuts');
    sim.send('Goal: page\tthe users\r');
    await sim.until('✻ Worked for');
    // A tab in the goal is printed as four spaces: the body is what the screen shows (wide enough not to wrap).
    const step1 = stepText(1, 2, 'page    the users');
    expect(sim.printed).toEqual([{ tag: 'handoff', body: step1 }]);
    expect(await sim.text()).toContain(`<handoff>\n${step1.replace(/^/gm, '  ')}\n  </handoff>`);
    sim.send(`${paste('[relevo ronda 1 · de builder]\nreport 1')}\r`);
    await until('the second handoff', () => sim.printed.length === 2);
    sim.send(`${paste('[relevo ronda 2 · de builder]\nreport 2')}\r`);
    await until('the done summary', () => sim.printed.length === 3);
    expect(sim.printed.slice(1)).toEqual([
      { tag: 'handoff', body: stepText(2, 2, 'page    the users') },
      { tag: 'done', body: 'Goal met: page    the users in 2 rounds.' },
    ]);
  });

  it('reports no block for a turn that printed none: a plain answer, a denial, an interrupted turn', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '20', '--misbehave', 'permission:1']);
    await sim.until('? for shortcuts');
    sim.send(`${paste('[relevo ronda 1 · de planner]\nDo it')}\r`);
    await sim.until('Do you want to proceed?');
    sim.send('2');
    await sim.until('● Permission denied; nothing done.');
    sim.send('hello\r');
    await sim.until('● You said: hello');
    await sim.until('✻ Worked for 0s\n\n─');
    const slow = startSim(['--think-ms', '5000']);
    await slow.until('? for shortcuts');
    slow.send('Goal: slow\r');
    await slow.until('esc to interrupt');
    slow.send('\x1b');
    await slow.until('⎿ Interrupted');
    expect([...sim.printed, ...slow.printed]).toEqual([]);
  });

  it('exits with code 1 during the thinking of an exit turn', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '40', '--misbehave', 'exit:2']);
    await sim.until('? for shortcuts');
    sim.send('one\r');
    await sim.until('● You said: one');
    sim.send('two\r');
    expect(await sim.exit).toBe(1);
    expect(await sim.text()).not.toContain('● You said: two');
    expect(sim.stderr()).toBe('sim-agent: exiting with code 1 (--misbehave exit:2)\n');
  });

  it('Ctrl-C clears the input first, then exits 0; Ctrl-D exits on empty input', async () => {
    const sim = startSim([]);
    await sim.until('? for shortcuts');
    sim.send('draft');
    await sim.until('draft');
    sim.send('\x03');
    await sim.until(new RegExp(`❯${NBSP}\\n`));
    sim.send('\x03');
    expect(await sim.exit).toBe(0);

    const other = startSim([]);
    await other.until('? for shortcuts');
    other.send('x\x04');
    await sleep(30);
    other.send('\x7f\x04');
    expect(await other.exit).toBe(0);
  });

  it('edits multi-line input: LF inserts a newline, backspace deletes', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '0']);
    await sim.until('? for shortcuts');
    sim.send('abc\ndef');
    await sim.until('[Pasted text #1 +1 lines]');
    sim.send('\x7f\x7f\x7f\x7f');
    await sim.until(`❯${NBSP}abc\n`);
    sim.send('\n\x7fX\r');
    await sim.until('● You said: abcX');
  });

  it.each([30, 15])('redraws the live region at the new width after a resize (%i rows)', async (rows) => {
    const sim = startSim(['--role', 'builder', '--think-ms', '0'], 100, rows);
    await sim.until('? for shortcuts');
    sim.send(`${'long '.repeat(50)}\r`);
    await sim.until('✻ Worked for');
    for (const cols of [60, 40, 90, 120, 30]) {
      sim.resize(cols);
      await sleep(20);
      const lines = (await sim.text()).split('\n');
      expect(lines.filter((line) => RULE.test(line))).toEqual(['─'.repeat(cols), '─'.repeat(cols)]);
      expect(lines.slice(-4)).toEqual(['─'.repeat(cols), `❯${NBSP}`, '─'.repeat(cols), '  ? for shortcuts']);
      expect(lines[0]).toBe('✻ relevo sim-agent · builder');
      expect(lines[lines.length - 6]).toBe('✻ Worked for 0s');
    }
  });

  it('redraws the busy region after a resize while thinking', async () => {
    const sim = startSim(['--role', 'builder', '--think-ms', '400'], 80, 12);
    await sim.until('? for shortcuts');
    sim.send('hello\r');
    await sim.until('esc to interrupt');
    sim.resize(50);
    await sleep(150);
    let lines = (await sim.text()).split('\n');
    expect(lines.slice(-5, -1)).toEqual([expect.stringMatching(/Thinking…/), '─'.repeat(50), `❯${NBSP}`, '─'.repeat(50)]);
    expect(lines.filter((line) => RULE.test(line))).toHaveLength(2);
    await sim.until('✻ Worked for');
    lines = (await sim.text()).split('\n');
    expect(lines.slice(-10)).toEqual([
      '❯ hello',
      '',
      '● You said: hello',
      '',
      '✻ Worked for 0s',
      '',
      '─'.repeat(50),
      `❯${NBSP}`,
      '─'.repeat(50),
      '  ? for shortcuts',
    ]);
  });
});
