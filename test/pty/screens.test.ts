// Captured screens of the real CLIs, one folder per agent and release, replayed through the shipped
// profiles: Claude Code 2.1.197, 2.1.332 (as relevo launches it: the classic renderer) and 2.1.332's
// fullscreen renderer (what an agent attached in a tmux pane may show); Codex 0.156 and 0.171 (--no-alt-screen); Qwen
// Code 0.24.4 (test/fixtures/capture/qwen.capture.ts); OpenCode 1.18.33 (its permission and question prompts from
// test/fixtures/capture/blocked-opencode.capture.ts). The
// permission prompts named `blocked--{bash,write}-permission` and `blocked--command-approval` come from
// test/fixtures/capture/blocked.capture.ts, which re-captures them from the real CLIs offline. The file name
// says the state the profile must see: `<state>--<what>.txt`; the header's `rule:` line names the profile rule that must
// decide it, so a screen read as the right state for the wrong reason (a title left over, a rule shadowing another) fails.
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/app/commands/explain.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { extract, reconstructReply } from '../../src/protocol/index.js';
import { detect } from '../../src/pty/detect.js';
import { explainDetection } from '../../src/pty/explain.js';
import { screenFixture as capture, screenFixtures as fixtures } from '../helpers/screens.js';

describe('captured screens of the real CLIs', () => {
  it.each(fixtures().map((f) => [`${f.agent} ${f.release} ${f.file}`, f] as const))('%s', (_name, f) => {
    const profile = loadProfile(f.agent, 'test');
    expect(f.rule, 'the fixture names the rule that must decide it (a `rule:` header line)').not.toBeNull();
    const { state, rule } = detect(profile.rules, f.snapshot);
    // On a failure, how every rule read the screen: the one that decided and why the others did not.
    expect({ state, rule }, `\n${formatExplanation(f.agent, explainDetection(profile.rules, f.snapshot))}`).toEqual({
      state: f.state,
      rule: f.rule,
    });
  });

  const rows = (lines: string[]) => lines.map((text) => ({ text, wrapped: false }));

  it('claude: the reply after the echo, bullet and indent removed; the hard wrap stays (the screen cannot know)', () => {
    const f = capture('claude', '2.1.197', 'idle--after-reply.txt');
    const reply = reconstructReply(rows(f.lines), loadProfile('claude', 'test').layout);
    expect(reply.interrupted).toBe(false);
    expect(reply.text.split('\n')[0]).toBe('Entendido. Aqui va el plan para la siguiente ronda.');
    expect(reply.text).toContain('terminal widths such as\nsixty or one hundred twenty columns');
    expect(extract(reply.text).handoff).toBe('step 1: do X\nstep 2: run tests');
  });

  it.each(['2.1.332', '2.1.332-fullscreen'])(
    'claude %s: the reply after the echo, the "✻ … for 2s · done" line and the effort note left out',
    (release) => {
      const f = capture('claude', release, 'idle--after-reply.txt');
      const reply = reconstructReply(rows(f.lines), loadProfile('claude', 'test').layout);
      expect(reply.interrupted).toBe(false);
      expect(reply.text).toBe('Entendido. Plan listo.\n\n<handoff>\nPaso 1: hacerlo\n  - con sangría\n</handoff>');
    },
  );

  it('qwen: the reply after the echo, ◆︎ gutter and indent removed; markdown comes back as drawn (the hook has it exact)', () => {
    const f = capture('qwen', '0.24.4', 'idle--after-reply.txt');
    const reply = reconstructReply(rows(f.lines), loadProfile('qwen', 'test').layout);
    expect(reply.interrupted).toBe(false);
    expect(reply.text.split('\n')[0]).toBe('Entendido. Plan listo.');
    expect(extract(reply.text).handoff).toBe('Paso 1\n - escribir los tests que fallan\n     - con cuatro espacios\nVerificar: npm test');
  });

  it('qwen: a turn cut by Esc ("●︎ Request cancelled.") is interrupted; the prompt put back in the box is read as input', () => {
    const f = capture('qwen', '0.24.4', 'idle--interrupted.txt');
    const qwen = loadProfile('qwen', 'test');
    expect(reconstructReply(rows(f.lines), qwen.layout).interrupted).toBe(true);
    expect(reconstructReply(rows(capture('qwen', '0.24.4', 'idle--after-reply.txt').lines), qwen.layout).interrupted).toBe(false);
    const box = f.lines.map((l) => qwen.layout.prompt.exec(l)?.[1]?.trim()).filter((t) => t !== undefined);
    expect(box).toEqual(['hello']);
  });

  it('codex: the reply after the echo, "Worked for" dropped', () => {
    const f = capture('codex', '0.171.0', 'idle--after-reply.txt');
    const reply = reconstructReply(rows(f.lines), loadProfile('codex', 'test').layout);
    expect(reply.text).not.toContain('Worked for');
    expect(reply.text.startsWith('Entendido.')).toBe(true);
    expect(extract(reply.text).handoff).toBe('step 1: do X\nstep 2: run tests');
  });

  it('opencode: the reply after the last ┃ box, the input box, its footer and the "▣ Build · Model" line cut (markdown stays rendered)', () => {
    const f = capture('opencode', '1.18.33', 'idle--after-reply.txt');
    const reply = reconstructReply(rows(f.lines), loadProfile('opencode', 'test').layout);
    expect(reply.text.split('\n')[0]).toBe('Hello from the fake.');
    expect(reply.text).not.toMatch(/Build · Fake Model|ctrl\+p commands|┃/);
    expect(extract(reply.text).handoff).toMatch(/^# Step 1\nA long line: [\s\S]*\n {4}indented code\n\n- item$/);
  });

  it('opencode: a turn stopped with Esc is interrupted (its partial reply never relayed)', () => {
    const f = capture('opencode', '1.18.33', 'idle--interrupted.txt');
    const reply = reconstructReply(rows(f.lines), loadProfile('opencode', 'test').layout);
    expect(reply.interrupted).toBe(true);
    expect(
      reconstructReply(rows(capture('opencode', '1.18.33', 'idle--after-reply.txt').lines), loadProfile('opencode', 'test').layout)
        .interrupted,
    ).toBe(false);
  });

  it('codex: OSC 7501 outranks the title spinner', () => {
    const codex = loadProfile('codex', 'test');
    const screen = { viewport: ['› Ask Codex to do anything'], title: '⠋ Fake title | proj' };
    expect(detect(codex.rules, { ...screen, osc: new Map([[7501, 'state=done:app=codex']]) })).toEqual({ state: 'idle', rule: 'osc-done' });
    expect(detect(codex.rules, { ...screen, viewport: ['• Answer streaming'], osc: new Map([[7501, 'state=working:app=codex']]) })).toEqual(
      {
        state: 'busy',
        rule: 'osc-working',
      },
    );
  });
});
