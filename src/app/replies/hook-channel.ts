import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  chmodSync,
  type FSWatcher,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HookKind, hookMessageSchema, ROLES, type Role } from '../../protocol/index.js';
import { jsonLines } from '../../protocol/json-lines.js';
import { Emitter } from '../../pty/emitter.js';
import { type HookSite, spoolCommand } from './hook-site.js';

const MAX_BYTES = 4 * 1024 * 1024;

export type HookDelivery = { readonly role: Role; readonly kind: HookKind; readonly payload: unknown; readonly at: number | null };

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A report dropped into a role's spool directory: `<pid>.<kind>.json`, renamed into place once whole. */
const SPOOLED = /^\d+\.([a-z-]+)\.json$/;

/**
 * The channel agents' end-of-turn hooks report on, in a private directory (mode 0700): a Unix
 * socket, with a per-run token the hook finds in its pane's environment, and, for a hook that needs
 * no Node start (see launch.ts), one spool directory per role that the hook's shell writes the
 * report into. A message with the wrong token or shape is refused and reported, never acted on.
 */
export class HookChannel implements HookSite {
  readonly onHost = false;
  readonly #onMessage = new Emitter<HookDelivery>();
  readonly #onRejected = new Emitter<string>();
  readonly onMessage = this.#onMessage.event;
  readonly onRejected = this.#onRejected.event;
  readonly #sockets = new Set<Socket>();
  readonly #watchers: FSWatcher[] = [];

  private constructor(
    readonly dir: string,
    readonly socketPath: string,
    /** The run's secret the roles' tokens derive from (kept by a host relay for --resume). */
    readonly secret: string,
    private readonly server: Server,
  ) {
    server.on('connection', (socket) => this.#accept(socket));
    for (const role of ROLES) {
      const spool = this.spoolFor(role);
      mkdirSync(spool, { mode: 0o700 });
      const watcher = watch(spool, (_event, name) => this.#spooled(role, name));
      // A spool no longer watched (its folder removed under relevo): said once; the turn then ends on
      // the transcript or the quiet screen, as without a hook.
      watcher.on('error', (error: NodeJS.ErrnoException) => {
        watcher.close();
        this.#onRejected.fire(`the ${role}'s hook spool is no longer watched (${error.code ?? error.message})`);
      });
      this.#watchers.push(watcher);
    }
  }

  /** The directory a hook of `role`'s agent may drop its report into (only that role's pane is told it). */
  spoolFor(role: Role): string {
    return join(this.dir, `${role}.spool`);
  }

  /** Writes a private file in the channel's directory; returns its path. */
  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  }

  store(role: Role, kind: HookKind, from: 'stdin' | 'arg'): string {
    return spoolCommand(this.spoolFor(role), kind, from);
  }

  static async open(secret = randomBytes(32).toString('hex')): Promise<HookChannel> {
    const dir = mkdtempSync(join(tmpdir(), 'relevo-'));
    chmodSync(dir, 0o700);
    const socketPath = join(dir, 'hook.sock');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    return new HookChannel(dir, socketPath, secret, server);
  }

  /** The token of one role: a hook can only speak for the agent whose pane holds it. */
  tokenFor(role: Role): string {
    return createHash('sha256').update(`${this.secret}:${role}`).digest('hex');
  }

  /** What a pane's environment needs for its agent's hook to reach this channel. */
  env(role: Role): Record<string, string> {
    return { RELEVO_HOOK_SOCKET: this.socketPath, RELEVO_HOOK_TOKEN: this.tokenFor(role), RELEVO_ROLE: role };
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) {
        this.#onRejected.fire(`message over ${MAX_BYTES} bytes`);
        socket.destroy();
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => {
      this.#receive(Buffer.concat(chunks).toString('utf8'));
      socket.end();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.#sockets.delete(socket));
  }

  /** A file in a role's spool: read once whole (renamed into place), removed, then taken as that role's message. */
  #spooled(role: Role, name: string | null): void {
    const kind = name === null ? undefined : SPOOLED.exec(name)?.[1];
    if (name === null || kind === undefined) return;
    const path = join(this.spoolFor(role), name);
    let text: string | null;
    let at: number;
    try {
      const stat = statSync(path);
      at = Math.floor(stat.mtimeMs);
      text = stat.size > MAX_BYTES ? null : readFileSync(path, 'utf8');
      unlinkSync(path);
    } catch {
      return; // Taken already (one file raises more than one event).
    }
    if (text === null) {
      this.#onRejected.fire(`message over ${MAX_BYTES} bytes`);
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      this.#onRejected.fire('not JSON');
      return;
    }
    this.#receive(JSON.stringify({ token: this.tokenFor(role), role, kind, payload, at }));
  }

  /** A report read elsewhere (a host's spool file): taken as the role's message, with the token it came with. */
  deliver(role: Role, kind: HookKind, token: string, payload: unknown, at?: number): void {
    this.#receive(JSON.stringify({ token, role, kind, payload, at }));
  }

  /** A report that could not be read: journaled with its reason like a refused message. */
  reject(reason: string): void {
    this.#onRejected.fire(reason);
  }

  #receive(text: string): void {
    for (const line of jsonLines(text, hookMessageSchema)) {
      if (!line.ok) {
        this.#onRejected.fire(line.problem === 'json' ? 'not JSON' : `malformed message: ${line.issues[0]?.path.join('.') || 'shape'}`);
        continue;
      }
      const message = line.value;
      if (!timingSafeEqual(digest(message.token), digest(this.tokenFor(message.role)))) {
        this.#onRejected.fire(`wrong token (claimed role ${message.role}, kind ${message.kind})`);
        continue;
      }
      this.#onMessage.fire({ role: message.role, kind: message.kind, payload: message.payload, at: message.at ?? null });
    }
  }

  async close(): Promise<void> {
    for (const watcher of this.#watchers) watcher.close();
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.#onMessage.dispose();
    this.#onRejected.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
