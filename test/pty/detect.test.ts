import { describe, expect, it } from 'vitest';
import { loadProfile, shippedProfileNames } from '../../src/app/config/profiles.js';
import { type Rule, ruleSchema } from '../../src/protocol/index.js';
import { compileRules, detect } from '../../src/pty/detect.js';
import type { Snapshot } from '../../src/pty/screen.js';
import { simPermissionPrompt } from '../helpers/sim-screen.js';

const snap = (lines: string[], title = '', osc: [number, string][] = []): Snapshot => ({ viewport: lines, title, osc: new Map(osc) });
const rule = (r: Partial<Rule> & Pick<Rule, 'id' | 'state'>): Rule => ruleSchema.parse({ priority: 10, region: 'screen', ...r });

describe('detection engine', () => {
  it('lets the highest priority win and the earlier rule break ties', () => {
    const rules = compileRules([
      rule({ id: 'idle-a', state: 'idle', contains: 'ready' }),
      rule({ id: 'busy', state: 'busy', priority: 20, contains: 'working' }),
      rule({ id: 'idle-b', state: 'idle', contains: 'ready' }),
    ]);
    expect(detect(rules, snap(['ready', 'working']))).toMatchObject({ state: 'busy', rule: 'busy' });
    expect(detect(rules, snap(['ready']))).toMatchObject({ state: 'idle', rule: 'idle-a' });
    // No rule matched: no winner, and nothing else is reported.
    expect(detect(rules, snap(['nothing']))).toEqual({ state: 'unknown', rule: null });
  });

  it('looks only where a rule says: title, bottom N non-empty lines, screen, an OSC payload', () => {
    const rules = compileRules([
      rule({ id: 'title', state: 'busy', region: 'title', regex: '^[\\u2800-\\u28ff]' }),
      rule({ id: 'bottom', state: 'idle', region: 'bottom', lines: 2, contains: 'PROMPT' }),
      rule({ id: 'osc', state: 'busy', priority: 5, region: 'osc', osc: 7501, contains: 'state=working' }),
    ]);
    expect(detect(rules, snap(['x'], '⠂ task')).rule).toBe('title');
    expect(detect(rules, snap(['PROMPT', 'a', 'b', '', ''])).rule).toBeNull();
    expect(detect(rules, snap(['a', 'prompt', '', 'b', ''])).rule).toBe('bottom');
    expect(detect(rules, snap(['a'], '', [[7501, 'state=working:app=codex']])).rule).toBe('osc');
  });

  it('matches contains without case, regex per line, and nests all / any / not', () => {
    const rules = compileRules([
      rule({
        id: 'ask',
        state: 'blocked',
        all: [{ contains: 'do you want to proceed?' }, { any: [{ regex: '^❯ 1\\. Yes' }, { regex: '^> yes' }] }],
        not: { contains: 'interrupted' },
      }),
    ]);
    expect(detect(rules, snap(['Do You Want To Proceed?', '❯ 1. Yes']))).toEqual({ state: 'blocked', rule: 'ask' });
    expect(detect(rules, snap(['Do you want to proceed?', '  ❯ 1. Yes']))).toEqual({ state: 'unknown', rule: null });
    expect(detect(rules, snap(['Do you want to proceed?', '> yes', 'Interrupted']))).toEqual({ state: 'unknown', rule: null });
  });

  it('a limited rule reports the text of its `reset` group (its own regex or one nested), other states never', () => {
    const rules = compileRules([
      rule({ id: 'idle', state: 'idle', contains: '> ' }),
      rule({ id: 'limit', state: 'limited', priority: 20, regex: 'limit reached(?: · resets (?<reset>.+))?$' }),
      rule({ id: 'nested', state: 'limited', priority: 30, all: [{ contains: 'quota' }, { regex: 'again in (?<reset>\\d+ minutes)' }] }),
      rule({ id: 'busy', state: 'busy', priority: 40, regex: '(?<reset>working)' }),
    ]);
    expect(detect(rules, snap(['limit reached · resets 3pm', '> ']))).toEqual({ state: 'limited', rule: 'limit', reset: '3pm' });
    expect(detect(rules, snap(['limit reached', '> ']))).toEqual({ state: 'limited', rule: 'limit' });
    expect(detect(rules, snap(['quota: try again in 5 minutes']))).toEqual({ state: 'limited', rule: 'nested', reset: '5 minutes' });
    expect(detect(rules, snap(['working']))).toEqual({ state: 'busy', rule: 'busy' });
  });

  it('rejects malformed rules with a message naming the problem', () => {
    expect(() => ruleSchema.parse({ id: 'x', state: 'idle', priority: 1, region: 'bottom', contains: 'a' })).toThrow(/needs lines/);
    expect(() => ruleSchema.parse({ id: 'x', state: 'idle', priority: 1, region: 'screen', regex: '([' })).toThrow(
      /not a valid regular expression/,
    );
    expect(() => ruleSchema.parse({ id: 'x', state: 'idle', priority: 1, region: 'screen' })).toThrow(/needs contains/);
    expect(() => ruleSchema.parse({ id: 'x', state: 'sleepy', priority: 1, region: 'screen', contains: 'a' })).toThrow();
    expect(() => ruleSchema.parse({ id: 'x', state: 'idle', priority: 1, region: 'screen', contains: 'a', extra: 1 })).toThrow();
  });
});

describe('shipped profiles', () => {
  it('all parse and validate', () => {
    const names = shippedProfileNames();
    expect(names).toEqual(expect.arrayContaining(['generic', 'sim']));
    for (const name of names) expect(loadProfile(name, 'test').data.id).toBe(name);
  });

  const sim = loadProfile('sim', 'test');
  const box = ['─'.repeat(20), '❯\u00a0', '─'.repeat(20), '  ? for shortcuts'];
  it('sim: idle at its prompt box, busy on the spinner title or "esc to interrupt", blocked on a permission prompt', () => {
    expect(detect(sim.rules, snap(['● done', '', ...box], '✳ relevo sim · planner'))).toMatchObject({ state: 'idle', rule: 'idle-title' });
    expect(detect(sim.rules, snap(['● done', '', ...box], ''))).toMatchObject({ state: 'idle', rule: 'prompt-box' });
    const busy = ['✶ Thinking… (1s)', '─'.repeat(20), '❯\u00a0', '─'.repeat(20), '  esc to interrupt'];
    expect(detect(sim.rules, snap(busy, '⠐ relevo sim · planner'))).toMatchObject({ state: 'busy', rule: 'title-spinner' });
    expect(detect(sim.rules, snap(busy, '✳ relevo sim · planner'))).toMatchObject({ state: 'busy', rule: 'esc-to-interrupt' });
    const ask = simPermissionPrompt(20);
    expect(detect(sim.rules, snap(ask, '✳ relevo sim · builder'))).toMatchObject({ state: 'blocked', rule: 'permission-prompt' });
  });

  it("sim: the agent's own prose asking a question is not a permission prompt", () => {
    const prose = ['● Do you want to proceed? I can also stop here.', '', ...box];
    expect(detect(sim.rules, snap(prose, '✳ relevo sim · planner'))).toEqual({ state: 'idle', rule: 'idle-title' });
  });

  const generic = loadProfile('generic', 'test');
  it('generic: idle only when the last line is a shell-like prompt', () => {
    for (const prompt of ['$ ', 'bash-5.2# ', 'me@host:~/src$', '> ', '❯ ']) {
      expect(detect(generic.rules, snap(['output', prompt.trimEnd()]))).toEqual({ state: 'idle', rule: 'shell-prompt' });
    }
    for (const line of ['</handoff>', 'compiling 3 files…', 'done.', '-> next']) {
      expect(detect(generic.rules, snap(['output', line]))).toEqual({ state: 'unknown', rule: null });
    }
  });
});
