// A shell-like fake agent for the generic profile: prints a `$ ` prompt, reads lines in the
// terminal's cooked mode (the line discipline echoes keys, Ctrl-U kills the line), records each line
// it receives as JSON in the file named by its first argument, and answers it.
import { appendFileSync } from 'node:fs';

const record = process.argv[2];
process.stdout.write('line agent ready\r\n$ ');
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
    const line = buffered.slice(0, end).replace(/\r$/, '');
    buffered = buffered.slice(end + 1);
    if (record) appendFileSync(record, `${JSON.stringify({ text: line })}\n`);
    process.stdout.write(`got: ${line}\r\n$ `);
  }
});
process.on('SIGTERM', () => process.exit(0));
