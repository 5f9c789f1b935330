/** How `npm run bench` shows its figures: a plain table for the terminal, or Markdown for the README. */
import type { Figure } from './figure.js';

const DIGITS: Readonly<Record<Figure['unit'], number>> = { ms: 0, MB: 1, 'MB/s': 1, 'wakeups/s': 1 };

/** `715 ms`, `3.4 ms`, `90.1 MB`: whole milliseconds from 10 ms up, one decimal below. */
export function value(n: number, unit: Figure['unit']): string {
  if (!Number.isFinite(n)) return '–';
  const digits = unit === 'ms' && Math.abs(n) < 10 ? 1 : DIGITS[unit];
  return `${n.toFixed(digits)} ${unit}`;
}

/** relevo's value over the baseline's: `65.0×`; `–` with no baseline or a zero one. */
export function ratio(f: Figure): string {
  if (!f.baseline || f.baseline.value === 0 || !Number.isFinite(f.baseline.value)) return '–';
  const r = f.relevo / f.baseline.value;
  return `${r.toFixed(r < 10 ? 2 : 1)}×`;
}

const HEADER = ['key', 'what', 'relevo-tui', 'baseline', 'ratio', 'goal', 'met'];

function cells(f: Figure): string[] {
  const base = f.baseline ? `${f.baseline.name} ${value(f.baseline.value, f.unit)}` : '–';
  const mark = f.goal.met ? '✓' : f.goal.floorAbove ? '✗ (its floor is past the goal)' : '✗';
  const met = `${mark}${f.note ? ` ${f.note}` : ''}`;
  return [f.key, f.what, value(f.relevo, f.unit), base, ratio(f), f.goal.text, met];
}

/** Display width, counting every code point as one column (the table's marks are all narrow). */
const width = (s: string) => [...s].length;

export function plainTable(figures: readonly Figure[]): string {
  const rows = [HEADER, ...figures.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => width(r[i]!))));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - width(c))))
      .join(' | ')
      .trimEnd();
  return [line(HEADER), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

export function markdownTable(figures: readonly Figure[]): string {
  const esc = (c: string) => c.replaceAll('|', '\\|');
  const line = (r: readonly string[]) => `| ${r.map(esc).join(' | ')} |`;
  return [line(HEADER), `|${HEADER.map(() => '---').join('|')}|`, ...figures.map((f) => line(cells(f)))].join('\n');
}

/** Whether a figure has a goal of its own (not one printed for reference: `none (…)`). */
const hasGoal = (f: Figure) => !f.goal.text.startsWith('none');

/** `goals: 15 met, 3 not met with their floor past them, 0 not met`: the run against the goals, in one line. */
export function goalsLine(figures: readonly Figure[]): string {
  const goals = figures.filter(hasGoal);
  const met = goals.filter((f) => f.goal.met).length;
  const floored = goals.filter((f) => !f.goal.met && f.goal.floorAbove).length;
  return `goals: ${met} met, ${floored} not met with their floor past them, ${goals.length - met - floored} not met`;
}
