/**
 * A fake Anthropic Messages API for Claude Code: `POST /v1/messages` (SSE or JSON),
 * the session-title side request, `HEAD /`, and `count_tokens`. Main-turn requests are
 * answered from a script; everything is recorded.
 */
import type http from 'node:http';
import { sleep } from '../until.js';
import { chunk, FakeModelServer, type FakeServerOptions, isRecord, type RecordedRequest, type ScriptedReply, SseStream } from './common.js';

export * from './common.js';

const MODEL_FALLBACK = 'claude-fake';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Readonly<Record<string, unknown>> };

/** True for the request Claude Code sends to name the session: structured output with a JSON schema. */
function isTitleRequest(body: Record<string, unknown>): boolean {
  const config = body.output_config;
  return isRecord(config) && isRecord(config.format) && config.format.type === 'json_schema';
}

const stopReason = (blocks: readonly Block[]) => (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
}

export class FakeAnthropic extends FakeModelServer {
  /** Until this time (epoch ms) every main request is answered 429 (a rate or usage limit); null: never. */
  limitedUntil: number | null = null;
  #ids = 0;

  constructor(options: FakeServerOptions = {}) {
    super(options);
  }

  /** The last text block of the last user message that is not a `<system-reminder>`. */
  userTextOf(body: unknown): string | undefined {
    if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
    const users = body.messages.filter((m) => isRecord(m) && m.role === 'user');
    const last = users[users.length - 1];
    if (!isRecord(last)) return undefined;
    return textsOf(last.content)
      .filter((t) => !t.trimStart().startsWith('<system-reminder>'))
      .pop();
  }

  /** The `system` field: a string, or the text blocks joined by blank lines. */
  systemTextOf(body: unknown): string {
    return isRecord(body) ? textsOf(body.system).join('\n\n') : '';
  }

  /** The tool results the CLI sent back in the last user message of each main-turn request. */
  toolResults(): { tool_use_id: string; content: unknown; is_error?: boolean }[][] {
    return this.mainRequests().map((r) => {
      const messages = isRecord(r.body) && Array.isArray(r.body.messages) ? r.body.messages : [];
      const last = messages.filter((m) => isRecord(m) && m.role === 'user').pop();
      const content = isRecord(last) && Array.isArray(last.content) ? last.content : [];
      return content.filter((b) => isRecord(b) && b.type === 'tool_result') as { tool_use_id: string; content: unknown }[];
    });
  }

  protected async handle(record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (record.method === 'HEAD' && record.path === '/') {
      res.writeHead(200).end();
      return;
    }
    if (record.method === 'POST' && record.path === '/v1/messages/count_tokens') {
      this.json(record, res, 200, { input_tokens: 100 });
      return;
    }
    if (record.method !== 'POST' || record.path !== '/v1/messages' || !isRecord(record.body)) {
      this.notFound(record, res);
      return;
    }
    const body = record.body;
    if (this.limitedUntil !== null && !isTitleRequest(body)) {
      this.#limited(record, res, this.limitedUntil);
      return;
    }
    const reply = this.replyFor(record, isTitleRequest(body));
    const model = typeof body.model === 'string' ? body.model : MODEL_FALLBACK;
    if (body.stream === true) await this.#stream(record, res, model, reply);
    else this.json(record, res, 200, this.#message(model, this.#blocks(reply)));
  }

  /**
   * 429 with what the real API sends on a rate or usage limit: `retry-after` (seconds), the unified
   * limit headers of a subscription (`anthropic-ratelimit-unified-*`, the reset in epoch seconds) and
   * the per-key ones (`anthropic-ratelimit-requests-reset`, an RFC 3339 time).
   */
  #limited(record: RecordedRequest, res: http.ServerResponse, until: number): void {
    // A turn's request, answered with the limit instead of the script.
    record.kind = 'main';
    const seconds = Math.max(1, Math.ceil((until - Date.now()) / 1000));
    this.json(
      record,
      res,
      429,
      {
        type: 'error',
        error: { type: 'rate_limit_error', message: "This request would exceed your account's rate limit. Please try again later." },
      },
      {
        'retry-after': String(seconds),
        'anthropic-ratelimit-unified-status': 'rejected',
        'anthropic-ratelimit-unified-reset': String(Math.ceil(until / 1000)),
        'anthropic-ratelimit-unified-representative-claim': 'five_hour',
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
        'anthropic-ratelimit-requests-reset': new Date(until).toISOString(),
      },
    );
  }

  #blocks(reply: ScriptedReply): Block[] {
    const blocks: Block[] = [];
    if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
    if ('toolUse' in reply) {
      const { name, input, id } = reply.toolUse;
      blocks.push({ type: 'tool_use', id: id ?? `toolu_fake_${++this.#ids}`, name, input });
    }
    return blocks;
  }

  #message(model: string, content: Block[]) {
    return {
      id: `msg_fake_${++this.#ids}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason(content),
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20 },
    };
  }

  async #stream(record: RecordedRequest, res: http.ServerResponse, model: string, reply: ScriptedReply): Promise<void> {
    const sse = new SseStream(res, record);
    const blocks = this.#blocks(reply);
    sse.event('message_start', {
      type: 'message_start',
      message: { ...this.#message(model, []), stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } },
    });
    sse.event('ping', { type: 'ping' });
    if (reply.holdMs) await sleep(reply.holdMs);
    const size = reply.chunkSize ?? 16;
    const delay = reply.delayMs ?? 10;
    for (const [index, block] of blocks.entries()) {
      if (!sse.open) return;
      if (block.type === 'text') {
        sse.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        for (const piece of chunk(block.text, size)) {
          if (!sse.open) return;
          sse.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
          if (delay > 0) await sleep(delay);
        }
      } else {
        sse.event('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        sse.event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        });
      }
      sse.event('content_block_stop', { type: 'content_block_stop', index });
    }
    sse.event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason(blocks), stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    sse.event('message_stop', { type: 'message_stop' });
    sse.end();
  }
}

/** Starts a fake Anthropic API on 127.0.0.1 with a random port. Point `ANTHROPIC_BASE_URL` at `server.url`. */
export function startFakeAnthropic(options: FakeServerOptions = {}): Promise<FakeAnthropic> {
  return new FakeAnthropic(options).listen();
}
