/**
 * Crash points for the crash-safety tests: `RELEVO_FAILPOINT=offer:2` makes relevo SIGKILL itself
 * the second time it passes the point named `offer` (several, comma-separated). Unset, nothing happens.
 */
const armed = new Map<string, number>();
for (const item of (process.env.RELEVO_FAILPOINT ?? '').split(',')) {
  const m = /^([a-z-]+):(\d+)$/.exec(item.trim());
  if (m) armed.set(m[1]!, Number(m[2]));
}
const hits = new Map<string, number>();

export function failpoint(name: string): void {
  if (armed.size === 0) return;
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  if (armed.get(name) === n) process.kill(process.pid, 'SIGKILL');
}
