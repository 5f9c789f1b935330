/**
 * The throughput bench's two-thread floor (bare-stack.ts): a worker thread that parses one pane's
 * output into a plain headless Terminal of its own. Its first message gives the size; then each
 * message is a chunk, and one with an `id` is answered with that id once xterm has parsed it. A
 * message with `typed` says keys were just typed: the next chunk (the echo) is parsed as it comes,
 * as relevo's Screen does (the echo bench's floor with its terminal on a worker, bare-relay.ts).
 */
import { parentPort } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import { z } from 'zod';

const size = z.object({ cols: z.number().int().positive(), rows: z.number().int().positive() });
const chunk = z.object({ data: z.string().optional(), id: z.number().int().optional(), typed: z.literal(true).optional() });

const port = parentPort;
if (port === null) throw new Error('parse-worker.js runs as a worker thread');
let term: InstanceType<typeof xtermHeadless.Terminal> | undefined;
port.on('message', (message: unknown) => {
  if (term === undefined) {
    term = new xtermHeadless.Terminal({ ...size.parse(message), scrollback: 10_000, allowProposedApi: true });
    return;
  }
  const { data, id, typed } = chunk.parse(message);
  if (typed) term.input('', true);
  if (data === undefined) return;
  if (id === undefined) term.write(data);
  else term.write(data, () => port.postMessage(id));
});
