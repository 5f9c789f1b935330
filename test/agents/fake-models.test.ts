/** The fake model servers on their own (no CLI): protocol shapes, the script queue, recording. */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeAnthropic, NO_SCRIPTED_REPLY, startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { type FakeOpenAI, startFakeOpenAI } from '../helpers/fake-models/openai.js';

type Sse = { event: string; data: Record<string, unknown> };

function parseSse(text: string): Sse[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}, gzip = false) {
  const json = JSON.stringify(body);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}), ...headers },
    body: gzip ? gzipSync(json) : json,
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

let servers: (FakeAnthropic | FakeOpenAI)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const FIRST_TURN = {
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>\ncontext\n</system-reminder>' },
    { type: 'text', text: '[relevo ronda 1 · de planner]\nhello · world' },
  ],
};

describe('fake Anthropic Messages API', () => {
  async function start(...replies: Parameters<FakeAnthropic['push']>) {
    const server = await startFakeAnthropic({ replies });
    servers.push(server);
    return server;
  }

  it('streams a scripted reply as SSE, in chunks, and records the user text and system prompt', async () => {
    const server = await start({ text: 'Hi · there <handoff>x</handoff>', chunkSize: 5, delayMs: 0 });
    const res = await post(`${server.url}/v1/messages?beta=true`, {
      model: 'claude-opus-4-8',
      stream: true,
      system: [
        { type: 'text', text: 'You are Claude Code.' },
        { type: 'text', text: '# relevo: planner' },
      ],
      tools: [{ name: 'Bash' }],
      messages: [FIRST_TURN],
    });
    expect(res.type).toBe('text/event-stream');
    const events = parseSse(res.text);
    expect([...new Set(events.map((e) => e.event))]).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text);
    expect(deltas.join('')).toBe('Hi · there <handoff>x</handoff>');
    expect(deltas[0]).toBe('Hi · ');
    expect(events.find((e) => e.event === 'message_delta')?.data.delta).toMatchObject({ stop_reason: 'end_turn' });
    expect(server.userTexts()).toEqual(['[relevo ronda 1 · de planner]\nhello · world']);
    expect(server.systemTexts()).toEqual(['You are Claude Code.\n\n# relevo: planner']);
  });

  it('answers the title request with a JSON title without consuming the script', async () => {
    const server = await start({ text: 'main reply' });
    const res = await post(`${server.url}/v1/messages?beta=true`, {
      stream: true,
      output_config: { format: { type: 'json_schema', schema: {} } },
      messages: [{ role: 'user', content: 'name this' }],
    });
    const text = parseSse(res.text)
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(JSON.parse(text)).toEqual({ title: 'Fake title' });
    expect(server.pending).toBe(1);
    expect(server.requests.map((r) => r.kind)).toEqual(['title']);
    expect(server.mainRequests()).toEqual([]);
  });

  it('answers non-streaming requests with a JSON message, and a placeholder once the script is empty', async () => {
    const server = await start({ text: 'scripted' });
    const body = { stream: false, messages: [{ role: 'user', content: 'plain string' }] };
    const first = JSON.parse((await post(`${server.url}/v1/messages`, body)).text) as Record<string, unknown>;
    expect(first).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'scripted' }],
      stop_reason: 'end_turn',
    });
    const second = JSON.parse((await post(`${server.url}/v1/messages`, body)).text) as Record<string, unknown>;
    expect(second).toMatchObject({ content: [{ type: 'text', text: NO_SCRIPTED_REPLY }] });
    expect(server.userTexts()).toEqual(['plain string', 'plain string']);
  });

  it('streams a tool_use (input_json_delta, stop_reason tool_use) and records the tool_result that comes back', async () => {
    const server = await start(
      { text: 'Running.', toolUse: { name: 'Bash', input: { command: 'npm test' }, id: 'toolu_1' } },
      { text: 'done' },
    );
    const events = parseSse((await post(`${server.url}/v1/messages`, { stream: true, messages: [{ role: 'user', content: 'go' }] })).text);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => e.data.content_block);
    expect(starts).toEqual([
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} },
    ]);
    const json = events.find((e) => (e.data.delta as { type?: string } | undefined)?.type === 'input_json_delta');
    expect(JSON.parse((json!.data.delta as { partial_json: string }).partial_json)).toEqual({ command: 'npm test' });
    expect(events.find((e) => e.event === 'message_delta')?.data.delta).toMatchObject({ stop_reason: 'tool_use' });

    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok', is_error: false }] };
    await post(`${server.url}/v1/messages`, {
      stream: true,
      messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: [] }, result],
    });
    expect(server.userTexts()).toEqual(['go', '']);
    expect(server.toolResults()[1]).toEqual([result.content[0]]);
  });

  it('accepts gzip bodies, answers HEAD / and count_tokens, and 404s (and logs) anything else', async () => {
    const log: string[] = [];
    const server = await startFakeAnthropic({ replies: [{ text: 'zipped' }], log: (l) => log.push(l) });
    servers.push(server);
    expect((await fetch(`${server.url}/`, { method: 'HEAD' })).status).toBe(200);
    const zipped = await post(`${server.url}/v1/messages`, { stream: false, messages: [{ role: 'user', content: 'gz' }] }, {}, true);
    expect(JSON.parse(zipped.text)).toMatchObject({ content: [{ text: 'zipped' }] });
    expect(JSON.parse((await post(`${server.url}/v1/messages/count_tokens`, { messages: [] })).text)).toEqual({ input_tokens: 100 });
    expect((await post(`${server.url}/v1/other`, {})).status).toBe(404);
    expect(log.some((l) => l.includes('unexpected request POST /v1/other'))).toBe(true);
    expect(server.userTexts()).toEqual(['gz']);
  });

  it('waits holdMs before the first chunk and records a client that hung up', async () => {
    const server = await start({ text: 'x'.repeat(50), holdMs: 150, chunkSize: 1, delayMs: 20 });
    const controller = new AbortController();
    const started = Date.now();
    const res = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('content_block_delta')) seen += new TextDecoder().decode((await reader.read()).value);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    controller.abort();
    await expect.poll(() => server.mainRequests()[0]?.aborted, { timeout: 2000 }).toBe(true);
  });
});

describe('fake OpenAI Responses API', () => {
  async function start(...replies: Parameters<FakeOpenAI['push']>) {
    const server = await startFakeOpenAI({ replies });
    servers.push(server);
    return server;
  }

  const input = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
    {
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: '# relevo: builder' },
        { type: 'input_text', text: '<skills>' },
      ],
    },
    {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/tmp</cwd>\n</environment_context>' }],
    },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '[relevo ronda 1 · de planner]\nhello · world' }] },
  ];

  it('streams a scripted reply with the Responses events and records the user text and developer items', async () => {
    const server = await start({ text: 'Hi · there', chunkSize: 4, delayMs: 0 });
    const res = await post(`${server.url}/v1/responses`, { model: 'gpt-fake', stream: true, input, tools: [] }, {}, true);
    const events = parseSse(res.text);
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    expect(events.filter((e) => e.event === 'response.output_text.delta').map((e) => e.data.delta)).toEqual(['Hi ·', ' the', 're']);
    expect(events.at(-1)?.data.response).toMatchObject({
      status: 'completed',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi · there' }] }],
    });
    expect(server.userTexts()).toEqual(['[relevo ronda 1 · de planner]\nhello · world']);
    expect(server.systemTexts()).toEqual(['You are Codex.\n\n# relevo: builder\n\n<skills>']);
  });

  it('answers the title request (text.format json_schema) with a JSON title without consuming the script', async () => {
    const server = await start({ text: 'main' });
    const events = parseSse(
      (await post(`${server.url}/v1/responses`, { stream: true, input, text: { format: { type: 'json_schema', schema: {} } } })).text,
    );
    const done = events.find((e) => e.event === 'response.output_text.done');
    expect(JSON.parse(done!.data.text as string)).toEqual({ title: 'Fake title' });
    expect(server.pending).toBe(1);
    expect(server.mainRequests()).toEqual([]);
  });

  it('answers stream:false with a JSON response, then the placeholder once the script is empty', async () => {
    const server = await start({ text: 'one' });
    const first = JSON.parse((await post(`${server.url}/v1/responses`, { stream: false, input })).text) as Record<string, unknown>;
    expect(first).toMatchObject({ object: 'response', status: 'completed', output: [{ content: [{ text: 'one' }] }] });
    const events = parseSse((await post(`${server.url}/v1/responses`, { stream: true, input })).text);
    expect(events.find((e) => e.event === 'response.output_text.done')?.data.text).toBe(NO_SCRIPTED_REPLY);
    expect((await post(`${server.url}/v1/chat/completions`, {})).status).toBe(404);
  });
});
