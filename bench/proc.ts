/** Reading a process from /proc (Linux): its resident memory, how often its threads woke up, its CPU time. */
import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from '../test/helpers/until.js';

const field = (status: string, name: string): number => {
  const m = new RegExp(`^${name}:\\s*(\\d+)`, 'm').exec(status);
  if (!m) throw new Error(`/proc: no ${name}`);
  return Number(m[1]);
};

/** VmRSS of `pid` in MB (10^6 bytes), the process alone (not its children), and its anonymous and file-backed parts. */
export function rssMB(pid: number): { rss: number; anon: number; file: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (name: string) => (field(s, name) * 1024) / 1e6;
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') };
}

/** glibc's reservation for each malloc arena but the main one (64-bit): 64 MiB, aligned to its size. */
const ARENA_BYTES = 64n << 20n;

/**
 * Resident MB (10^6 bytes) of `pid`'s malloc arenas other than the main one: the C library gives
 * each thread that mallocs (V8's compile and GC workers, libuv's pool) an arena of its own, reserved
 * as an anonymous 64 MiB region aligned to 64 MiB, and keeps what was freed there for reuse.
 */
export function threadArenasMB(pid: number): number {
  type Region = { start: bigint; end: bigint; anonymous: boolean; writable: boolean; rss: number };
  const regions: Region[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (range) {
      const [, start, end, perms, inode, name] = range;
      regions.push({
        start: BigInt(`0x${start}`),
        end: BigInt(`0x${end}`),
        anonymous: inode === '0' && name === '',
        writable: perms!.startsWith('rw'),
        rss: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    const last = regions.at(-1);
    if (rss && last) last.rss = Number(rss[1]);
  }
  let kB = 0;
  for (const [i, first] of regions.entries()) {
    if (!first.anonymous || !first.writable || first.start % ARENA_BYTES !== 0n) continue;
    // The arena's used part, then the rest of its reservation (no access), back to back.
    let end = first.end;
    let rss = first.rss;
    for (let j = i + 1; end - first.start < ARENA_BYTES; j++) {
      const next = regions[j];
      if (next === undefined || next.start !== end || !next.anonymous) break;
      end = next.end;
      rss += next.rss;
    }
    if (end - first.start === ARENA_BYTES) kB += rss;
  }
  return (kB * 1024) / 1e6;
}

/** Context switches (voluntary + nonvoluntary) of one thread or process status file, or 0 once it is gone. */
function switches(path: string): number {
  try {
    const s = readFileSync(path, 'utf8');
    return field(s, 'voluntary_ctxt_switches') + field(s, 'nonvoluntary_ctxt_switches');
  } catch {
    return 0;
  }
}

/** Context switches so far of each thread of `pid` (by thread id). */
export function threadSwitches(pid: number): Map<string, number> {
  return new Map(readdirSync(`/proc/${pid}/task`).map((t) => [t, switches(`/proc/${pid}/task/${t}/status`)]));
}

/**
 * Wake-ups per second of `pid` over `seconds`: all its threads, and the main thread alone. A thread
 * born meanwhile counts whole; one that ended meanwhile is not counted (it only lowers the figure).
 */
export async function wakeupRate(pid: number, seconds: number): Promise<{ all: number; main: number; threads: number }> {
  const a = threadSwitches(pid);
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const b = threadSwitches(pid);
  const s = (performance.now() - t0) / 1000;
  let all = 0;
  for (const [t, n] of b) all += n - (a.get(t) ?? 0);
  const main = (b.get(String(pid)) ?? 0) - (a.get(String(pid)) ?? 0);
  return { all: all / s, main: main / s, threads: b.size };
}

/** CPU time (user + system, all threads) `pid` used so far, in clock ticks (`/proc/<pid>/stat`); -1 once it is gone. */
export function cpuTicks(pid: number): number {
  try {
    // The fields after the command (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return -1;
  }
}

/**
 * Resolves once `pid` used no CPU for `quietMs` (its start-up work done: idle at its prompt), or
 * after `maxMs` whatever it does; how long that took, in ms.
 */
export async function untilIdle(pid: number, quietMs = 200, maxMs = 5000): Promise<number> {
  const t0 = performance.now();
  let last = cpuTicks(pid);
  let since = t0;
  while (performance.now() - t0 < maxMs) {
    await sleep(50);
    const now = cpuTicks(pid);
    if (now !== last) {
      last = now;
      since = performance.now();
    } else if (performance.now() - since >= quietMs) break;
  }
  return performance.now() - t0;
}
