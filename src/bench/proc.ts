/** Reading a process from /proc (Linux): its resident memory and how often its threads woke up. */
import { readdirSync, readFileSync } from 'node:fs';

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
