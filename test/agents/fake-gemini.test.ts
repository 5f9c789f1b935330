/** The fake Gemini API on its own (no CLI): the wire shapes Gemini CLI 0.61 reads, the script, recording. */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeGemini, NO_SCRIPTED_REPLY, startFakeGemini } from '../helpers/fake-models/gemini.js';

let servers: FakeGemini[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(...replies: Parameters<FakeGemini['push']>) {
  const server = await startFakeGemini({ replies });
  servers.push(server);
  return server;
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test' },
    body: JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** The `data:` payloads of an SSE body. */
const events = (text: string) =>
  text
    .split(/\r?\n\r?\n/)
    .filter((b) => b.startsWith('data: '))
    .map(
      (b) =>
        JSON.parse(b.slice('data: '.length)) as { candidates: { content: { parts: Record<string, unknown>[] }; finishReason?: string }[] },
    );

const FIRST_TURN = {
  contents: [
    {
      role: 'user',
      parts: [
        { text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' },
        { text: '[relevo ronda 1 · de planner]\nhello · world' },
      ],
    },
  ],
  systemInstruction: { role: 'user', parts: [{ text: 'You are Gemini CLI.' }, { text: '# relevo: builder' }] },
  tools: [{ functionDeclarations: [{ name: 'run_shell_command' }] }],
};

describe('fake Gemini API', () => {
  it('streams a scripted reply as SSE chunks that add up to it, and records the user text without the CLI’s context', async () => {
    const server = await start({ text: 'Hi · there <handoff>x</handoff>', chunkSize: 5, delayMs: 0 });
    const res = await post(`${server.url}/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse`, FIRST_TURN);
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/event-stream');
    const chunks = events(res.text);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.candidates[0]!.content.parts.map((p) => p.text).join('')).join('')).toBe('Hi · there <handoff>x</handoff>');
    expect(chunks.at(-1)!.candidates[0]!.finishReason).toBe('STOP');
    expect(chunks.slice(0, -1).every((c) => c.candidates[0]!.finishReason === undefined)).toBe(true);
    expect(server.userTexts()).toEqual(['[relevo ronda 1 · de planner]\nhello · world']);
    expect(server.systemTexts()).toEqual(['You are Gemini CLI.\n\n# relevo: builder']);
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('test');
  });

  it('a scripted tool call is a functionCall part; the function response comes back in the next request', async () => {
    const server = await start({ toolUse: { name: 'run_shell_command', input: { command: 'rm -rf build' }, id: 'c1' } });
    const res = await post(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, FIRST_TURN);
    expect(events(res.text).flatMap((c) => c.candidates[0]!.content.parts)).toEqual([
      { functionCall: { name: 'run_shell_command', args: { command: 'rm -rf build' }, id: 'c1' } },
    ]);
    const answer = { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: '' } } }] };
    await post(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, { contents: [...FIRST_TURN.contents, answer] });
    expect(server.userTexts()).toEqual(['[relevo ronda 1 · de planner]\nhello · world', '']);
    expect(server.functionResponses()[1]).toEqual([{ id: 'c1', name: 'run_shell_command', response: { output: '' } }]);
    expect(server.mainRequests()[1]!.reply).toEqual({ text: NO_SCRIPTED_REPLY });
  });

  it('side requests (generateContent) get JSON that fits their schema and leave the script alone; countTokens answers', async () => {
    const server = await start({ text: 'the turn' });
    const schema = {
      type: 'object',
      properties: {
        reasoning: { type: 'string' },
        next_speaker: { type: 'string', enum: ['model', 'user'] },
        complexity_score: { type: 'integer' },
      },
    };
    const res = await post(`${server.url}/v1beta/models/gemini-3.5-flash-lite:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'who speaks next?' }] }],
      generationConfig: { responseJsonSchema: schema },
    });
    const body = JSON.parse(res.text) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text)).toEqual({
      reasoning: 'fake reasoning',
      next_speaker: 'user',
      complexity_score: 0,
    });
    const tokens = await post(`${server.url}/v1beta/models/m:countTokens`, { contents: [] });
    expect(JSON.parse(tokens.text)).toEqual({ totalTokens: 100 });
    expect(server.pending).toBe(1);
    expect(server.mainRequests()).toEqual([]);
    expect(server.sideRequests().map((r) => r.path)).toEqual(['/v1beta/models/gemini-3.5-flash-lite:generateContent']);
  });

  it('answers an unknown path with 404, recorded', async () => {
    const server = await start();
    const res = await post(`${server.url}/v1beta/files`, {});
    expect(res.status).toBe(404);
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([['/v1beta/files', 404]]);
  });
});
