/**
 * What both fake model servers share: an HTTP server on 127.0.0.1 with a random port,
 * request recording, a queue of scripted replies, and SSE helpers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { until } from '../until.js';

/** A plain text answer, streamed in chunks. */
export type TextReply = {
  readonly text: string;
  /** Characters (code points) per streamed delta. Default 16. */
  readonly chunkSize?: number;
  /** Pause between deltas, in ms. Default 10. */
  readonly delayMs?: number;
  /** Pause after the stream opened and before the first delta, in ms. Default 0. */
  readonly holdMs?: number;
};

/** A tool call (optionally preceded by some text). Only the Anthropic fake implements it. */
export type ToolCallReply = {
  readonly toolUse: { readonly name: string; readonly input: Readonly<Record<string, unknown>>; readonly id?: string };
  readonly text?: string;
  readonly chunkSize?: number;
  readonly delayMs?: number;
  readonly holdMs?: number;
};

export type ScriptedReply = TextReply | ToolCallReply;

export const NO_SCRIPTED_REPLY = '(no scripted reply)';

/** `main`: a model call for a turn (consumes the script); `title`: the session-title side request; `other`: anything else (HEAD /, unknown paths). */
export type RequestKind = 'main' | 'title' | 'other';

export type RecordedRequest = {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** Path without the query. */
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  /** The body, decompressed, as text. */
  readonly rawBody: string;
  /** The body parsed as JSON, or undefined. */
  readonly body: unknown;
  readonly at: number;
  kind: RequestKind;
  status: number;
  /** The reply this request consumed from the script (main turns only). */
  reply?: ScriptedReply;
  /** True when the client hung up before the reply was complete (e.g. Esc in the CLI). */
  aborted: boolean;
  /** When a streamed reply's last event was sent (the bench measures the relay hop from here). */
  endedAt?: number;
};

export type FakeServerOptions = {
  /** The script: one reply per main-turn request, in order. More can be added with `push()`. */
  readonly replies?: readonly ScriptedReply[];
  /** The title the title side request gets. Default "Fake title". */
  readonly title?: string;
  /** Receives one line per request (and per unexpected request). */
  readonly log?: (line: string) => void;
};

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Splits text into pieces of `size` code points (never inside a surrogate pair). */
export function chunk(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += Math.max(1, size)) out.push(points.slice(i, i + Math.max(1, size)).join(''));
  return out;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? 'identity').toLowerCase()) {
    case 'identity':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      throw new Error(`unsupported content-encoding ${encoding}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An SSE response whose writes stop quietly once the client hung up. */
export class SseStream {
  constructor(
    private readonly res: http.ServerResponse,
    private readonly record: RecordedRequest,
  ) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
  }

  get open(): boolean {
    return !this.record.aborted && !this.res.destroyed;
  }

  event(name: string, data: unknown): void {
    if (this.open) this.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.open) return;
    this.record.endedAt = Date.now();
    this.res.end();
  }
}

/**
 * The server both fakes are built on. Subclasses say how to answer a request
 * and how to find the user text and the system prompt in a request body.
 */
export abstract class FakeModelServer {
  readonly requests: RecordedRequest[] = [];
  readonly title: string;
  readonly #queue: ScriptedReply[];
  readonly #log: (line: string) => void;
  readonly #server: http.Server;
  #port = 0;

  protected constructor(options: FakeServerOptions) {
    this.#queue = [...(options.replies ?? [])];
    this.title = options.title ?? 'Fake title';
    this.#log = options.log ?? (() => {});
    this.#server = http.createServer((req, res) => void this.#onRequest(req, res));
  }

  /** Starts listening on 127.0.0.1 with a random port. */
  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  get port(): number {
    return this.#port;
  }

  /** `http://127.0.0.1:<port>` (no trailing slash, no /v1). */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Appends replies to the script. */
  push(...replies: ScriptedReply[]): void {
    this.#queue.push(...replies);
  }

  /** Replies still waiting in the script. */
  get pending(): number {
    return this.#queue.length;
  }

  /** The requests that started a turn (they consumed the script), in order. */
  mainRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  /** For each main-turn request, the text the user typed or pasted, exactly as the CLI sent it ('' if the last user message has no text, e.g. a tool result). */
  userTexts(): string[] {
    return this.mainRequests().map((r) => this.userTextOf(r.body) ?? '');
  }

  /** For each main-turn request, its system prompt (all system / developer / instructions text, joined by blank lines). */
  systemTexts(): string[] {
    return this.mainRequests().map((r) => this.systemTextOf(r.body));
  }

  /** Resolves once `count` main-turn requests arrived (rejects after `timeoutMs`). */
  async waitForMainRequests(count: number, timeoutMs = 10_000): Promise<RecordedRequest[]> {
    await until(`${count} main-turn request(s)`, () => this.mainRequests().length >= count, timeoutMs, {
      show: () => `got ${this.mainRequests().length}`,
    });
    return this.mainRequests();
  }

  /** Stops the server and drops every open connection. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  protected abstract handle(record: RecordedRequest, res: http.ServerResponse): Promise<void>;
  /** The last user text of a request body, or undefined. */
  abstract userTextOf(body: unknown): string | undefined;
  /** The system prompt of a request body ('' if none). */
  abstract systemTextOf(body: unknown): string;

  /** The next scripted reply, or a short placeholder when the script is empty. */
  /** The title side request gets the title as JSON; a main turn takes the next scripted reply. */
  protected replyFor(record: RecordedRequest, title: boolean): ScriptedReply {
    if (title) {
      record.kind = 'title';
      return { text: JSON.stringify({ title: this.title }), chunkSize: 1000 };
    }
    record.kind = 'main';
    const reply = this.nextReply();
    record.reply = reply;
    return reply;
  }

  protected nextReply(): ScriptedReply {
    return this.#queue.shift() ?? { text: NO_SCRIPTED_REPLY };
  }

  protected log(line: string): void {
    this.#log(line);
  }

  protected json(
    record: RecordedRequest,
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    record.status = status;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }

  /** 404 for anything the fake does not know, logged so a test run shows what the CLI asked for. */
  protected notFound(record: RecordedRequest, res: http.ServerResponse): void {
    this.log(`unexpected request ${record.method} ${record.url} ${record.rawBody.slice(0, 200)}`);
    this.json(record, res, 404, {
      error: { type: 'not_found_error', message: `fake server: no route for ${record.method} ${record.path}` },
    });
  }

  async #onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const url = req.url ?? '/';
    let rawBody: string;
    try {
      rawBody = decode(Buffer.concat(parts), req.headers['content-encoding']).toString('utf8');
    } catch (error) {
      this.log(`cannot decode ${req.method} ${url}: ${String(error)}`);
      res.writeHead(415).end();
      return;
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      url,
      path: url.split('?')[0] ?? url,
      headers: req.headers,
      rawBody,
      body: parseJson(rawBody),
      at: Date.now(),
      kind: 'other',
      status: 200,
      aborted: false,
    };
    this.requests.push(record);
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
    });
    try {
      await this.handle(record, res);
    } catch (error) {
      this.log(`handler failed for ${record.method} ${url}: ${String(error)}`);
      if (!res.headersSent) this.json(record, res, 500, { error: { type: 'api_error', message: String(error) } });
      else res.destroy();
    }
    this.log(`${record.method} ${url} -> ${record.kind} ${record.status}${record.aborted ? ' (aborted)' : ''}`);
  }
}
