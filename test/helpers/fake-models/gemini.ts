/**
 * A fake Gemini API (`@google/genai` wire format) for Gemini CLI:
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (SSE of GenerateContentResponse
 * chunks; a scripted tool call becomes a `functionCall` part), `:generateContent` (the CLI's side
 * requests: JSON answers to its classifier / next-speaker / loop checks, never from the script),
 * `:countTokens`, and `GET /v1beta/models`. Main-turn requests are answered from a script;
 * everything is recorded.
 */
import type http from 'node:http';
import { sleep } from '../until.js';
import { chunk, FakeModelServer, type FakeServerOptions, isRecord, type RecordedRequest, type ScriptedReply } from './common.js';

export * from './common.js';

const MODEL_FALLBACK = 'gemini-fake';
const ROUTE = /^\/v1(?:beta|alpha|)\/models\/([^/:]+):([A-Za-z]+)$/;

type Part = { text: string } | { functionCall: { name: string; args: Readonly<Record<string, unknown>>; id?: string } };

/** The text parts of a Content. */
function textsOf(content: unknown): string[] {
  if (!isRecord(content) || !Array.isArray(content.parts)) return [];
  return content.parts.flatMap((p) => (isRecord(p) && typeof p.text === 'string' && p.thought !== true ? [p.text] : []));
}

/** Context Gemini CLI adds as user text: the session's context, a hook's context. */
const isContext = (text: string) => /^\s*<(?:session_context|hook_context)>/.test(text);

/** A JSON value that fits a (JSON or OpenAPI) schema well enough for the CLI's side requests. */
function sample(schema: unknown, key = ''): unknown {
  if (!isRecord(schema)) return null;
  const type = String(schema.type ?? '').toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    // The next-speaker check: the user speaks next (the turn is over).
    if (schema.enum.includes('user')) return 'user';
    return schema.enum[0];
  }
  if (type === 'object' || isRecord(schema.properties)) {
    const props = isRecord(schema.properties) ? schema.properties : {};
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sample(v, k)]));
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') return 0;
  return key === '' ? 'fake' : `fake ${key}`;
}

/** Candidates' usage numbers: the CLI shows them and compresses when they grow. */
const usage = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };

export class FakeGemini extends FakeModelServer {
  #ids = 0;

  constructor(options: FakeServerOptions = {}) {
    super(options);
  }

  /**
   * The text parts of the last `user` content, joined, leaving out the context the CLI adds itself
   * (`<session_context>` opens the first message); undefined when it holds none (a function response).
   */
  userTextOf(body: unknown): string | undefined {
    if (!isRecord(body) || !Array.isArray(body.contents)) return undefined;
    const last = body.contents.filter((c) => isRecord(c) && c.role === 'user').pop();
    const texts = textsOf(last).filter((t) => !isContext(t));
    return texts.length === 0 ? undefined : texts.join('');
  }

  /** `systemInstruction`'s text parts, joined by blank lines. */
  systemTextOf(body: unknown): string {
    if (!isRecord(body)) return '';
    const si = body.systemInstruction ?? (isRecord(body.config) ? body.config.systemInstruction : undefined);
    if (typeof si === 'string') return si;
    return textsOf(si).join('\n\n');
  }

  /** Every `:generateContent` side request (classifier, next-speaker, loop checks …), in order. */
  sideRequests(): RecordedRequest[] {
    return this.requests.filter((r) => ROUTE.exec(r.path)?.[2] === 'generateContent');
  }

  /** The function responses the CLI sent back in the last user content of each main-turn request. */
  functionResponses(): Record<string, unknown>[][] {
    return this.mainRequests().map((r) => {
      const contents = isRecord(r.body) && Array.isArray(r.body.contents) ? r.body.contents : [];
      const last = contents.filter((c) => isRecord(c) && c.role === 'user').pop();
      const parts = isRecord(last) && Array.isArray(last.parts) ? last.parts : [];
      return parts.flatMap((p) => (isRecord(p) && isRecord(p.functionResponse) ? [p.functionResponse] : []));
    });
  }

  protected async handle(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const route = ROUTE.exec(record.path);
    if (record.method === 'GET' && /^\/v1(?:beta)?\/models\/?$/.test(record.path)) {
      this.json(record, res, 200, { models: [] });
      return;
    }
    if (record.method !== 'POST' || route === null || !isRecord(record.body)) {
      this.notFound(record, res);
      return;
    }
    const [, model = MODEL_FALLBACK, method] = route;
    const body = record.body;
    switch (method) {
      case 'countTokens':
        this.json(record, res, 200, { totalTokens: 100 });
        return;
      case 'generateContent':
        this.json(record, res, 200, this.#response(model, this.#side(body), 'STOP'));
        return;
      case 'streamGenerateContent':
        await this.#stream(record, res, model, this.replyFor(record, false));
        return;
      default:
        this.notFound(record, res);
    }
  }

  /** A side request's answer: JSON fitting its response schema, else a short text. */
  #side(body: Record<string, unknown>): Part[] {
    const config = isRecord(body.generationConfig) ? body.generationConfig : {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    if (schema !== undefined) return [{ text: JSON.stringify(sample(schema)) }];
    return [{ text: this.title }];
  }

  #parts(reply: ScriptedReply): Part[] {
    const parts: Part[] = [];
    if (reply.text !== undefined && reply.text !== '') parts.push({ text: reply.text });
    if ('toolUse' in reply) {
      const { name, input, id } = reply.toolUse;
      parts.push({ functionCall: { name, args: input, id: id ?? `call_fake_${++this.#ids}` } });
    }
    return parts;
  }

  #response(model: string, parts: Part[], finishReason: string | undefined) {
    return {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
      usageMetadata: usage,
      modelVersion: model,
      responseId: `resp_fake_${++this.#ids}`,
    };
  }

  async #stream(record: RecordedRequest, res: http.ServerResponse, model: string, reply: ScriptedReply): Promise<void> {
    record.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const open = () => !record.aborted && !res.destroyed;
    const send = (data: unknown) => {
      if (open()) res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
    };
    if (reply.holdMs) await sleep(reply.holdMs);
    const size = reply.chunkSize ?? 16;
    const delay = reply.delayMs ?? 10;
    const parts = this.#parts(reply);
    const pieces = parts.flatMap((p): Part[] => ('text' in p ? chunk(p.text, size).map((text) => ({ text })) : [p]));
    for (const [i, piece] of pieces.entries()) {
      if (!open()) return;
      send(this.#response(model, [piece], i === pieces.length - 1 ? 'STOP' : undefined));
      if (delay > 0 && i < pieces.length - 1) await sleep(delay);
    }
    if (pieces.length === 0) send(this.#response(model, [{ text: '' }], 'STOP'));
    if (open()) res.end();
  }
}

/** Starts a fake Gemini API on 127.0.0.1 with a random port. Point `GOOGLE_GEMINI_BASE_URL` at `server.url`. */
export function startFakeGemini(options: FakeServerOptions = {}): Promise<FakeGemini> {
  return new FakeGemini(options).listen();
}
