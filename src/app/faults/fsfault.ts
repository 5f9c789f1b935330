import { constants } from 'node:os';
import { getSystemErrorMap } from 'node:util';

/**
 * File-system faults for the fault tests (they run as root, where chmod cannot make a directory
 * unwritable): `RELEVO_FSFAULT=checkpoint:ENOSPC:1` makes the first write at the point named
 * `checkpoint` throw an ENOSPC error as Node's fs would (code, errno, syscall, path); `journal:EROFS:5+`
 * makes the fifth and every later one throw. Points: state-dir, lock, journal, goal, checkpoint, offer, ack.
 * Unset, nothing happens.
 */
type Armed = { readonly code: string; readonly from: number; readonly onward: boolean };
let armed = new Map<string, Armed>();
const hits = new Map<string, number>();

/** Arms the faults of `spec` (the variable's syntax) in this process, counting afresh. */
export function setFsFaults(spec: string): void {
  armed = new Map();
  hits.clear();
  for (const item of spec.split(',')) {
    const m = /^([a-z-]+):(E[A-Z]+):(\d+)(\+?)$/.exec(item.trim());
    if (m) armed.set(m[1]!, { code: m[2]!, from: Number(m[3]), onward: m[4] === '+' });
  }
}
setFsFaults(process.env.RELEVO_FSFAULT ?? '');

/** Throws the armed error when this is the chosen pass through `point`. */
export function fsFault(point: string, path: string, syscall: string): void {
  if (armed.size === 0) return;
  const fault = armed.get(point);
  if (fault === undefined) return;
  const n = (hits.get(point) ?? 0) + 1;
  hits.set(point, n);
  if (n !== fault.from && !(fault.onward && n > fault.from)) return;
  const errno = (constants.errno as Record<string, number>)[fault.code] ?? 5;
  const text = getSystemErrorMap().get(-errno)?.[1] ?? 'i/o error';
  throw Object.assign(new Error(`${fault.code}: ${text}, ${syscall} '${path}'`), { errno: -errno, code: fault.code, syscall, path });
}
