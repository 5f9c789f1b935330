/**
 * The throughput bench's two-thread floor (bare-stack.ts): a worker thread that parses one pane's
 * output into a plain headless Terminal of its own. Its first message gives the size; then each
 * chunk comes with an `id`, answered with that id once xterm has parsed it (bare-stack.ts's flow
 * control counts on it). Each chunk is parsed as it comes, as relevo's Screen does (the echo
 * bench's floor with its terminal on a worker, bare-relay.ts, too).
 */
import { parentPort } from 'node:worker_threads';
import xtermHeadless from '@xterm/headless';
import { z } from 'zod';

const size = z.object({ cols: z.number().int().positive(), rows: z.number().int().positive() });
const chunk = z.object({ data: z.string(), id: z.number().int() });

const port = parentPort;
if (port === null) throw new Error('parse-worker.js runs as a worker thread');
let term: InstanceType<typeof xtermHeadless.Terminal> | undefined;
port.on('message', (received: unknown) => {
  if (term === undefined) {
    term = new xtermHeadless.Terminal({ ...size.parse(received), scrollback: 10_000, allowProposedApi: true });
    return;
  }
  const got = chunk.parse(received);
  // Each chunk parsed as it comes, as relevo's Screen does (src/pty/screen.ts says why).
  term.input('', true);
  term.write(got.data, () => port.postMessage(got.id));
});
