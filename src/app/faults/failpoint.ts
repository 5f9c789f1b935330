/**
 * Crash points for the crash-safety tests: `RELEVO_FAILPOINT=offer:2` makes relevo SIGKILL itself
 * the second time it passes the point named `offer` (several, comma-separated); `read-reply:1:throw`
 * throws an Error there instead (an unforeseen failure). Unset, nothing happens.
 */
const armed = new Map<string, number>();
const throwing = new Set<string>();
for (const item of (process.env.RELEVO_FAILPOINT ?? '').split(',')) {
  const m = /^([a-z-]+):(\d+)(:throw)?$/.exec(item.trim());
  if (m) armed.set(m[1]!, Number(m[2]));
  if (m?.[3]) throwing.add(m[1]!);
}
const hits = new Map<string, number>();

export function failpoint(name: string): void {
  if (armed.size === 0) return;
  const n = (hits.get(name) ?? 0) + 1;
  hits.set(name, n);
  if (armed.get(name) !== n) return;
  if (throwing.has(name)) throw new Error(`failpoint ${name}`);
  process.kill(process.pid, 'SIGKILL');
}
