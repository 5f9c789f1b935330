/**
 * `node dist/bench/render.js`: what painting pane screens onto the real terminal costs.
 *
 *  (a) one 98×46 pane receiving ~20 screen updates a second of agent-like output (a streaming
 *      reply line with SGR colours, a spinner row, an input box and a footer redrawn log-update
 *      style; the transcript scrolls a line every ~8 updates), painted at ≤ 30 fps into /dev/null
 *      with synchronous writes (so encoding and the syscall count, as they would on a TTY);
 *  (b) the same feed with no painter: the cost of parsing into xterm, which the app pays anyway;
 *  (c) two idle panes: CPU and the timers left running;
 *  (d) a flood (`cat` of a big coloured log) into one pane: frames stay capped, and how late a
 *      20 ms "keystroke" timer fires shows whether the other pane would still get its keys.
 *
 * CPU is process.cpuUsage() (user + system) over wall time, as % of one core. "painter" is also
 * measured directly around each paint. Options: --stream-s 8 --feed-s 4 --idle-s 5 --flood-s 2.
 */
import { parseArgs } from 'node:util';
import { Screen } from '../pty/screen.js';
import { PanePainter } from '../tui/paint/painter.js';
import { sleep } from './cleanup.js';
import { AgentFeed, COLS, floodChunk, ROWS, UPDATES_PER_S } from './feed.js';
import { cpuPct, devNull, instrument, measure, stream, timeouts } from './measure.js';

const { values } = parseArgs({
  options: {
    'stream-s': { type: 'string', default: '8' },
    'feed-s': { type: 'string', default: '4' },
    'idle-s': { type: 'string', default: '5' },
    'flood-s': { type: 'string', default: '2' },
  },
});

async function main(): Promise<void> {
  const streamS = Number(values['stream-s']);
  const feedS = Number(values['feed-s']);
  const idleS = Number(values['idle-s']);
  const floodS = Number(values['flood-s']);
  const rows: string[][] = [];
  const notes: string[] = [];

  // (a) streaming pane, painted.
  {
    const screen = new Screen({ cols: COLS, rows: ROWS });
    const feed = new AgentFeed();
    await screen.write(feed.preamble());
    const sink = devNull();
    const painter = new PanePainter(sink, screen, { top: 1, left: 0, width: COLS, height: ROWS });
    painter.paint(); // first full paint, not counted
    const base = painter.stats;
    const timing = instrument(painter);
    let updates = 0;
    const cpu = await measure(async () => {
      updates = await stream(screen, feed, streamS, () => painter.schedule());
      await sleep(50); // let the last frame go out
    });
    const s = painter.stats;
    const frames = s.frames - base.frames;
    const bytes = s.bytes - base.bytes;
    const painted = s.rows - base.rows;
    rows.push([
      `(a) 1 pane streaming ${UPDATES_PER_S}/s, painted`,
      (cpu.wallMs / 1000).toFixed(1),
      String(updates),
      cpuPct(cpu).toFixed(2),
      ((100 * timing.cpuMs) / cpu.wallMs).toFixed(2),
      String(frames),
      (painted / Math.max(1, frames)).toFixed(1),
      (bytes / Math.max(1, frames)).toFixed(0),
      (bytes / 1024 / (cpu.wallMs / 1000)).toFixed(1),
    ]);
    notes.push(
      `paint(): ${timing.calls} calls, ${((1000 * timing.cpuMs) / Math.max(1, timing.calls)).toFixed(0)} µs CPU each on average, slowest ${timing.maxMs.toFixed(2)} ms wall`,
    );
    painter.dispose();
    sink.close();
    screen.dispose();
  }

  // (b) the same feed, no painter.
  {
    const screen = new Screen({ cols: COLS, rows: ROWS });
    const feed = new AgentFeed();
    await screen.write(feed.preamble());
    let updates = 0;
    const cpu = await measure(async () => {
      updates = await stream(screen, feed, feedS, () => undefined);
      await sleep(50);
    });
    rows.push([
      `(b) same feed, no painter (xterm only)`,
      (cpu.wallMs / 1000).toFixed(1),
      String(updates),
      cpuPct(cpu).toFixed(2),
      '–',
      '–',
      '–',
      '–',
      '–',
    ]);
    screen.dispose();
  }

  // (c) two idle panes.
  {
    const sink = devNull();
    const panes = [0, 1].map(() => new Screen({ cols: COLS, rows: ROWS }));
    const feed = new AgentFeed();
    for (const p of panes) await p.write(feed.preamble() + feed.next());
    const painters = panes.map((p, i) => new PanePainter(sink, p, { top: 1, left: i * (COLS + 1), width: COLS, height: ROWS }));
    for (const p of painters) p.schedule();
    await sleep(100); // both paint once, then nothing is pending
    const before = painters.map((p) => p.stats.frames);
    const armedAtStart = painters.filter((p) => p.pending).length;
    const timersAtStart = timeouts();
    let maxOther = 0;
    const cpu = await measure(async () => {
      // One sleep at a time: the only Timeout of ours while sampling.
      for (let t = 0; t < idleS * 1000; t += 500) {
        await sleep(500);
        maxOther = Math.max(maxOther, timeouts()); // our sleep has fired by now
      }
    });
    const frames = painters.reduce((n, p, i) => n + p.stats.frames - before[i]!, 0);
    rows.push([`(c) 2 idle panes`, (cpu.wallMs / 1000).toFixed(1), '0', cpuPct(cpu).toFixed(2), '0.00', String(frames), '–', '–', '–']);
    notes.push(
      `idle: painters with a paint pending: ${armedAtStart}; active Timeouts in the process while idle: ${timersAtStart} at start, at most ${maxOther} when sampled (besides the bench's own sleep)`,
    );
    for (const p of painters) p.dispose();
    for (const p of panes) p.dispose();
    sink.close();
  }

  // (d) flood.
  {
    const screen = new Screen({ cols: COLS, rows: ROWS });
    const sink = devNull();
    const painter = new PanePainter(sink, screen, { top: 1, left: 0, width: COLS, height: ROWS });
    const timing = instrument(painter);
    // Different chunks, so every frame has something new to show.
    const chunks = Array.from({ length: 8 }, (_, i) => floodChunk(64 * 1024, i + 1));
    const chunkBytes = Buffer.byteLength(chunks[0]!);
    let n = 0;
    let fed = 0;
    const lateness: number[] = [];
    let probing = true;
    const probe = () => {
      const due = performance.now() + 20;
      setTimeout(() => {
        lateness.push(performance.now() - due);
        if (probing) probe();
      }, 20);
    };
    probe();
    const cpu = await measure(async () => {
      const end = performance.now() + floodS * 1000;
      while (performance.now() < end) {
        // Keep two chunks in flight, like a pty that never stops.
        const a = screen.write(chunks[n++ % chunks.length]!);
        const b = screen.write(chunks[n++ % chunks.length]!);
        void a.then(() => painter.schedule());
        await b;
        painter.schedule();
        fed += 2 * chunkBytes;
      }
      await sleep(50);
    });
    probing = false;
    const s = painter.stats;
    lateness.sort((x, y) => x - y);
    const p99 = lateness[Math.floor(lateness.length * 0.99)] ?? 0;
    const max = lateness[lateness.length - 1] ?? 0;
    rows.push([
      `(d) 1 pane flooded (cat of a log)`,
      (cpu.wallMs / 1000).toFixed(1),
      '–',
      cpuPct(cpu).toFixed(2),
      ((100 * timing.cpuMs) / cpu.wallMs).toFixed(2),
      String(s.frames),
      (s.rows / Math.max(1, s.frames)).toFixed(1),
      (s.bytes / Math.max(1, s.frames)).toFixed(0),
      (s.bytes / 1024 / (cpu.wallMs / 1000)).toFixed(1),
    ]);
    notes.push(
      `flood: ${(fed / 1e6 / (cpu.wallMs / 1000)).toFixed(1)} MB/s parsed by xterm; frames capped at 30 fps (≤ ${Math.ceil((cpu.wallMs / 1000) * 30) + 1}); ` +
        `paint() ran ${timing.calls} times, ${((1000 * timing.cpuMs) / Math.max(1, timing.calls)).toFixed(0)} µs CPU each; ` +
        `a 20 ms timer ("a keystroke for the other pane") fired ${lateness.length} times, late by p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms`,
    );
    painter.dispose();
    sink.close();
    screen.dispose();
  }

  const a = rows[0]!;
  const b = rows[1]!;
  const header = ['scenario', 'wall s', 'updates', 'CPU % total', 'painter %', 'frames', 'rows/frame', 'bytes/frame', 'KiB/s out'];
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`relevo-tui render bench — pane ${COLS}×${ROWS}, painter ≤ 30 fps, Node ${process.version}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log('');
  console.log(`painting alone, (a) − (b): ${(Number(a[3]) - Number(b[3])).toFixed(2)} % of a core (measured around paint(): ${a[4]} %)`);
  for (const n of notes) console.log(n);
  const budgetOk = Number(a[3]) - Number(b[3]) < 10 && Number(a[4]) < 10;
  const idle = rows[2]!;
  console.log(
    `budget: streaming pane < 10 % for rendering: ${budgetOk ? 'yes' : 'NO'}; idle panes ~0 % with no painter timer: ${Number(idle[3]) < 0.5 && idle[5] === '0' ? 'yes' : 'NO'}`,
  );
}

await main();
