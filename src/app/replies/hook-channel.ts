import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HookKind, hookMessageSchema, type Role } from '../../protocol/index.js';
import { jsonLines } from '../../protocol/json-lines.js';
import { Emitter } from '../../pty/emitter.js';

const MAX_BYTES = 4 * 1024 * 1024;

export type HookDelivery = { readonly role: Role; readonly kind: HookKind; readonly payload: unknown; readonly at: number | null };

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The channel agents' end-of-turn hooks report on: a Unix socket in a private directory
 * (mode 0700), and a per-run token the hook finds in its pane's environment. A message with
 * the wrong token or shape is refused and reported, never acted on.
 */
export class HookChannel {
  readonly #onMessage = new Emitter<HookDelivery>();
  readonly #onRejected = new Emitter<string>();
  readonly onMessage = this.#onMessage.event;
  readonly onRejected = this.#onRejected.event;
  readonly #sockets = new Set<Socket>();

  private constructor(
    readonly dir: string,
    readonly socketPath: string,
    private readonly secret: string,
    private readonly server: Server,
  ) {
    server.on('connection', (socket) => this.#accept(socket));
  }

  static async open(): Promise<HookChannel> {
    const dir = mkdtempSync(join(tmpdir(), 'relevo-'));
    chmodSync(dir, 0o700);
    const socketPath = join(dir, 'hook.sock');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    return new HookChannel(dir, socketPath, randomBytes(32).toString('hex'), server);
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
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.#onMessage.dispose();
    this.#onRejected.dispose();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
