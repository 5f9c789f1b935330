/**
 * A fake OpenAI Chat Completions API (what OpenCode's `@ai-sdk/openai-compatible` provider speaks):
 * `POST /v1/chat/completions`, streamed as SSE `chat.completion.chunk`s or answered as one JSON
 * `chat.completion`, with tool calls; `GET /v1/models`. Main-turn requests are answered from a
 * script, the session-title side request gets the title; everything is recorded.
 */
import type http from 'node:http';
import { sleep } from '../until.js';
import { chunk, FakeModelServer, type FakeServerOptions, isRecord, type RecordedRequest, type ScriptedReply } from './common.js';

export * from './common.js';

const MODEL = 'fake-model';

/** The text of a message's `content`: a string, or the `text` parts of an array. */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((c) => (isRecord(c) && c.type === 'text' && typeof c.text === 'string' ? [c.text] : []));
}

const messagesOf = (body: unknown): Record<string, unknown>[] =>
  isRecord(body) && Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];

/**
 * OpenCode names a session with a side request to its `title` agent: a system prompt that starts
 * "You are a title generator", no tools, and the user's first message wrapped for it.
 */
export function isTitleRequest(body: unknown): boolean {
  const system = messagesOf(body)
    .filter((m) => m.role === 'system')
    .flatMap((m) => contentTexts(m.content))
    .join('\n');
  return /You are a title generator/i.test(system);
}

export class FakeChatCompletions extends FakeModelServer {
  #ids = 0;

  constructor(options: FakeServerOptions = {}) {
    super(options);
  }

  /** The text of the last `user` message (its text parts joined), exactly as the CLI sent it. */
  userTextOf(body: unknown): string | undefined {
    const last = messagesOf(body).findLast((m) => m.role === 'user');
    if (last === undefined) return undefined;
    const texts = contentTexts(last.content);
    return texts.length === 0 ? undefined : texts.join('\n');
  }

  /** Every `system` (or `developer`) message, joined by blank lines. */
  systemTextOf(body: unknown): string {
    return messagesOf(body)
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .flatMap((m) => contentTexts(m.content))
      .join('\n\n');
  }

  /** For each main-turn request, the names of the tools it offered. */
  toolNames(): string[][] {
    return this.mainRequests().map((r) =>
      isRecord(r.body) && Array.isArray(r.body.tools)
        ? r.body.tools.flatMap((t) => (isRecord(t) && isRecord(t.function) && typeof t.function.name === 'string' ? [t.function.name] : []))
        : [],
    );
  }

  protected async handle(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (record.method === 'GET' && record.path === '/v1/models') {
      this.json(record, res, 200, { object: 'list', data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'fake' }] });
      return;
    }
    if (record.method !== 'POST' || record.path !== '/v1/chat/completions' || !isRecord(record.body)) {
      this.notFound(record, res);
      return;
    }
    const body = record.body;
    const title = isTitleRequest(body);
    // The title agent is asked for plain text, not the JSON the other fakes send.
    const scripted = this.replyFor(record, title);
    const reply: ScriptedReply = title ? { text: this.title, chunkSize: 1000 } : scripted;
    const model = typeof body.model === 'string' ? body.model : MODEL;
    const id = `chatcmpl-fake-${++this.#ids}`;
    if (body.stream !== true) {
      this.json(record, res, 200, {
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.text ?? '', ...this.#toolCalls(reply) },
            finish_reason: this.#finish(reply),
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
      return;
    }
    await this.#stream(record, res, id, model, reply);
  }

  #finish(reply: ScriptedReply): 'stop' | 'tool_calls' {
    return 'toolUse' in reply ? 'tool_calls' : 'stop';
  }

  #toolCalls(reply: ScriptedReply): { tool_calls?: Record<string, unknown>[] } {
    if (!('toolUse' in reply)) return {};
    const callId = reply.toolUse.id ?? `call_fake_${++this.#ids}`;
    return {
      tool_calls: [
        { index: 0, id: callId, type: 'function', function: { name: reply.toolUse.name, arguments: JSON.stringify(reply.toolUse.input) } },
      ],
    };
  }

  async #stream(record: RecordedRequest, res: http.ServerResponse, id: string, model: string, reply: ScriptedReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const open = () => !record.aborted && !res.destroyed;
    const created = Math.floor(Date.now() / 1000);
    const send = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) => {
      if (open()) {
        const data = {
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...extra,
        };
        res.write(`data: ${JSON.stringify(data)}\n\n`);
      }
    };
    send({ role: 'assistant', content: '' });
    if (reply.holdMs) await sleep(reply.holdMs);
    const delay = reply.delayMs ?? 10;
    for (const delta of chunk(reply.text ?? '', reply.chunkSize ?? 16)) {
      if (!open()) return;
      send({ content: delta });
      if (delay > 0) await sleep(delay);
    }
    const calls = this.#toolCalls(reply).tool_calls;
    if (calls !== undefined) send({ tool_calls: calls });
    send({}, this.#finish(reply), { usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } });
    if (open()) res.end('data: [DONE]\n\n');
  }
}

/** Starts a fake Chat Completions API on 127.0.0.1 with a random port. Use `${server.url}/v1` as the provider's `baseURL`. */
export function startFakeChatCompletions(options: FakeServerOptions = {}): Promise<FakeChatCompletions> {
  return new FakeChatCompletions(options).listen();
}
