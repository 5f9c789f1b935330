/**
 * What the benches' stand-in agents print, shared by the agent program (bench-agent.ts) and the
 * benches that look for it. Flood text is SGR-coloured lowercase letters, digits and
 * punctuation only, so an uppercase key or marker seen on a painted frame can only be the echo or
 * the marker itself.
 */

const E = '\x1b[';
const COLOURS = [31, 32, 33, 34, 35, 36, 91, 92, 93, 94, 95, 96];
const WORDS = ['request', 'handled', 'worker', 'users', 'page', 'cache', 'miss', 'hit', 'queue', 'flush', 'ok', 'retry'];

/** One deterministic block of coloured lines (≈ 64 KiB, whole lines, 66 columns or fewer each). */
export function floodBlock(): string {
  let seed = 16;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  let s = '';
  for (let i = 0; s.length < 64 * 1024; i++) {
    const colour = COLOURS[Math.floor(rand() * COLOURS.length)]!;
    const words = Array.from({ length: 5 }, () => WORDS[Math.floor(rand() * WORDS.length)]!).join(' ');
    const n = String(i).padStart(6, '0');
    s += `${E}2m${n}${E}0m ${E}${colour}m${words}${E}0m ${E}1m${(rand() * 999).toFixed(2)}${E}0m ms\r\n`;
  }
  return s;
}

export const BLOCK_BYTES = Buffer.byteLength(floodBlock());

/** The bytes a flood of (at least) `bytes` writes: whole blocks. */
export const floodBytes = (bytes: number): number => Math.ceil(bytes / BLOCK_BYTES) * BLOCK_BYTES;

/** The line a flood prints after its `round`-th burst; uppercase, so nothing else on screen matches it. */
export const floodMarker = (tag: string, round: number): string => `ZQXJ-${tag.toUpperCase()}${round}-END`;

/** The line each agent prints when it has started: what the bench waits for before it measures. */
export const readyLine = (tag: string): string => `${tag.toLowerCase()} ready`;

/** The keys the echo bench types, in turn: uppercase letters no flood, chrome or status line shows. */
export const ECHO_KEYS = 'QVWXYZ';

/** A key the echo agent answers with PROBE_LINE instead of echoing it: proof that keys reach the agent, not relevo's goal prompt. */
export const PROBE_KEY = '!';
export const PROBE_LINE = 'keys reach the agent';

/** The `i`-th numbered, coloured log line a `print` agent named `name` prints (shorter than a pane). */
export function logLine(name: string, i: number): string {
  const level = i % 10 === 0 ? `${E}31mERROR${E}0m` : i % 3 === 0 ? `${E}33mWARN ${E}0m` : `${E}32mINFO ${E}0m`;
  return `${E}2m${name}${E}0m line ${String(i).padStart(5, '0')} ${level} ${WORDS[i % 8]} ${E}36mid=${(i * 7919) % 100_000}${E}0m`;
}

/** What a `print` agent shows after its lines, before its prompt. */
export const printedLine = (lines: number): string => `printed ${lines} lines`;
