/**
 * A stand-in agent for the memory and idle benches: prints `--lines N` numbered, coloured log lines
 * (each shorter than a pane, so a line is a row), then a shell-like prompt, and sits idle — no timer,
 * no polling: it only wakes to answer a line typed to it with a new prompt.
 * `node dist/bench/print-agent.js --lines 10500 --name planner`
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '0' }, name: { type: 'string', default: 'agent' } } });
const lines = Number(values.lines);
const E = '\x1b[';
const WORDS = ['request', 'handled', 'cursor', 'page', 'users', 'cache', 'worker', 'flush'];

let out = '';
for (let i = 1; i <= lines; i++) {
  const level = i % 10 === 0 ? `${E}31mERROR${E}0m` : i % 3 === 0 ? `${E}33mWARN ${E}0m` : `${E}32mINFO ${E}0m`;
  out += `${E}2m${values.name}${E}0m line ${String(i).padStart(5, '0')} ${level} ${WORDS[i % WORDS.length]} ${E}36mid=${(i * 7919) % 100_000}${E}0m\r\n`;
  if (out.length > 64 * 1024) {
    process.stdout.write(out);
    out = '';
  }
}
process.stdout.write(`${out}printed ${lines} lines\r\n$ `);
process.stdin.on('data', (data) => {
  if (/[\r\n]/.test(data.toString())) process.stdout.write('\r\n$ ');
});
