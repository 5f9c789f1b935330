/** The fake Chat Completions server on its own (no CLI): the shapes OpenCode's provider reads, the script, recording. */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeChatCompletions, NO_SCRIPTED_REPLY, startFakeChatCompletions } from '../helpers/fake-models/chat-completions.js';

let servers: FakeChatCompletions[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function server(...replies: Parameters<FakeChatCompletions['push']>) {
  const s = await startFakeChatCompletions({ replies });
  servers.push(s);
  return s;
}

const post = async (s: FakeChatCompletions, body: unknown) => {
  const res = await fetch(`${s.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};

/** The `data:` payloads of an SSE body, `[DONE]` as a string. */
const chunks = (text: string): unknown[] =>
  text
    .split('\n\n')
    .filter((b) => b.startsWith('data: '))
    .map((b) => (b === 'data: [DONE]' ? '[DONE]' : JSON.parse(b.slice(6))));

const turn = (user: unknown, stream = true) => ({
  model: 'fake-model',
  stream,
  messages: [
    { role: 'system', content: 'You are opencode' },
    { role: 'user', content: 'earlier' },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: user },
  ],
  tools: [{ type: 'function', function: { name: 'bash', parameters: {} } }],
});

describe('fake Chat Completions server', () => {
  it('streams the scripted text as chat.completion.chunk deltas ending in stop and [DONE]; records the exact user text', async () => {
    const s = await server({ text: 'Hello · **world**\n    indented', chunkSize: 5, delayMs: 0 });
    const res = await post(s, turn([{ type: 'text', text: '[relevo ronda 1 · de planner]\nbody' }]));
    expect(res.type).toBe('text/event-stream');
    const data = chunks(res.text);
    expect(data.at(-1)).toBe('[DONE]');
    const deltas = data.slice(0, -1) as { object: string; choices: { delta: { content?: string }; finish_reason: string | null }[] }[];
    expect(deltas.every((d) => d.object === 'chat.completion.chunk')).toBe(true);
    expect(deltas.map((d) => d.choices[0]!.delta.content ?? '').join('')).toBe('Hello · **world**\n    indented');
    expect(deltas.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(s.userTexts()).toEqual(['[relevo ronda 1 · de planner]\nbody']);
    expect(s.systemTexts()).toEqual(['You are opencode']);
    expect(s.toolNames()).toEqual([['bash']]);
  });

  it('answers a tool call (streamed and as one JSON completion), then the placeholder once the script is empty', async () => {
    const call = { text: 'Cleaning.', toolUse: { name: 'bash', input: { command: 'rm -rf build' }, id: 'call_1' } };
    const s = await server(call, call);
    const streamed = chunks((await post(s, turn('clean'))).text) as {
      choices: { delta: { tool_calls?: unknown[] }; finish_reason: string | null }[];
    }[];
    expect(streamed.flatMap((d) => (d === ('[DONE]' as unknown) ? [] : (d.choices[0]!.delta.tool_calls ?? [])))).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"rm -rf build"}' } },
    ]);
    const json = JSON.parse((await post(s, turn('clean', false))).text) as {
      choices: { message: Record<string, unknown>; finish_reason: string }[];
    };
    expect(json.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: 'Cleaning.', tool_calls: [expect.objectContaining({ id: 'call_1' })] },
    });
    const empty = JSON.parse((await post(s, turn('again', false))).text) as { choices: { message: { content: string } }[] };
    expect(empty.choices[0]!.message.content).toBe(NO_SCRIPTED_REPLY);
    expect(s.mainRequests()).toHaveLength(3);
  });

  it("gives OpenCode's title request the title, without taking a scripted reply; lists its model", async () => {
    const s = await server({ text: 'the turn' });
    const title = await post(s, {
      stream: false,
      messages: [
        { role: 'system', content: 'You are a title generator. You output ONLY a thread title.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect((JSON.parse(title.text) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('Fake title');
    expect(s.requests.map((r) => r.kind)).toEqual(['title']);
    expect(s.pending).toBe(1);
    const models = (await (await fetch(`${s.url}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['fake-model']);
    expect((await fetch(`${s.url}/v1/other`, { method: 'POST' })).status).toBe(404);
  });
});
