/** Edit distance (insertions, deletions, substitutions, and a swap of two neighbours counted as one). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The valid name closest to a mistyped one, for "did you mean": within two edits (one for a name
 * of up to four letters), or one the typed name starts or is started by; null when none is close.
 */
export function nearest(typed: string, names: readonly string[]): string | null {
  const word = typed.toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const name of names) {
    const d = distance(word, name.toLowerCase());
    if (best === null || d < best.d) best = { name, d };
  }
  if (best === null) return null;
  if (best.d <= (word.length <= 4 ? 1 : 2)) return best.name;
  const prefixed = names.filter((n) => word.length >= 3 && (n.startsWith(word) || word.startsWith(n)));
  return prefixed.length === 1 ? prefixed[0]! : null;
}

/** ` (did you mean X?)`, or '' when nothing is close. */
export function didYouMean(typed: string, names: readonly string[], show: (name: string) => string = (n) => n): string {
  const near = nearest(typed, names);
  return near === null ? '' : ` — did you mean ${show(near)}?`;
}
