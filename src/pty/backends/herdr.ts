import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import which from 'which';
import { z } from 'zod';
import type { AgentState } from '../../protocol/index.js';
import type { Capture, MirrorSource } from './mirror.js';

/** A herdr call that failed: herdr's error code (`pane_not_found`, `server_not_running`, …) and message. */
export class HerdrError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Versions whose CLI and socket protocol (20) relevo-tui speaks. */
export const SUPPORTED_HERDR = /^0\.8\.\d+$/;
const SUPPORTED_TEXT = 'herdr 0.8.x (socket protocol 20)';

/** How herdr is run: its binary (`$HERDR_BIN_PATH`, else `herdr` on PATH) and the environment (socket, session). */
export type Herdr = { readonly bin: string; readonly env: NodeJS.ProcessEnv };

export async function findHerdr(env: NodeJS.ProcessEnv): Promise<Herdr> {
  const named = env.HERDR_BIN_PATH;
  const bin = named && named !== '' ? named : await which('herdr', { path: env.PATH ?? '', nothrow: true });
  if (!bin) throw new HerdrError('not_installed', 'herdr is not installed (not on PATH, and HERDR_BIN_PATH is not set)');
  return { bin, env };
}

const errorLine = z.object({ error: z.object({ code: z.string(), message: z.string().default('') }) });
const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** Runs `herdr args…` (no shell): stdout on success; herdr's JSON error (exit 1) or usage text (exit 2) as a HerdrError. */
export async function herdr(h: Herdr, args: readonly string[]): Promise<string> {
  const r = await execa(h.bin, args, {
    env: h.env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 15_000,
    stripFinalNewline: false,
  });
  if ((r as { code?: string }).code === 'ENOENT') throw new HerdrError('not_installed', `herdr not found at ${h.bin}`);
  if (r.exitCode === 0) return String(r.stdout);
  const stderr = String(r.stderr).trim();
  const reported = r.exitCode === 1 ? errorLine.safeParse(parseJson(stderr.split('\n')[0] ?? '')) : null;
  if (reported?.success) throw new HerdrError(reported.data.error.code, reported.data.error.message || reported.data.error.code);
  throw new HerdrError(
    r.exitCode === 2 ? 'usage' : 'failed',
    stderr.split('\n')[0] || `herdr ${args.join(' ')} failed (exit ${r.exitCode ?? r.signal})`,
  );
}

/** The server's socket, as herdr's CLI finds it: $HERDR_SOCKET_PATH, $HERDR_SESSION's, else the default. */
export function herdrSocket(env: NodeJS.ProcessEnv): string {
  const config = join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'herdr');
  if (env.HERDR_SOCKET_PATH) return env.HERDR_SOCKET_PATH;
  if (env.HERDR_SESSION) return join(config, 'sessions', env.HERDR_SESSION, 'herdr.sock');
  return join(config, 'herdr.sock');
}

const response = z.union([
  z.object({ id: z.string(), result: z.looseObject({ type: z.string() }) }),
  z.object({ id: z.string(), error: z.object({ code: z.string(), message: z.string().default('') }) }),
]);

let requests = 0;

/**
 * One request on the socket API (NDJSON, one request per connection): what relevo does many times a
 * second (looking at a pane, typing) without starting a herdr process each time.
 */
export function herdrRequest(socket: string, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const id = `relevo:${++requests}`;
    const sock = connect(socket);
    let buf = '';
    let done = false;
    const finish = (error: Error | null, value?: Record<string, unknown>) => {
      if (done) return;
      done = true;
      sock.destroy();
      if (error) reject(error);
      else resolve(value!);
    };
    sock.setEncoding('utf8');
    sock.setTimeout(15_000, () => finish(new HerdrError('timeout', `herdr ${method}: no answer`)));
    sock.on('connect', () => sock.write(`${JSON.stringify({ id, method, params })}\n`));
    sock.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const r = response.parse(JSON.parse(buf.slice(0, nl)));
        if ('error' in r) finish(new HerdrError(r.error.code, r.error.message || r.error.code));
        else finish(null, r.result);
      } catch (error) {
        finish(new HerdrError('invalid_response', `herdr ${method}: ${(error as Error).message.split('\n')[0]}`));
      }
    });
    sock.on('error', (error: NodeJS.ErrnoException) =>
      finish(new HerdrError('server_not_running', `herdr server not reachable at ${socket} (${error.code ?? error.message})`)),
    );
    sock.on('close', () => finish(new HerdrError('server_not_running', `herdr ${method}: the connection closed without an answer`)));
  });
}

/** `herdr --version`, refused unless supported. */
export async function checkHerdrVersion(h: Herdr): Promise<string> {
  const out = (await herdr(h, ['--version'])).trim();
  const version = /^herdr (\S+)$/.exec(out)?.[1];
  if (version === undefined || !SUPPORTED_HERDR.test(version)) {
    throw new HerdrError('unsupported_version', `${out || 'an unknown herdr'} is not supported: relevo-tui works with ${SUPPORTED_TEXT}`);
  }
  return version;
}

export const paneInfoSchema = z.looseObject({
  pane_id: z.string(),
  workspace_id: z.string(),
  agent_status: z.enum(['idle', 'working', 'blocked', 'done', 'unknown']),
  cwd: z.string().optional(),
  foreground_cwd: z.string().optional(),
  agent: z.string().optional(),
  title: z.string().optional(),
  terminal_title: z.string().optional(),
});
export type HerdrPaneInfo = z.infer<typeof paneInfoSchema>;
/** What `pane get` and `pane split` print: `{id, result: {type: "pane_info", pane}}`. */
const paneInfoResult = z.object({ id: z.string(), result: z.object({ type: z.literal('pane_info'), pane: paneInfoSchema }) });

export async function herdrPane(h: Herdr, id: string): Promise<HerdrPaneInfo> {
  const out = await herdr(h, ['pane', 'get', id]);
  return paneInfoResult.parse(JSON.parse(out)).result.pane;
}

/** `pane split` → the new pane's id. */
export async function herdrSplit(
  h: Herdr,
  target: string | null,
  direction: 'right' | 'down',
  cwd: string,
  env: Readonly<Record<string, string>>,
): Promise<string> {
  const args = [
    'pane',
    'split',
    ...(target ? [target] : []),
    '--direction',
    direction,
    '--cwd',
    cwd,
    '--no-focus',
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
  ];
  const out = await herdr(h, args);
  return paneInfoResult.parse(JSON.parse(out)).result.pane.pane_id;
}

/** herdr's agent_status as relevo's states: `idle` and `done` both mean the turn is over. */
export function statusState(status: HerdrPaneInfo['agent_status']): AgentState {
  switch (status) {
    case 'working':
      return 'busy';
    case 'idle':
    case 'done':
      return 'idle';
    case 'blocked':
      return 'blocked';
    case 'unknown':
      return 'unknown';
  }
}

const KEYS: Readonly<Record<string, string>> = { '\r': 'enter', '\x1b': 'esc', '\t': 'tab', '\x7f': 'backspace', '\x03': 'ctrl+c' };

const readSchema = z.object({ read: z.looseObject({ text: z.string() }) });
const paneSchema = z.object({ pane: paneInfoSchema });

/**
 * A Herdr pane as a mirror source, through the socket API: `pane.get` (agent_status, cwd, title) and
 * `pane.read` from the `detection` source (the live bottom of its buffer, text only) per look; the
 * turn's reply from `recent_unwrapped`; text as `pane.send_text`, keys as `pane.send_keys`.
 */
export class HerdrSource implements MirrorSource {
  readonly where: string;
  readonly #socket: string;
  #hadAgent = false;

  constructor(
    readonly h: Herdr,
    readonly paneId: string,
    /** Width of the mirror (herdr does not report a pane's size). */
    readonly cols: number,
  ) {
    this.where = `herdr ${paneId}`;
    this.#socket = herdrSocket(h.env);
  }

  #read(source: 'detection' | 'recent_unwrapped', lines?: number): Promise<string> {
    const params = { pane_id: this.paneId, source, format: 'text', strip_ansi: true, ...(lines ? { lines } : {}) };
    return herdrRequest(this.#socket, 'pane.read', params).then((r) => readSchema.parse(r).read.text);
  }

  async capture(): Promise<Capture> {
    const [got, text] = await Promise.all([herdrRequest(this.#socket, 'pane.get', { pane_id: this.paneId }), this.#read('detection')]);
    const info = paneSchema.parse(got).pane;
    const lines = text.split('\n');
    this.#hadAgent ||= info.agent !== undefined;
    const cols = Math.max(this.cols, ...lines.map((l) => [...l].length));
    return {
      cols,
      rows: Math.max(lines.length, 1),
      lines,
      scrolled: [],
      cursor: { x: 0, y: Math.max(lines.length - 1, 0) },
      title: info.terminal_title ?? info.title ?? '',
      cwd: info.foreground_cwd ?? info.cwd ?? null,
      // The agent left: herdr no longer sees one in the pane.
      exit: this.#hadAgent && info.agent === undefined ? { exitCode: 0 } : null,
      status: statusState(info.agent_status),
    };
  }

  async send(bytes: string): Promise<void> {
    const key = KEYS[bytes];
    if (key !== undefined) await herdrRequest(this.#socket, 'pane.send_keys', { pane_id: this.paneId, keys: [key] });
    else await herdrRequest(this.#socket, 'pane.send_text', { pane_id: this.paneId, text: bytes });
  }

  /** Claude Code and Codex ask for bracketed pastes: the text goes wrapped, as one paste. */
  async paste(text: string): Promise<void> {
    await herdrRequest(this.#socket, 'pane.send_text', { pane_id: this.paneId, text: `\x1b[200~${text}\x1b[201~` });
  }

  recent(): Promise<string> {
    return this.#read('recent_unwrapped', 1000);
  }
}
