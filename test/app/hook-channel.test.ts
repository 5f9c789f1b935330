import { statSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HookChannel, type HookDelivery } from '../../src/app/replies/hook-channel.js';
import { runHook } from '../../src/hook/send.js';
import { readHookPayload, reportFits } from '../../src/protocol/index.js';

function sendRaw(path: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(path, () => socket.end(text));
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
}

describe('hook channel', () => {
  it('lives in a private directory and takes a hook report sent with the role token', async () => {
    const channel = await HookChannel.open();
    try {
      expect(statSync(channel.dir).mode & 0o777).toBe(0o700);
      const got: HookDelivery[] = [];
      channel.onMessage((m) => got.push(m));
      const payload = {
        hook_event_name: 'Stop',
        session_id: 's',
        transcript_path: '/t.jsonl',
        last_assistant_message: 'done <handoff>x</handoff>',
      };
      const before = Date.now();
      expect(
        await runHook(
          ['codex-notify', JSON.stringify({ type: 'agent-turn-complete', 'last-assistant-message': 'hi' })],
          channel.env('builder'),
        ),
      ).toBe(0);
      await sendRaw(
        channel.socketPath,
        `${JSON.stringify({ token: channel.tokenFor('planner'), role: 'planner', kind: 'claude-stop', payload })}\n`,
      );
      await new Promise((r) => setTimeout(r, 50));
      // The hook program stamps when it ran; a raw message without the stamp is still taken.
      expect(got).toEqual([
        {
          role: 'builder',
          kind: 'codex-notify',
          payload: { type: 'agent-turn-complete', 'last-assistant-message': 'hi' },
          at: expect.any(Number),
        },
        { role: 'planner', kind: 'claude-stop', payload, at: null },
      ]);
      expect(got[0]!.at).toBeGreaterThanOrEqual(before);
    } finally {
      await channel.close();
    }
  });

  it("refuses a wrong token, another role's token, and malformed messages, and says why", async () => {
    const channel = await HookChannel.open();
    try {
      const got: unknown[] = [];
      const rejected: string[] = [];
      channel.onMessage((m) => got.push(m));
      channel.onRejected((r) => rejected.push(r));
      const msg = (token: string, role = 'planner') => JSON.stringify({ token, role, kind: 'claude-stop', payload: {} });
      await sendRaw(channel.socketPath, `${msg('nope')}\n${msg(channel.tokenFor('builder'))}\n{"token":1}\nplain text\n`);
      await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual([]);
      expect(rejected).toEqual([
        'wrong token (claimed role planner, kind claude-stop)',
        'wrong token (claimed role planner, kind claude-stop)',
        'malformed message: token',
        'not JSON',
      ]);
    } finally {
      await channel.close();
    }
  });

  it('the hook program exits 0 quietly when relevo is not there', async () => {
    expect(await runHook(['claude-stop', '{}'], {})).toBe(0);
    expect(
      await runHook(['claude-stop', '{}'], { RELEVO_HOOK_SOCKET: '/nonexistent/x.sock', RELEVO_HOOK_TOKEN: 't', RELEVO_ROLE: 'planner' }),
    ).toBe(0);
    expect(
      await runHook(['claude-stop', 'not json'], {
        RELEVO_HOOK_SOCKET: '/nonexistent/x.sock',
        RELEVO_HOOK_TOKEN: 't',
        RELEVO_ROLE: 'planner',
      }),
    ).toBe(0);
  });
});

describe('hook payloads', () => {
  it('belong to the turn only when they answer what relevo typed (Codex also reports its title turns)', () => {
    const main = { text: 'x', transcriptPath: null, input: ['[relevo ronda 1 · de planner]\nstep'], thread: 'main' };
    const title = {
      ...main,
      input: ['Generate a concise, single-line task title … User prompt:\n[relevo ronda 1 · de planner]\nstep'],
      thread: 'title',
    };
    expect(reportFits(main, '[relevo ronda 1 · de planner]\nstep', null)).toBe(true);
    expect(reportFits(title, '[relevo ronda 1 · de planner]\nstep', null)).toBe(false);
    expect(reportFits(main, null, 'main')).toBe(true);
    expect(reportFits(title, null, 'main')).toBe(false);
    expect(reportFits({ ...main, input: null }, 'anything', 'other')).toBe(true);
  });

  it('a hook that ran before the watched turn began reports an earlier turn, however late it arrives', () => {
    const stop = { text: '<handoff>turn 1</handoff>', transcriptPath: null, input: null, thread: 's' };
    expect(reportFits(stop, 'round 2', 's', { at: 1_000, since: 2_000 })).toBe(false);
    expect(reportFits(stop, 'round 2', 's', { at: 2_500, since: 2_000 })).toBe(true);
    expect(reportFits(stop, 'round 2', 's', { at: null, since: 2_000 })).toBe(true);
  });

  it("read Claude Code's Stop input and Codex's notify argument", () => {
    expect(
      readHookPayload('claude-stop', { hook_event_name: 'Stop', session_id: 's1', last_assistant_message: 'A', transcript_path: '/t' }),
    ).toEqual({ text: 'A', transcriptPath: '/t', input: null, thread: 's1' });
    expect(readHookPayload('claude-stop', { hook_event_name: 'Stop', transcript_path: '/t' })).toEqual({
      text: null,
      transcriptPath: '/t',
      input: null,
      thread: null,
    });
    expect(readHookPayload('claude-stop', { hook_event_name: 'SubagentStop', last_assistant_message: 'A' })).toBeNull();
    expect(
      readHookPayload('codex-notify', {
        type: 'agent-turn-complete',
        'thread-id': 't',
        'input-messages': ['hi'],
        'last-assistant-message': 'B',
      }),
    ).toEqual({ text: 'B', transcriptPath: null, input: ['hi'], thread: 't' });
    expect(readHookPayload('codex-notify', { type: 'something-else' })).toBeNull();
    expect(readHookPayload('codex-notify', 'junk')).toBeNull();
  });
});
