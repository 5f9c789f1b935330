// Starts the fake herdr server (test/helpers/fake-herdr/server.mjs) for a test file and runs the
// fake `herdr` CLI against it. See test/helpers/fake-herdr/README.md for what the fake supports.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export type FakeHerdr = {
  /** The fake `herdr` executable. */
  bin: string;
  /** A fresh temp dir holding the socket and XDG_CONFIG_HOME; removed by stop(). */
  dir: string;
  socket: string;
  /** process.env with the fake first on PATH, HERDR_SOCKET_PATH and a temp XDG_CONFIG_HOME. */
  env: NodeJS.ProcessEnv;
  /** Runs `herdr …args` with `env` (never rejects; look at exitCode, stdout, stderr). */
  herdr(...args: string[]): Promise<HerdrResult>;
  /** One raw socket request (herdr.md §2): resolves with the parsed response line. */
  request(method: string, params?: Record<string, unknown>, id?: string): Promise<unknown>;
  /** Stops the server (it hangs up every pane's PTY) and removes `dir`. */
  stop(): Promise<void>;
};

export type FakeHerdrOptions = {
  /** Protocol version `ping` reports (default 20). */
  protocol?: number;
  /** Extra environment for the server and so for every pane. SHELL defaults to /bin/sh. */
  env?: NodeJS.ProcessEnv;
};

const HERE = fileURLToPath(new URL('./fake-herdr/', import.meta.url)).replace(/[\\/]$/, '');
export const FAKE_HERDR_BIN = join(HERE, 'herdr');

/** Runs the fake `herdr` CLI with exactly `env` (never rejects; look at exitCode, stdout, stderr). */
export function runHerdr(env: NodeJS.ProcessEnv, args: readonly string[]) {
  return execa(FAKE_HERDR_BIN, args, { env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 60_000 });
}
export type HerdrResult = Awaited<ReturnType<typeof runHerdr>>;

/** One NDJSON request on its own connection, like the real CLI does. */
export function socketRequest(socket: string, method: string, params: Record<string, unknown> = {}, id = 'test'): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const sock = connect(socket);
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(`${JSON.stringify({ id, method, params })}\n`));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      sock.destroy();
      try {
        resolve(JSON.parse(buf.slice(0, nl)));
      } catch (error) {
        reject(error);
      }
    });
    sock.on('error', reject);
    sock.on('close', () => reject(new Error(`connection closed without a response to ${method}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

export async function startFakeHerdr(options: FakeHerdrOptions = {}): Promise<FakeHerdr> {
  // Short path: a Unix socket path must stay under 108 bytes.
  const dir = mkdtempSync(join(tmpdir(), 'fh-'));
  const socket = join(dir, 'herdr.sock');
  const config = join(dir, 'config');
  mkdirSync(config);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHELL: '/bin/sh', // like herdr's own CLI tests (herdr.md §4)
    ...options.env,
    PATH: [HERE, options.env?.PATH ?? process.env.PATH ?? ''].filter((p) => p !== '').join(delimiter),
    HERDR_SOCKET_PATH: socket,
    XDG_CONFIG_HOME: config,
  };
  delete env.HERDR_SESSION;
  delete env.HERDR_PANE_ID;
  const args = [join(HERE, 'server.mjs'), '--socket', socket];
  if (options.protocol !== undefined) args.push('--protocol', String(options.protocol));
  const server = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const stop = async (): Promise<void> => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
      await exited(server);
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await socketRequest(socket, 'ping');
      break;
    } catch (error) {
      if (server.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`fake herdr server did not start: ${String(error)}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    bin: FAKE_HERDR_BIN,
    dir,
    socket,
    env,
    herdr: (...cliArgs: string[]) => runHerdr(env, cliArgs),
    request: (method, params = {}, id = 'test') => socketRequest(socket, method, params, id),
    stop,
  };
}
