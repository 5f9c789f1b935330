import { afterEach, describe, expect, it } from 'vitest';
import { type Capture, MirrorPane, type MirrorSource } from '../../src/pty/backends/mirror.js';
import { retryDelayMs, SshError } from '../../src/pty/backends/ssh.js';
import { until } from '../helpers/until.js';

/** A pane of a pretend multiplexer: the test sets what the next capture returns and sees what is sent. */
class FakeSource implements MirrorSource {
  readonly where = 'fake %1';
  sent: string[] = [];
  pasted: string[] = [];
  next: Capture;
  constructor(lines: string[]) {
    this.next = capture(lines);
  }
  async capture(): Promise<Capture> {
    const c = this.next;
    this.next = { ...c, scrolled: [] };
    return c;
  }
  async send(bytes: string): Promise<void> {
    this.sent.push(bytes);
  }
  async paste(text: string): Promise<void> {
    this.pasted.push(text);
  }
}

const capture = (lines: string[], extra: Partial<Capture> = {}): Capture => ({
  cols: 20,
  rows: 4,
  lines,
  scrolled: [],
  cursor: { x: 0, y: 0 },
  title: '',
  cwd: '/work/p',
  exit: null,
  ...extra,
});

const panes: MirrorPane[] = [];
afterEach(() => {
  for (const p of panes.splice(0)) p.dispose();
});

async function attach(source: FakeSource) {
  const pane = await MirrorPane.attach(source);
  panes.push(pane);
  return pane;
}

const updated = (pane: MirrorPane) =>
  new Promise<void>((resolve) => {
    const sub = pane.onUpdate(() => {
      sub.dispose();
      resolve();
    });
  });

describe('MirrorPane', () => {
  it('shows the captured screen, long lines wrapped again as one line, with the title and cwd', async () => {
    const source = new FakeSource(['● Done.', 'abcdefghijklmnopqrstuvwxyz', '❯']);
    source.next = { ...source.next, title: '✳ Claude Code' };
    const pane = await attach(source);
    expect(pane.screen.snapshot().viewport).toEqual(['● Done.', 'abcdefghijklmnopqrst', 'uvwxyz', '❯']);
    expect(pane.screen.snapshot().title).toBe('✳ Claude Code');
    expect(pane.screen.rowsFrom(0).map((r) => r.wrapped)).toEqual([false, false, true, false]);
    expect([pane.cwd, pane.owned, pane.where]).toEqual(['/work/p', false, 'fake %1']);
  });

  it('pushes the lines that scrolled off the pane into its scrollback, so a reply can be read whole', async () => {
    const source = new FakeSource(['one', 'two', 'three', 'four']);
    const pane = await attach(source);
    source.next = capture(['three', 'four', 'five', 'six'], { scrolled: ['one', 'two'] });
    pane.write('x'); // typing makes it look again at once
    await updated(pane);
    expect(pane.screen.snapshot().viewport).toEqual(['three', 'four', 'five', 'six']);
    expect(pane.screen.rowsFrom(0).map((r) => r.text)).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
    expect(source.sent).toEqual(['x']);
  });

  it('types and pastes through its source, never resizes, and reports the exit once the program is gone', async () => {
    const source = new FakeSource(['❯']);
    const pane = await attach(source);
    pane.paste('[relevo ronda 1 · de planner]\nstep', '\r');
    pane.resize(80, 24);
    expect([pane.screen.cols, pane.screen.rows]).toEqual([20, 4]);
    source.next = capture(['$'], { exit: { exitCode: 0 } });
    const exited = new Promise((resolve) => pane.onExit(resolve));
    expect(await exited).toEqual({ exitCode: 0 });
    expect(source.pasted).toEqual(['[relevo ronda 1 · de planner]\nstep']);
    expect(pane.exited).toEqual({ exitCode: 0 });
  });

  it('reports the pane gone (exit -1) when the source cannot read it any more', async () => {
    const source = new FakeSource(['❯']);
    const pane = await attach(source);
    source.capture = () => Promise.reject(new Error("can't find pane: %1"));
    const exited = new Promise((resolve) => pane.onExit(resolve));
    pane.write('\r');
    expect(await exited).toEqual({ exitCode: -1, reason: "can't find pane: %1" });
  });

  it('a look failing while an earlier one is still under way ends the pane once that one is applied, never as an unhandled rejection', async () => {
    const source = new FakeSource(['❯']);
    const pane = await attach(source);
    const real = source.capture.bind(source);
    let looks = 0;
    source.next = capture(['❯ x']);
    source.capture = () => {
      looks++;
      // The look right after typing is slow; the next ones fail at once: the server ended meanwhile.
      if (looks === 1) return new Promise((resolve) => setTimeout(() => resolve(real()), 300));
      return Promise.reject(new Error('server exited unexpectedly'));
    };
    const exited = new Promise((resolve) => pane.onExit(resolve));
    pane.write('x');
    expect(await exited).toEqual({ exitCode: -1, reason: 'server exited unexpectedly' });
    expect(looks).toBeGreaterThanOrEqual(2);
    expect(pane.screen.snapshot().viewport.join('\n')).toContain('❯ x');
  });

  it('keeps the last screen and says why while ssh cannot reach the pane, then goes on when it can', async () => {
    const source = new FakeSource(['❯ before']);
    const pane = await attach(source);
    const real = source.capture.bind(source);
    let looks = 0;
    source.capture = () => {
      looks++;
      return Promise.reject(new SshError('ssh: connect to host 10.1.1.2 port 22: Connection refused'));
    };
    pane.write('x'); // types nothing (the source is out of reach) and sees the failure at the next look
    await until('unreachable', () => pane.unreachable !== null);
    expect(pane.unreachable).toBe('ssh: connect to host 10.1.1.2 port 22: Connection refused');
    expect(pane.exited).toBeNull();
    expect(pane.retryAt).not.toBeNull();
    expect(pane.screen.snapshot().viewport.join('\n')).toContain('❯ before');
    await until('a look again after the back-off', () => looks >= 2);
    source.next = capture(['❯ after']);
    source.capture = real;
    await until('reachable again', () => pane.unreachable === null && pane.screen.snapshot().viewport.join('\n').includes('❯ after'));
    expect(pane.retryAt).toBeNull();
    expect(pane.exited).toBeNull();
  });
});

describe('retryDelayMs', () => {
  it('waits 1 s doubling to 30 s, with up to a fifth more at random', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelayMs(n, () => 0))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
    expect(retryDelayMs(1, () => 0.999)).toBeLessThanOrEqual(1200);
    expect(retryDelayMs(9, () => 0.999)).toBeLessThanOrEqual(36_000);
  });
});
