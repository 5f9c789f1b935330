/**
 * A fake OpenAI Responses API for Codex: `POST /v1/responses` (SSE or JSON) and the
 * session-title side request. Main-turn requests are answered from a script; everything is recorded.
 */
import type http from 'node:http';
import { sleep } from '../until.js';
import { chunk, FakeModelServer, type FakeServerOptions, isRecord, type RecordedRequest, type ScriptedReply, SseStream } from './common.js';

export * from './common.js';

/** True for the request Codex sends to name the session: `text.format` is a JSON schema. */
function isTitleRequest(body: Record<string, unknown>): boolean {
  const text = body.text;
  return isRecord(text) && isRecord(text.format) && text.format.type === 'json_schema';
}

/** The `input_text` strings of a message item. */
function inputTexts(item: unknown): string[] {
  if (!isRecord(item)) return [];
  const content = item.content;
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((c) =>
    isRecord(c) && (c.type === 'input_text' || c.type === 'text') && typeof c.text === 'string' ? [c.text] : [],
  );
}

const messagesOf = (body: unknown, role: string): unknown[] =>
  isRecord(body) && Array.isArray(body.input) ? body.input.filter((i) => isRecord(i) && i.type === 'message' && i.role === role) : [];

/** Context Codex adds as user items; not something the user typed. */
const isContext = (text: string) =>
  /^\s*<(environment_context|user_instructions)>/.test(text) || text.startsWith('# AGENTS.md instructions');

export class FakeOpenAI extends FakeModelServer {
  #ids = 0;
  #sequence = 0;

  constructor(options: FakeServerOptions = {}) {
    super(options);
  }

  /** The last `input_text` of the user messages that is not `<environment_context>` (or AGENTS.md instructions). */
  userTextOf(body: unknown): string | undefined {
    return messagesOf(body, 'user')
      .flatMap(inputTexts)
      .filter((t) => !isContext(t))
      .pop();
  }

  /** The `instructions` field (if any) and every `developer` (or `system`) item, joined by blank lines. */
  systemTextOf(body: unknown): string {
    const instructions = isRecord(body) && typeof body.instructions === 'string' ? [body.instructions] : [];
    return [...instructions, ...messagesOf(body, 'system').flatMap(inputTexts), ...messagesOf(body, 'developer').flatMap(inputTexts)].join(
      '\n\n',
    );
  }

  /** Until this time (epoch ms) every main request is answered 429 (a usage limit); null: never. */
  limitedUntil: number | null = null;

  /**
   * 429 as the real API sends a usage limit: `retry-after` (seconds), `x-ratelimit-reset-requests`
   * (a span such as `1h20m5s`), and the body Codex reads (`usage_limit_reached`, `resets_at` in epoch
   * seconds, `resets_in_seconds`).
   */
  #limited(record: RecordedRequest, res: http.ServerResponse, until: number): void {
    // A turn's request, answered with the limit instead of the script.
    record.kind = 'main';
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    const span = `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m${seconds % 60}s`;
    const error = {
      type: 'usage_limit_reached',
      message: 'The usage limit has been reached',
      plan_type: 'plus',
      resets_at: Math.ceil(until / 1000),
      resets_in_seconds: seconds,
    };
    const headers = {
      'retry-after': String(seconds),
      'x-ratelimit-limit-requests': '50',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': span,
    };
    this.json(record, res, 429, { error }, headers);
  }

  protected async handle(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (record.method === 'HEAD' && record.path === '/') {
      res.writeHead(200).end();
      return;
    }
    if (record.method !== 'POST' || record.path !== '/v1/responses' || !isRecord(record.body)) {
      this.notFound(record, res);
      return;
    }
    const body = record.body;
    if (this.limitedUntil !== null && !isTitleRequest(body)) {
      this.#limited(record, res, this.limitedUntil);
      return;
    }
    const reply = this.replyFor(record, isTitleRequest(body));
    const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
    if (body.stream === false) {
      this.json(record, res, 200, this.#response(model, 'completed', this.#items(reply)));
      return;
    }
    await this.#stream(record, res, model, reply);
  }

  #items(reply: ScriptedReply): Record<string, unknown>[] {
    const items: Record<string, unknown>[] = [];
    if (reply.text !== undefined && reply.text !== '') {
      items.push({
        id: `msg_fake_${++this.#ids}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      });
    }
    if ('toolUse' in reply) {
      const id = reply.toolUse.id ?? `call_fake_${++this.#ids}`;
      items.push({
        id: `fc_${id}`,
        type: 'function_call',
        status: 'completed',
        call_id: id,
        name: reply.toolUse.name,
        arguments: JSON.stringify(reply.toolUse.input),
      });
    }
    return items;
  }

  #response(model: string, status: 'in_progress' | 'completed', output: unknown[]) {
    return {
      id: `resp_fake_${this.#ids}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status,
      model,
      output,
      usage:
        status === 'completed'
          ? {
              input_tokens: 100,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens: 20,
              output_tokens_details: { reasoning_tokens: 0 },
              total_tokens: 120,
            }
          : null,
    };
  }

  async #stream(record: RecordedRequest, res: http.ServerResponse, model: string, reply: ScriptedReply): Promise<void> {
    const sse = new SseStream(res, record);
    const send = (type: string, data: Record<string, unknown>) => sse.event(type, { type, sequence_number: ++this.#sequence, ...data });
    const items = this.#items(reply);
    send('response.created', { response: this.#response(model, 'in_progress', []) });
    send('response.in_progress', { response: this.#response(model, 'in_progress', []) });
    if (reply.holdMs) await sleep(reply.holdMs);
    const size = reply.chunkSize ?? 16;
    const delay = reply.delayMs ?? 10;
    for (const [output_index, item] of items.entries()) {
      if (!sse.open) return;
      const item_id = item.id;
      if (item.type === 'message') {
        const text = reply.text ?? '';
        send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
        const part = { type: 'output_text', text: '', annotations: [] };
        send('response.content_part.added', { item_id, output_index, content_index: 0, part });
        for (const delta of chunk(text, size)) {
          if (!sse.open) return;
          send('response.output_text.delta', { item_id, output_index, content_index: 0, delta });
          if (delay > 0) await sleep(delay);
        }
        send('response.output_text.done', { item_id, output_index, content_index: 0, text });
        send('response.content_part.done', { item_id, output_index, content_index: 0, part: { ...part, text } });
      } else {
        send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        send('response.function_call_arguments.done', { item_id, output_index, arguments: item.arguments });
      }
      send('response.output_item.done', { output_index, item });
    }
    send('response.completed', { response: this.#response(model, 'completed', items) });
    sse.end();
  }
}

/** Starts a fake Responses API on 127.0.0.1 with a random port. Use `${server.url}/v1` as the provider's `base_url`. */
export function startFakeOpenAI(options: FakeServerOptions = {}): Promise<FakeOpenAI> {
  return new FakeOpenAI(options).listen();
}
