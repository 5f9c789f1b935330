/**
 * The throughput bench's floor, "the bare stack": node-pty and @xterm/headless in one process and
 * nothing else — the flood agent in a pseudo-terminal, every chunk written to a plain headless
 * Terminal, stopped when xterm has parsed the chunk that holds the marker. The one module besides
 * src/pty/screen.ts that imports @xterm/headless: the floor must not go through relevo's Screen.
 */
import xtermHeadless from '@xterm/headless';
import { ptyDriver } from '../pty/pty-driver.js';
import { floodMarker, readyLine } from './flood-text.js';
import { Workdir } from './workdir.js';

const { Terminal } = xtermHeadless;

/** ms from the signal until xterm has parsed all of a `bytes` flood, in a `cols`×`rows` terminal. */
export async function bareFlood(bytes: number, cols: number, rows: number): Promise<number> {
  const dir = new Workdir();
  const term = new Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
  const [file, ...args] = dir.agent('flood', 'bare', bytes);
  const pty = ptyDriver().spawn(file!, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: dir.path,
    env: { ...process.env, LANG: 'C.UTF-8' } as Record<string, string>,
  });
  try {
    const marker = floodMarker('bare', 1);
    let waiting = readyLine('bare');
    let tail = '';
    let signalled = () => {};
    let parsed = (_at: number) => {};
    const ready = new Promise<void>((resolve) => (signalled = resolve));
    const done = new Promise<number>((resolve) => (parsed = resolve));
    pty.onData((data) => {
      const seen = tail + data;
      const found = seen.includes(waiting);
      tail = seen.slice(-64);
      if (found && waiting === marker) term.write(data, () => parsed(performance.now()));
      else term.write(data);
      if (found && waiting !== marker) {
        waiting = marker;
        tail = '';
        signalled();
      }
    });
    const limit = (p: Promise<unknown>, what: string) =>
      Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`bare stack: ${what} timed out`)), 180_000).unref())]);
    await limit(ready, 'start');
    const t0 = performance.now();
    process.kill(pty.pid, 'SIGUSR1');
    return ((await limit(done, 'flood')) as number) - t0;
  } finally {
    pty.kill();
    term.dispose();
    dir.release();
  }
}
