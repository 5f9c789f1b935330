/** One figure of `npm run bench`: relevo's median against a baseline measured in the same run. */
export type Figure = {
  /** Stable key, e.g. `echo.idle.p50`, `hop.claude-claude.median`, `startup.help`. */
  readonly key: string;
  /** What it measures, for people: `keystroke echo, idle pane, p50`. */
  readonly what: string;
  readonly unit: 'ms' | 'MB' | 'MB/s' | 'wakeups/s';
  /** relevo-tui's median over `samples`. */
  readonly relevo: number;
  readonly samples: readonly number[];
  /** The baseline's median (tmux, the bare node-pty + @xterm/headless stack, or a floor), when there is one. */
  readonly baseline?: { readonly name: string; readonly value: number; readonly samples: readonly number[] };
  /**
   * The goal as the issue states it, and whether this run met it; `floorAbove`: not met, and the
   * floor the note measured (what relevo cannot do better than, in the same run) is past the goal
   * itself — it cannot be met here.
   */
  readonly goal: { readonly text: string; readonly met: boolean; readonly floorAbove?: boolean };
  /** For a goal not met: the measured floor that stops it and why. */
  readonly note?: string;
};

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The value at quantile `q` (0..1), nearest rank. */
export const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};

/** A figure a scene could not measure here: no samples, its goal unmet, and why. */
export function skippedFigure(key: string, what: string, goal: string, why: string): Figure {
  return { key, what, unit: 'ms', relevo: Number.NaN, samples: [], goal: { text: goal, met: false }, note: `skipped: ${why}` };
}
