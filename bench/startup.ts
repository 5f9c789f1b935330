/**
 * Start-up: (a) the TUI's first painted frame with `--demo` (spawned in the bench's own 160×40
 * pseudo-terminal, stopped at the output that paints the status band's `relevo ·`), against a tmux
 * client starting a private server with a session attached (stopped at the output that paints its
 * status line), and beside the floor of any Ink TUI (bench/ink-floor.tsx, bundled as relevo is);
 * (b) `--help` and `--version` run to exit, against `node -e 0`. Interleaved, STARTS_PER_REP times a
 * repetition (one in the quick smoke): a start takes well under a second, and single starts spread
 * enough that a median of three moved with them.
 */
import { execa } from 'execa';
import { tempDir } from './cleanup.js';
import { type Figure, median } from './figure.js';
import { type FloorModules, hasInkFloor, openInkFloor } from './floor.js';
import { BIN, openTerminal } from './spawn.js';
import { TmuxServer, tmuxVersion } from './tmux.js';

const TIMEOUT_MS = 20_000;
/** The status band's start, on the first frame relevo paints (`relevo · planner: sim · starting ▸ …`). */
const BAND = 'relevo ·';

/** ms from spawning the TUI to the output that paints its status band. */
async function relevoFirstFrame(): Promise<number> {
  const dir = tempDir('relevo-bench-start-');
  const tui = openTerminal([process.execPath, BIN, '--demo', '--state-dir', `${dir.path}/.relevo`], { cwd: dir.path });
  try {
    return (await tui.until((t) => t.includes(BAND), TIMEOUT_MS, `the band (${BAND})`)) - tui.started;
  } finally {
    await tui.kill(3000);
    dir.remove();
  }
}

/** ms from spawning a tmux client (which starts its server) to the output that paints the status line. */
async function tmuxFirstFrame(): Promise<number> {
  const tmux = new TmuxServer();
  const dir = tempDir('relevo-bench-start-');
  const client = openTerminal(tmux.newSession('first', ['cat']), { cwd: dir.path });
  try {
    return (await client.until((t) => t.includes('[first]'), TIMEOUT_MS, "tmux's status line")) - client.started;
  } finally {
    tmux.kill();
    await client.kill(1000);
    dir.remove();
  }
}

/** ms from spawning the bundled Ink floor (loading relevo's first frame's modules first, with `modules`) to the output that paints its one line. */
async function inkFirstFrame(modules?: FloorModules): Promise<number> {
  const floor = await openInkFloor(modules ? { modules } : {});
  await floor.close();
  return floor.firstFrameMs;
}

async function wall(argv: readonly string[]): Promise<number> {
  const t0 = performance.now();
  await execa(argv[0]!, argv.slice(1), { stdin: 'ignore' });
  return performance.now() - t0;
}

const figure = (key: string, what: string, relevo: number[], name: string, base: number[], limit: number): Figure => ({
  key,
  what,
  unit: 'ms',
  relevo: median(relevo),
  samples: relevo,
  ...(base.length > 0 ? { baseline: { name, value: median(base), samples: base } } : { note: `no baseline: ${name} did not run` }),
  goal: { text: `≤ ${limit} ms`, met: median(relevo) <= limit },
});

/** The figure with `more` after its own note (a missing baseline's, if any). */
const withNote = (f: Figure, more: string): Figure => ({ ...f, note: f.note === undefined ? more : `${f.note}; ${more}` });

/** The goal for the first frame, ms. */
const FIRST_FRAME_MS = 250;

/** Starts of each kind per repetition. */
const STARTS_PER_REP = 3;

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const frame: number[] = [];
  const tmuxFrame: number[] = [];
  const help: number[] = [];
  const version: number[] = [];
  const bare: number[] = [];
  const inkFrame: number[] = [];
  const codeFrame: number[] = [];
  const hasTmux = (await tmuxVersion()) !== null;
  const hasFloor = hasInkFloor();
  // Untimed warm-up: the first start after a build reads everything from disk (not worth it in the quick smoke).
  if (!opts.quick) await wall([process.execPath, BIN, '--version']);
  for (let i = 0; i < opts.reps * (opts.quick ? 1 : STARTS_PER_REP); i++) {
    frame.push(await relevoFirstFrame());
    if (hasTmux) tmuxFrame.push(await tmuxFirstFrame());
    if (hasFloor) {
      inkFrame.push(await inkFirstFrame());
      codeFrame.push(await inkFirstFrame('frame'));
    }
    help.push(await wall([process.execPath, BIN, '--help']));
    bare.push(await wall([process.execPath, '-e', '0']));
    version.push(await wall([process.execPath, BIN, '--version']));
    bare.push(await wall([process.execPath, '-e', '0']));
  }
  const samples = (ms: readonly number[]) => `${median(ms).toFixed(0)} ms (samples ${ms.map((x) => x.toFixed(0)).join(', ')})`;
  const floor = hasFloor
    ? `floor: an Ink app (Node, React, Ink, yoga; bundled and loaded as relevo is) paints one line in ${samples(inkFrame)}; loading the modules relevo's first frame needs first (none run), in ${samples(codeFrame)}; relevo's frame also reads its flags and settings and lays out its chrome (band, key hint, two pane frames); the agents start after it`
    : 'floor: not measured (dist/bench/ink-floor/ not built)';
  const first = withNote(
    figure('startup.first-frame', 'first painted frame of --demo (160×40)', frame, 'tmux new-session attached', tmuxFrame, FIRST_FRAME_MS),
    floor,
  );
  // relevo's own code, loaded before the first frame, takes the floor past the goal.
  const floorAbove = !first.goal.met && codeFrame.length > 0 && median(codeFrame) > FIRST_FRAME_MS;
  return [
    floorAbove ? { ...first, goal: { ...first.goal, floorAbove } } : first,
    figure('startup.help', '--help, spawn to exit', help, 'node -e 0', bare, 120),
    figure('startup.version', '--version, spawn to exit', version, 'node -e 0', bare, 120),
  ];
}
