/**
 * `node dist/bench/bench-agent.js MODE TAG PIDFILE [BYTES]`: the stand-in agents of the echo and
 * throughput benches, run the same way in relevo's panes, tmux's panes and the bare stack.
 *
 *  echo    raw mode; each printable byte read is shown on the first column (`\r` + byte), so a
 *          repainted row holds no earlier key; PROBE_KEY is answered with PROBE_LINE instead.
 *  flood   prints its ready line, then on each SIGUSR1 writes BYTES of coloured text (whole
 *          blocks, `forever` for no end) followed by its round's marker line.
 *
 * It writes its pid to PIDFILE first, so the bench can end it whatever happened to its terminal.
 */
import { writeFileSync } from 'node:fs';
import { floodBlock, floodBytes, floodMarker, PROBE_KEY, PROBE_LINE, readyLine } from './flood-text.js';

const [mode, tag = 'agent', pidFile, bytesArg = 'forever'] = process.argv.slice(2);
if (pidFile) writeFileSync(pidFile, String(process.pid));
const out = process.stdout;

if (mode === 'echo') {
  process.stdin.setRawMode?.(true);
  process.stdin.on('data', (data: Buffer) => {
    let s = '';
    for (const b of data) {
      const c = String.fromCharCode(b);
      if (c === PROBE_KEY) s += `\r\x1b[K${PROBE_LINE}`;
      else if (b >= 0x20 && b < 0x7f) s += `\r${c}`;
    }
    if (s !== '') out.write(s);
  });
  out.write(`${readyLine(tag)}\r\n`);
} else if (mode === 'flood') {
  const block = floodBlock();
  const total = bytesArg === 'forever' ? Number.POSITIVE_INFINITY : floodBytes(Number(bytesArg));
  let round = 0;
  let busy = false;
  const burst = async (n: number) => {
    busy = true;
    for (let written = 0; written < total; written += block.length) {
      if (!out.write(block)) await new Promise((resolve) => out.once('drain', resolve));
    }
    out.write(`\x1b[0m\r\n${floodMarker(tag, n)}\r\n`);
    busy = false;
  };
  process.on('SIGUSR1', () => {
    if (!busy) void burst(++round);
  });
  // Keep reading the terminal, so keys typed here do not pile up.
  process.stdin.setRawMode?.(true);
  process.stdin.resume();
  out.write(`${readyLine(tag)}\r\n`);
} else {
  process.stderr.write('usage: bench-agent echo|flood TAG PIDFILE [BYTES|forever]\n');
  process.exit(2);
}
