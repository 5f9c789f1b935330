#!/usr/bin/env node
// Fake `herdr server` for relevo-tui's tests, written from /work/shared/research/herdr.md
// (Herdr 0.8.0, protocol 20). Usage:
//   node server.mjs --socket PATH [--protocol N] [--cols N] [--rows N]
// Starts with workspace w1, tab w1:t1 and pane w1:p1 running $SHELL (or /bin/sh) on a real PTY.
// --protocol makes `ping` report another protocol version (to test `protocol_mismatch`).
// The one extension over herdr: a pane whose foreground argv contains `sim-agent` (relevo-tui's
// simulator) is detected as a `claude` agent, since the simulator draws Claude Code's screen.
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ApiError, METHODS, Session } from './session.mjs';
import { MAX_LINE, PROTOCOL, READ_LINE_MS, VERSION } from './wire.mjs';

const { values: opts } = parseArgs({
  options: { socket: { type: 'string' }, protocol: { type: 'string' }, cols: { type: 'string' }, rows: { type: 'string' } },
});
if (opts.socket === undefined) {
  process.stderr.write('usage: server.mjs --socket PATH [--protocol N] [--cols N] [--rows N]\n');
  process.exit(2);
}
const socket = opts.socket;
const protocol = opts.protocol === undefined ? PROTOCOL : Number(opts.protocol);

const session = new Session({
  socket,
  bin: join(dirname(fileURLToPath(import.meta.url)), 'herdr'),
  cwd: process.cwd(),
  cols: Number(opts.cols ?? process.env.FAKE_HERDR_COLS ?? 80),
  rows: Number(opts.rows ?? process.env.FAKE_HERDR_ROWS ?? 24),
});
session.createWorkspace({ focus: true });

/** herdr.md §2 "Events": the subscription types the fake knows. */
const SUBSCRIPTIONS = ['pane.agent_status_changed', 'pane.closed', 'pane.exited', 'pane.agent_detected'];

const EXTRA = {
  ping: () => ({ type: 'pong', version: VERSION, protocol }),
  'server.stop': () => {
    setImmediate(stop);
    return { type: 'ok' };
  },
  /** Keeps the connection open; pushes `{event, data}` lines (herdr.md §2 "Events"). */
  'events.subscribe': (p, _signal, push) => {
    const subs = p.subscriptions;
    if (!Array.isArray(subs) || subs.some((x) => !SUBSCRIPTIONS.includes(x?.type)))
      throw new ApiError('invalid_request', `subscriptions must be a list of {type: ${SUBSCRIPTIONS.join('|')}, …}`);
    const wanted = (ev) =>
      subs.some((x) =>
        x.type === 'pane.agent_status_changed'
          ? ev.event === x.type &&
            (x.pane_id === undefined || x.pane_id === ev.data.pane_id) &&
            (x.agent_status === undefined || x.agent_status === ev.data.agent_status)
          : ev.event === x.type.replace('.', '_'),
      );
    return {
      result: { type: 'subscription_started' },
      stream: () => {
        // Initial event when a filtered pane already has the status (herdr.md §2 "Initial event").
        for (const x of subs) {
          const pane = x.type === 'pane.agent_status_changed' && x.agent_status !== undefined ? session.panes.get(x.pane_id) : undefined;
          if (pane !== undefined && pane.status === x.agent_status)
            push({ event: x.type, data: { pane_id: pane.paneId, agent_status: pane.status, ...(pane.kind ? { agent: pane.kind } : {}) } });
        }
        const listener = (ev) => wanted(ev) && push(ev);
        session.listeners.add(listener);
        return () => session.listeners.delete(listener);
      },
    };
  },
  /** One matching `pane_agent_status_changed` event, then a response (herdr.md §2 "One-shot wait"). */
  'events.wait': async (p, signal) => {
    const m = p.match_event ?? {};
    if (m.event !== 'pane_agent_status_changed')
      throw new ApiError('invalid_request', 'match_event.event must be pane_agent_status_changed');
    const pane = session.pane(m.pane_id);
    const until = m.agent_status === undefined ? ['idle', 'working', 'blocked', 'done', 'unknown'] : [m.agent_status];
    await session.waitStatus(pane, until, session.timeout(p.timeout_ms), signal);
    const data = { pane_id: pane.paneId, agent_status: pane.status, ...(pane.kind ? { agent: pane.kind } : {}) };
    return { type: 'wait_matched', event: { event: 'pane.agent_status_changed', data } };
  },
};

async function handle(line, sock, signal) {
  const send = (obj) => !sock.destroyed && sock.write(`${JSON.stringify(obj)}\n`);
  let req;
  try {
    req = JSON.parse(line);
  } catch (error) {
    send({ id: '', error: { code: 'invalid_request', message: `invalid JSON: ${error.message}` } }); // herdr.md §2
    return sock.end();
  }
  const id = typeof req?.id === 'string' ? req.id : '';
  const method = req?.method;
  const params = req?.params ?? {};
  try {
    if (typeof method !== 'string' || typeof params !== 'object' || Array.isArray(params))
      throw new ApiError('invalid_request', 'a request is {"id","method","params"}');
    if (EXTRA[method] !== undefined) {
      const out = await EXTRA[method](params, signal, send);
      if (out?.stream !== undefined) {
        send({ id, result: out.result });
        const unsubscribe = out.stream();
        sock.on('close', unsubscribe);
        return;
      }
      send({ id, result: out });
    } else if (METHODS[method] !== undefined) {
      send({ id, result: await METHODS[method](session, params, signal) });
    } else throw new ApiError('invalid_request', `unknown method ${method}`);
  } catch (error) {
    if (error instanceof ApiError) send({ id, error: { code: error.code, message: error.message } });
    else send({ id, error: { code: 'internal_error', message: String(error?.stack ?? error) } });
  }
  sock.end();
}

// herdr.md §2 "Framing": one request line per connection (≤ 1 MiB, within 5 s), one response.
const server = createServer((sock) => {
  const abort = new AbortController();
  let buf = '';
  let started = false;
  const timer = setTimeout(() => sock.destroy(), READ_LINE_MS);
  sock.setEncoding('utf8');
  sock.on('error', () => {});
  sock.on('close', () => {
    clearTimeout(timer);
    abort.abort();
  });
  sock.on('data', (chunk) => {
    if (started) return;
    buf += chunk;
    const nl = buf.indexOf('\n');
    if (nl < 0 && buf.length <= MAX_LINE) return;
    started = true;
    clearTimeout(timer);
    if (nl < 0 || nl > MAX_LINE) {
      sock.end(`${JSON.stringify({ id: '', error: { code: 'invalid_request', message: 'request line longer than 1 MiB' } })}\n`);
      return;
    }
    void handle(buf.slice(0, nl), sock, abort.signal);
  });
});

function stop() {
  session.shutdown();
  server.close();
  rmSync(socket, { force: true });
  process.exit(0);
}
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, stop);

mkdirSync(dirname(socket), { recursive: true });
rmSync(socket, { force: true });
const umask = process.umask(0o177); // herdr.md §2: the socket has mode 0600
server.listen(socket, () => {
  process.umask(umask);
  chmodSync(socket, 0o600);
  process.stdout.write(`fake herdr ${VERSION} (protocol ${protocol}) listening on ${socket}\n`);
});
