/**
 * A TCP proxy on 127.0.0.1 that holds every chunk `ms` before passing it on, each way: a slow link
 * for a kernel without `tc netem` (sch_netem not built). Chunks keep their order (timers of one
 * delay fire in the order they were set); the ends of a connection are delayed alike.
 */
import { createServer, Socket } from 'node:net';

export type DelayProxy = { readonly port: number; close(): Promise<void> };

export async function delayProxy(target: { readonly host: string; readonly port: number }, ms: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => setTimeout(() => to.write(chunk), ms));
    from.on('end', () => setTimeout(() => to.end(), ms));
    from.on('error', () => to.destroy());
    from.on('close', () => setTimeout(() => to.destroy(), ms));
  };
  const server = createServer((client) => {
    const upstream = new Socket();
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    upstream.connect(target.port, target.host);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the delay proxy has no port');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
