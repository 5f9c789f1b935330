/** Measuring the render bench's scenarios: CPU over wall time, paint() timings, a paced feed. */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Screen } from '../pty/screen.js';
import type { PanePainter, Sink } from '../tui/paint/painter.js';
import { sleep } from './cleanup.js';
import { type AgentFeed, UPDATES_PER_S } from './feed.js';

export type Cpu = { wallMs: number; cpuMs: number };
export const cpuPct = (c: Cpu) => (c.wallMs > 0 ? (100 * c.cpuMs) / c.wallMs : 0);

/** Runs `body` and measures wall and process CPU time around it. */
export async function measure(body: () => Promise<void>): Promise<Cpu> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await body();
  const c = process.cpuUsage(c0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

/** /dev/null, written synchronously like a TTY stdout. */
export function devNull(): Sink & { close(): void } {
  const fd = openSync('/dev/null', 'w');
  return { write: (s: string) => writeSync(fd, s), close: () => closeSync(fd) };
}

/** Wraps `painter.paint` to time it (CPU and wall). */
export function instrument(painter: PanePainter): { cpuMs: number; maxMs: number; calls: number } {
  const m = { cpuMs: 0, maxMs: 0, calls: 0 };
  const paint = painter.paint.bind(painter);
  painter.paint = () => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const wrote = paint();
    const c = process.cpuUsage(c0);
    m.cpuMs += (c.user + c.system) / 1000;
    m.maxMs = Math.max(m.maxMs, performance.now() - t0);
    m.calls++;
    return wrote;
  };
  return m;
}

/** Feeds `feed` at UPDATES_PER_S for `seconds`, each update awaited, then `after()`. */
export async function stream(screen: Screen, feed: AgentFeed, seconds: number, after: () => void): Promise<number> {
  const period = 1000 / UPDATES_PER_S;
  const start = performance.now();
  let updates = 0;
  while (performance.now() - start < seconds * 1000) {
    await screen.write(feed.next());
    after();
    updates++;
    const due = start + updates * period;
    await sleep(Math.max(0, due - performance.now()));
  }
  return updates;
}

export const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
