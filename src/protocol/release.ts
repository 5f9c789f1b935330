/** Release numbers (`major.minor.patch`): read and ordered. Pure; the profile schema orders its `[[deliver.since]]` with it. */

/** `2.1.197` → [2, 1, 197]; anything else → null. */
export function parseVersion(text: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Orders two releases (`2.1.9` < `2.1.10`); a malformed one sorts first. */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
