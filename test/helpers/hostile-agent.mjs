#!/usr/bin/env node
// A hostile fake agent for the fault tests: a shell-like `$ ` prompt; each message it is sent (typed
// text up to Enter) is echoed, then answered with the payload file's output, then the prompt again.
// Payload (JSON): { "print": [string | { "repeat": string, "times": number }], "bytes"?: number }:
// each entry written by itself; with `bytes`, strings go out in pieces of that many bytes (splitting
// UTF-8 characters and escape sequences across writes).
// Usage: node hostile-agent.mjs PAYLOAD.json
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const payload = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = (data) => new Promise((resolve) => process.stdout.write(data, () => resolve()));

async function answer() {
  for (const entry of payload.print) {
    if (typeof entry !== 'string') {
      await out(entry.repeat.repeat(entry.times));
      continue;
    }
    const bytes = Buffer.from(entry, 'utf8');
    const size = payload.bytes ?? bytes.length;
    for (let at = 0; at < bytes.length; at += size) {
      await out(bytes.subarray(at, at + size));
      if (payload.bytes) await sleep(2);
    }
  }
  await out('\r\n$ ');
}

let typed = '';
let busy = false;
process.stdin.setRawMode(true);
process.stdin.on('data', (data) => {
  for (const ch of data.toString('utf8')) {
    if (ch === '\x03') process.exit(130);
    if (ch !== '\r') {
      typed += ch;
      continue;
    }
    const message = typed.trim();
    typed = '';
    if (message === '' || busy) continue;
    busy = true;
    void out(`\r\n${message.replace(/\n/g, '\r\n')}\r\n`)
      .then(answer)
      .finally(() => {
        busy = false;
      });
  }
});
await out('hostile agent ready\r\n$ ');
