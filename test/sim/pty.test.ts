// The sim in a real pseudo-terminal, rendered by a headless xterm, run the way relevo-tui runs it
// (`relevo-tui sim-agent`; `npm test` builds dist/ before vitest runs).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';
import { BIN, printed, recorded, tempDir } from '../helpers/cli.js';
import { VirtualScreen } from '../helpers/pty/screen.js';
import { SIM_REPORT_1 } from '../helpers/sim-screen.js';
import { sleep } from '../helpers/until.js';

const NBSP = '\u00a0';

interface PtySim {
  screen: VirtualScreen;
  proc: pty.IPty;
  exit: Promise<number>;
  until(text: string): Promise<void>;
}

function spawnSim(args: string[], cols = 120, rows = 30): PtySim {
  const proc = pty.spawn(process.execPath, [BIN, 'sim-agent', ...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: tmpdir(),
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const screen = new VirtualScreen(cols, rows);
  proc.onData((data) => screen.write(data));
  const exit = new Promise<number>((resolveExit) => proc.onExit(({ exitCode }) => resolveExit(exitCode)));
  const until = (text: string): Promise<void> => screen.waitForText(text, 10_000);
  return { screen, proc, exit, until };
}

describe('sim-agent in a real pty', () => {
  it('relays a pasted handoff and answers with its own', async () => {
    const record = join(tempDir(), 'received.jsonl');
    const sim = spawnSim(['--role', 'builder', '--think-ms', '400', '--record', record]);
    await sim.until('? for shortcuts');
    await sim.screen.flush();
    expect(sim.screen.text()).toContain('✻ relevo sim-agent · builder');
    expect(sim.screen.cursor()).toMatchObject({ col: 2, line: `❯${NBSP}` });
    expect(sim.screen.title).toBe('✳ relevo sim · builder');

    sim.proc.write('\x1b[200~[relevo ronda 1 · de planner]\nStep 1 of 3: Write the failing tests — X\x1b[201~');
    await sleep(150);
    sim.proc.write('\r');
    await sim.until('esc to interrupt');
    await sim.until('✻ Worked for');
    await sim.screen.flush();

    const text = sim.screen.text();
    expect(text).toContain('❯ [relevo ronda 1 · de planner]\n  Step 1 of 3: Write the failing tests — X\n');
    expect(text).toContain(SIM_REPORT_1.join('\n'));
    expect(text.split('\n').slice(-4)).toEqual(['─'.repeat(120), `❯${NBSP}`, '─'.repeat(120), '  ? for shortcuts']);
    expect(sim.screen.titles).toContain('⠂ relevo sim · builder');
    expect(sim.screen.titles).toContain('⠐ relevo sim · builder');
    expect(sim.screen.title).toBe('✳ relevo sim · builder');

    sim.proc.write('\x03');
    expect(await sim.exit).toBe(0);
    // What it received, then the body of the handoff it printed (as on screen, without indents and tags).
    const report = SIM_REPORT_1.slice(3, -1).map((line) => line.slice(2));
    expect(readFileSync(record, 'utf8')).toBe(
      `${JSON.stringify({ text: '[relevo ronda 1 · de planner]\nStep 1 of 3: Write the failing tests — X' })}\n` +
        `${JSON.stringify({ handoff: report.join('\n') })}\n`,
    );
    expect(recorded(record)).toEqual(['[relevo ronda 1 · de planner]\nStep 1 of 3: Write the failing tests — X']);
    expect(printed(record)).toEqual({ handoffs: [report.join('\n')], done: [] });
  });

  it('exits 1 on an exit misbehaviour and 2 on a bad flag', async () => {
    const crashing = spawnSim(['--think-ms', '100', '--misbehave', 'exit:1']);
    await crashing.until('? for shortcuts');
    crashing.proc.write('Goal: crash\r');
    expect(await crashing.exit).toBe(1);
    await crashing.until('sim-agent: exiting with code 1 (--misbehave exit:1)');

    const bad = spawnSim(['--think-ms', '-1']);
    expect(await bad.exit).toBe(2);
    await bad.until('sim-agent: --think-ms: expected a non-negative integer');

    const unwritable = join(tmpdir(), `relevo-no-such-dir-${process.pid}`, 'r.jsonl');
    const badRecord = spawnSim(['--record', unwritable]);
    expect(await badRecord.exit).toBe(2);
    await badRecord.until(`sim-agent: --record: cannot write ${unwritable} (ENOENT)`);
  });
});
