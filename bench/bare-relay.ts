/**
 * `node dist/bench/bare-relay.js LEFT RIGHT COLS ROWS [main|worker|none]` (each agent a JSON
 * argv): the echo bench's floor, run in the bench's terminal as relevo and tmux are (see bareRelay
 * in bare-stack.ts); with `worker`, each pane's terminal on a worker thread; with `none`, nothing
 * parsed.
 */
import { z } from 'zod';
import { bareRelay } from './bare-stack.js';

const argv = z.array(z.string().min(1)).min(1);
const [left, right, cols, rows, where] = process.argv.slice(2);
const parse = z.enum(['main', 'worker', 'none']).parse(where ?? 'main');
bareRelay(argv.parse(JSON.parse(left ?? '')), argv.parse(JSON.parse(right ?? '')), Number(cols), Number(rows), parse);
