// A fake agent that asks its terminal for the mouse — DECSET 1000 (presses and releases) with 1006
// (SGR reports), or the legacy encoding when its first argument is `legacy` — and prints each report
// it receives, decoded: `got sgr 64;10;5 M` (button code; column; row, 1-based; press or release).
// Anything else it receives is printed as `got keys "…"`. A `$ ` prompt keeps the generic profile idle.
const legacy = process.argv[2] === 'legacy';
process.stdin.setRawMode?.(true);
process.stdout.write(`mouse agent ready (${legacy ? 'x10' : 'sgr'})\r\n\x1b[?1000h${legacy ? '' : '\x1b[?1006h'}$ `);
const SGR = /\x1b\[<(\d+);(\d+);(\d+)([Mm])/y;
process.stdin.on('data', (chunk) => {
  const data = chunk.toString('latin1');
  const out = [];
  let keys = '';
  for (let i = 0; i < data.length; ) {
    SGR.lastIndex = i;
    const m = SGR.exec(data);
    if (m) {
      out.push(`got sgr ${m[1]};${m[2]};${m[3]} ${m[4]}`);
      i += m[0].length;
    } else if (data.startsWith('\x1b[M', i) && i + 6 <= data.length) {
      const [b, x, y] = [3, 4, 5].map((k) => data.charCodeAt(i + k) - 32);
      out.push(`got x10 ${b};${x};${y}`);
      i += 6;
    } else keys += data[i++];
  }
  if (keys !== '') out.push(`got keys ${JSON.stringify(keys)}`);
  process.stdout.write(`\r\n${out.join('\r\n')}\r\n$ `);
});
process.on('SIGTERM', () => process.exit(0));
