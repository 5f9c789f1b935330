// Shared by the fake server and CLI: versions, socket path resolution and the NDJSON client.
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const VERSION = '0.8.0'; // herdr.md header: crate version 0.8.0
export const PROTOCOL = 20; // herdr.md header: socket protocol version 20
export const MAX_LINE = 1024 * 1024; // herdr.md §2 "Framing": one line ≤ 1 MiB
export const READ_LINE_MS = 5000; // … read within 5 s

/** herdr.md §2 "Socket path": --session, $HERDR_SOCKET_PATH, $HERDR_SESSION, default. */
export function socketPath(session, env = process.env) {
  const config = join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'herdr');
  if (session !== undefined) return join(config, 'sessions', session, 'herdr.sock');
  if (env.HERDR_SOCKET_PATH) return env.HERDR_SOCKET_PATH;
  if (env.HERDR_SESSION) return join(config, 'sessions', env.HERDR_SESSION, 'herdr.sock');
  return join(config, 'herdr.sock');
}

/**
 * One request on its own connection (herdr.md §2 "Framing"): resolves with the parsed response
 * line; rejects with the socket error (ENOENT, ECONNREFUSED…) when there is no server.
 */
export function request(path, id, method, params = {}) {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    let buf = '';
    let answered = false;
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ id, method, params })}\n`));
    sock.on('data', (chunk) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0 || answered) return;
      answered = true;
      sock.destroy();
      try {
        resolve(JSON.parse(buf.slice(0, nl)));
      } catch (error) {
        reject(error);
      }
    });
    sock.on('error', (error) => {
      if (!answered) reject(error);
    });
    sock.on('close', () => {
      if (!answered) reject(Object.assign(new Error('connection closed without a response'), { code: 'ECLOSED' }));
    });
  });
}
