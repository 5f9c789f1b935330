/**
 * The throughput bench's floor, "the bare stack": node-pty and @xterm/headless in one process and
 * nothing else — each flood agent in a pseudo-terminal, every chunk written to a plain headless
 * Terminal of its own, stopped when xterm has parsed the chunk that holds the marker. With two
 * panes, both terminals parse on this one thread: the floor one thread reaches, whatever is built
 * on it — or each on a worker thread of its own (parse-worker.ts): what two threads reach. Like
 * parse-worker.ts and ink-floor.tsx, it imports @xterm/headless itself (besides src/pty/screen.ts
 * and the tests' virtual screen, nothing else does): the floors must not go through relevo's Screen.
 */
import { Worker } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import { OutputHistory } from '../src/pty/output-history.js';
import { type IPty, ptyDriver } from '../src/pty/pty-driver.js';
import { floodMarker, readyLine } from './flood-text.js';
import { Workdir } from './workdir.js';

const { Terminal } = xtermHeadless;
type XTerminal = InstanceType<typeof Terminal>;

/** Where a pane's output is parsed: on this thread, on a worker thread of its own, or not at all. */
export type Parse = 'main' | 'worker' | 'none';

/** Parses one pane's chunks; `done` is called once the chunk is parsed. */
type Parser = { write(data: string, done?: () => void): void; dispose(): void };

/** A worker's unparsed backlog (characters) at which its pty is paused, and below which it resumes. */
const HIGH_WATER = 1 << 20;
const LOW_WATER = 1 << 18;

/**
 * `pty`'s output parser. On a worker, every chunk is acknowledged once parsed, and the pty is
 * paused while more than HIGH_WATER characters wait (flow control, as xterm.js asks of a
 * terminal fed faster than it parses): without it the worker's queue, and the process, grow
 * without bound while a flood outruns the parser.
 */
function parser(parse: Parse, cols: number, rows: number, pty: IPty): Parser | undefined {
  if (parse === 'none') return undefined;
  if (parse === 'main') {
    const term: XTerminal = new Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
    // Each chunk parsed as it comes, as relevo's Screen does (src/pty/screen.ts says why).
    const write = (data: string, done?: () => void) => {
      term.input('', true);
      term.write(data, done);
    };
    return { write, dispose: () => term.dispose() };
  }
  // The chunk is copied to the worker (structured clone), as a Screen living there would get it.
  const worker = new Worker(new URL('./parse-worker.js', import.meta.url));
  const waiting = new Map<number, { size: number; done: (() => void) | undefined }>();
  let next = 0;
  let backlog = 0;
  let paused = false;
  worker.on('message', (id: number) => {
    const chunk = waiting.get(id);
    waiting.delete(id);
    backlog -= chunk?.size ?? 0;
    chunk?.done?.();
    if (paused && backlog < LOW_WATER) {
      paused = false;
      pty.resume();
    }
  });
  worker.postMessage({ cols, rows });
  return {
    write(data, done) {
      waiting.set(next, { size: data.length, done });
      worker.postMessage({ data, id: next++ });
      backlog += data.length;
      if (!paused && backlog > HIGH_WATER) {
        paused = true;
        pty.pause();
      }
    },
    dispose: () => void worker.terminate(),
  };
}

type Flood = {
  readonly pty: IPty;
  readonly term: Parser | undefined;
  readonly ready: Promise<void>;
  /** Resolves with the time xterm had parsed the marker of burst `round` (from 1). */
  parsed(round: number): Promise<number>;
};

/**
 * A flood agent tagged `tag` in a pseudo-terminal, read into a headless terminal of `cols`×`rows`
 * on this thread or a worker's — or, with `parse` 'none', only read: what the pseudo-terminals and
 * the flood agents reach alone.
 */
function flood(dir: Workdir, tag: string, bytes: number, cols: number, rows: number, parse: Parse, logged: boolean): Flood {
  const history = logged ? new OutputHistory() : undefined;
  const [file, ...args] = dir.agent('flood', tag, bytes);
  const pty = ptyDriver().spawn(file!, args, {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: dir.path,
    env: { ...process.env, LANG: 'C.UTF-8' } as Record<string, string>,
  });
  const term = parser(parse, cols, rows, pty);
  // Round 0 waits for the ready line; round n for the marker of the n-th burst.
  let round = 0;
  let waiting = readyLine(tag);
  let tail = '';
  let signalled = () => {};
  const ready = new Promise<void>((resolve) => (signalled = resolve));
  const waits = new Map<number, (at: number) => void>();
  pty.onData((read) => {
    const data = history ? history.write(read) : read;
    const seen = tail + data;
    tail = seen.slice(-64);
    if (!seen.includes(waiting)) {
      term?.write(data);
      return;
    }
    const done = round === 0 ? () => signalled() : waits.get(round);
    round++;
    waiting = floodMarker(tag, round);
    tail = '';
    if (term) term.write(data, () => done?.(performance.now()));
    else done?.(performance.now());
  });
  return { pty, term, ready, parsed: (n) => new Promise<number>((resolve) => waits.set(n, resolve)) };
}

/** A bare stack kept open: its floods warmed up, ready to flood again and again. */
export type BareStack = {
  /** ms from the signal until xterm has parsed a whole burst in every pane, every pane signalled at once. */
  flood(): Promise<number>;
  close(): void;
};

/**
 * `panes` flood agents of `bytes` a burst, each in a pseudo-terminal with a headless terminal of
 * `cols`×`rows`, on this thread or — with `parse` 'worker' — on a worker thread of its own each;
 * with `parse` 'none', only read; with `logged`, each chunk goes through relevo's output history
 * (pane.ts does so) before xterm. Resolves once the first pane has flooded once, unmeasured, as
 * every system under test does (throughput.ts).
 */
export async function openBareStack(
  bytes: number,
  cols: number,
  rows: number,
  panes: 1 | 2 = 1,
  parse: Parse = 'main',
  logged = false,
): Promise<BareStack> {
  const dir = new Workdir();
  const floods = Array.from({ length: panes }, (_, i) => flood(dir, `bare${i}`, bytes, cols, rows, parse, logged));
  const close = () => {
    for (const f of floods) {
      f.pty.kill();
      f.term?.dispose();
    }
    dir.release();
  };
  const limit = <T>(p: Promise<T>, what: string) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`bare stack: ${what} timed out`)), 180_000).unref()),
    ]);
  // The burst each pane floods next (from 1).
  const rounds = floods.map(() => 1);
  const burst = async (which: readonly Flood[], what: string) => {
    const ends = which.map((f) => f.parsed(rounds[floods.indexOf(f)]!++));
    const t0 = performance.now();
    for (const f of which) process.kill(f.pty.pid, 'SIGUSR1');
    return Math.max(...(await limit(Promise.all(ends), what))) - t0;
  };
  try {
    await limit(Promise.all(floods.map((f) => f.ready)), 'start');
    await burst([floods[0]!], 'warm-up flood');
  } catch (error) {
    close();
    throw error;
  }
  return { flood: () => burst(floods, 'flood'), close };
}

/** One measured flood of a fresh bare stack (see openBareStack), closed after. */
export async function bareFlood(...args: Parameters<typeof openBareStack>): Promise<number> {
  const stack = await openBareStack(...args);
  try {
    return await stack.flood();
  } finally {
    stack.close();
  }
}

/**
 * The echo bench's floor, run as its own program (bare-relay.ts) in the bench's terminal: `left`
 * and `right` in pseudo-terminals with a headless terminal each, in one Node process and nothing
 * else. The keys typed into it go to `left`, whose output is written out as it is once xterm has
 * parsed it (no painting); `right` is parsed too, its output shown up to its first line (its ready
 * line) only. With `parse` 'worker', each headless terminal is on a worker thread of its own, as a
 * Screen moved off the main thread would be: what an echo costs then; with 'none', nothing is
 * parsed: what Node's own reads and writes cost. Ends, with both agents, on SIGHUP or SIGTERM or
 * when either agent exits.
 */
export function bareRelay(left: readonly string[], right: readonly string[], cols: number, rows: number, parse: Parse = 'main'): void {
  const panes = [left, right].map(([file, ...args]) => {
    const pty = ptyDriver().spawn(file!, args, {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: process.cwd(),
      env: { ...process.env, LANG: 'C.UTF-8' } as Record<string, string>,
    });
    return { pty, term: parser(parse, cols, rows, pty) };
  });
  const [echo, other] = panes as [(typeof panes)[0], (typeof panes)[0]];
  const end = () => {
    for (const p of panes) {
      p.pty.kill();
      p.term?.dispose();
    }
    process.exit(0);
  };
  process.stdin.setRawMode?.(true);
  process.stdin.on('data', (data: Buffer) => echo.pty.write(data.toString('utf8')));
  const show = (data: string) => process.stdout.write(data);
  echo.pty.onData((data) => (echo.term ? echo.term.write(data, () => show(data)) : show(data)));
  let shown = true;
  other.pty.onData((data) => {
    other.term?.write(data);
    if (!shown) return;
    show(data);
    shown = !data.includes('\n');
  });
  for (const p of panes) p.pty.onExit(end);
  process.on('SIGHUP', end);
  process.on('SIGTERM', end);
}
