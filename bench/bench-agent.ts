/**
 * `node dist/bench/bench-agent.js MODE TAG PIDFILE [N]`: the benches' stand-in agents, run the same
 * way in relevo's panes, tmux's panes and the bare stack.
 *
 *  echo    raw mode; each printable byte read is shown on the first column (`\r` + byte), so a
 *          repainted row holds no earlier key; PROBE_KEY is answered with PROBE_LINE instead.
 *  flood   prints its ready line, then on each SIGUSR1 writes N bytes of coloured text (whole
 *          blocks, `forever` for no end) followed by its round's marker line.
 *  print   prints N numbered, coloured log lines (each a row), then a shell-like prompt, and sits
 *          idle — no timer, no polling: it only wakes to answer a line typed to it with a new prompt.
 *
 * It writes its pid to PIDFILE first, so the bench can end it whatever happened to its terminal.
 */
import { writeFileSync } from 'node:fs';
import { floodBlock, floodBytes, floodMarker, logLine, PROBE_KEY, PROBE_LINE, printedLine, readyLine } from './flood-text.js';

const [mode, tag = 'agent', pidFile, countArg = 'forever'] = process.argv.slice(2);
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
  const total = countArg === 'forever' ? Number.POSITIVE_INFINITY : floodBytes(Number(countArg));
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
} else if (mode === 'print') {
  const lines = Number(countArg);
  let s = '';
  for (let i = 1; i <= lines; i++) {
    s += `${logLine(tag, i)}\r\n`;
    if (s.length > 64 * 1024) {
      out.write(s);
      s = '';
    }
  }
  out.write(`${s}${printedLine(lines)}\r\n$ `);
  process.stdin.on('data', (data) => {
    if (/[\r\n]/.test(data.toString())) out.write('\r\n$ ');
  });
} else {
  process.stderr.write('usage: bench-agent echo|flood|print TAG PIDFILE [BYTES|forever|LINES]\n');
  process.exit(2);
}
