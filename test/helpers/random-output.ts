/** Seeded randomness and what a program may write to its terminal, for the randomized screen tests. */

const E = '\x1b[';

/** Deterministic pseudo-random numbers in [0, n), so a failure replays from its seed. */
export function rng(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return Math.floor((a / 2147483648) * n);
  };
}

/**
 * One thing a program may write on a screen of `rows` rows, picked by `r`: text (wide characters,
 * emoji, colours), line feeds, cursor moves, erases, inserted and deleted lines, scroll regions,
 * reverse index, the alternate screen and scrolls.
 */
export function programOutput(r: (n: number) => number, rows: number): string {
  const word = ['alpha ', 'beta ', '日本 ', 'x', '✅ ', `${E}1;31mred${E}0m `, `${E}48;5;22mbg${E}0m `][r(7)]!;
  const pick: (() => string)[] = [
    () => word.repeat(1 + r(4)),
    () => '\r\n',
    () => `${word}\r\n`.repeat(1 + r(12)),
    () => `${E}${1 + r(rows)};${1 + r(20)}H`,
    () => `${E}${r(3)}J`,
    () => `${E}${r(3)}K`,
    () => `${E}${1 + r(3)}L`,
    () => `${E}${1 + r(3)}M`,
    () => `${E}${1 + r(3)};${rows - r(3)}r${E}${rows - 1};1H\r\n\r\n${word}`,
    () => `${E}r`,
    () => '\x1bM',
    () => `${E}?1049h${word}`,
    () => `${E}?1049l`,
    () => `${E}${1 + r(3)}S`,
    () => `${E}${1 + r(3)}T`,
    () => `${E}${1 + r(4)}P${E}${1 + r(4)}@`,
  ];
  return pick[r(pick.length)]!();
}
