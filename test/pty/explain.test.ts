// Detection explained: every rule of a profile evaluated on a screen, with where it looked, whether it
// matched, why, and the text it saw; on the captured screens of the real CLIs and on small ones.
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/app/commands/explain.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import type { AgentState } from '../../src/protocol/index.js';
import { explanationSchema, journalEntrySchema, type Rule, ruleSchema } from '../../src/protocol/index.js';
import { AgentPane } from '../../src/pty/agent.js';
import { compileRules, detect } from '../../src/pty/detect.js';
import { explainDetection, explainMatcher, NO_RULE_MATCHED } from '../../src/pty/explain.js';
import { parseScreenFile } from '../../src/pty/screen-file.js';
import { FakePane, lineAgentProfile } from '../helpers/fake-pane.js';
import { screenFixture, screenFixtures } from '../helpers/screens.js';
import { until } from '../helpers/until.js';

const rule = (r: Partial<Rule> & Pick<Rule, 'id' | 'state'>): Rule => ruleSchema.parse({ priority: 10, region: 'screen', ...r });
const snap = (viewport: string[], title = '', osc: [number, string][] = []) => ({ viewport, title, osc: new Map(osc) });

describe('explainDetection on the captured screens', () => {
  it('claude busy: the title spinner decided; esc-to-interrupt matched too but ranks lower; the others say what they missed', () => {
    const f = screenFixture('claude', '2.1.197', 'busy--streaming.txt');
    const e = explainDetection(loadProfile('claude', 'test').rules, f.snapshot);
    expect([e.state, e.rule, e.fallback]).toEqual(['busy', 'title-spinner', undefined]);
    const by = Object.fromEntries(e.rules.map((v) => [v.id, v]));
    expect(by['title-spinner']).toEqual({
      id: 'title-spinner',
      state: 'busy',
      priority: 200,
      region: 'title',
      ends_turn: false,
      matched: true,
      why: '/^[\\u2800-\\u28ff◐◓◑◒]/ matches',
      evidence: '⠂ Fake title',
    });
    expect(by['esc-to-interrupt']).toMatchObject({
      matched: true,
      why: '"esc to interrupt" found',
      evidence: '  esc to interrupt · ← for agents',
    });
    expect(by['permission-prompt']).toMatchObject({ matched: false, region: 'bottom 16', why: 'no "Do you want to"' });
    // What the region held, its end kept and its box rules shortened.
    expect(by['permission-prompt']!.evidence).toMatch(/───… ⏎ {3}esc to interrupt · ← for agents$/);
    expect(by['idle-title']).toMatchObject({ matched: false, why: 'nothing matches /^✳ /', evidence: '⠂ Fake title' });
    expect(e.rules.map((v) => v.id)).toEqual(loadProfile('claude', 'test').data.detect.rules.map((r) => r.id));
    expect(explanationSchema.safeParse(e).success).toBe(true);
  });

  it('claude blocked: every part of an all/any rule in its reason; a not that held; a dialog pattern that needs the line start', () => {
    const f = screenFixture('claude', '2.1.332-fullscreen', 'blocked--permission-no-first.txt');
    const e = explainDetection(loadProfile('claude', 'test').rules, f.snapshot);
    const by = Object.fromEntries(e.rules.map((v) => [v.id, v]));
    expect(by['permission-prompt']).toMatchObject({
      matched: true,
      why: '"Do you want to" found and /^\\s*(?:❯\\s*)?(?:Yes|No)$/ matches',
      evidence: ' Do you want to proceed?',
    });
    expect(by['yes-no-menu']).toMatchObject({
      matched: true,
      why: '/^\\s+❯ (?:\\d+\\. )?(?:Yes|No)\\b/ matches and nothing matches /^❯\\u00a0/',
    });
    // Its indent kept in the evidence: why a pattern anchored at ^ does not see the footer.
    expect(by.dialog).toMatchObject({ matched: false, evidence: '   Yes ⏎  Esc to cancel · Tab to amend' });
  });

  it('codex: an any rule lists each alternative it missed; an OSC rule with no payload says so', () => {
    const f = screenFixture('codex', '0.171.0', 'busy--working.txt');
    const by = Object.fromEntries(explainDetection(loadProfile('codex', 'test').rules, f.snapshot).rules.map((v) => [v.id, v]));
    expect(by['approval-prompt']!.why).toBe(
      'none of: no "press enter to confirm or esc to cancel"; no "allow command?"; no "enter to submit answer"; no "enter to submit all"',
    );
    expect(by['osc-done']).toMatchObject({
      matched: false,
      ends_turn: true,
      region: 'osc 7501',
      why: 'no OSC 7501 payload seen',
      evidence: '(empty)',
    });
  });

  it('on every fixture: the same verdict as detect(), and each rule worded as its compiled test judged it', () => {
    const fixtures = screenFixtures();
    expect(fixtures.length).toBeGreaterThan(60);
    for (const f of fixtures) {
      const { rules } = loadProfile(f.agent, 'test');
      const e = explainDetection(rules, f.snapshot);
      const reset = e.reset !== undefined ? { reset: e.reset } : {};
      expect({ file: f.path, state: e.state, rule: e.rule, ...reset }).toEqual({ file: f.path, ...detect(rules, f.snapshot) });
      for (const r of rules) {
        const region = r.region(f.snapshot);
        expect({ file: f.path, rule: r.id, matched: explainMatcher(r.matcher, region).matched }).toEqual({
          file: f.path,
          rule: r.id,
          matched: r.test(region),
        });
      }
    }
  });
});

describe('explainDetection on small screens', () => {
  it('no rule matched: the state is unknown and the fallback says what relevo then does; an empty title is named', () => {
    const rules = compileRules([
      rule({ id: 'ready', state: 'idle', contains: 'ready' }),
      rule({ id: 'spin', state: 'busy', region: 'title', regex: '^⠋' }),
    ]);
    const e = explainDetection(rules, snap(['nothing here']));
    expect([e.state, e.rule, e.fallback]).toEqual(['unknown', null, NO_RULE_MATCHED]);
    expect(e.rules.map((v) => [v.id, v.matched, v.why, v.evidence])).toEqual([
      ['ready', false, 'no "ready"', 'nothing here'],
      ['spin', false, 'no title', '(empty)'],
    ]);
    expect(formatExplanation('toy', e)).toContain(`toy: unknown\n  ${NO_RULE_MATCHED}\n`);
  });

  it('a rule shut out by its not shows the text that shut it out; equal priorities go to the earlier rule', () => {
    const rules = compileRules([
      rule({ id: 'ask', state: 'blocked', contains: 'proceed?', not: { contains: 'interrupted' } }),
      rule({ id: 'first', state: 'idle', contains: 'ready' }),
      rule({ id: 'second', state: 'idle', contains: 'ready' }),
    ]);
    const e = explainDetection(rules, snap(['Proceed?', '  [Interrupted by user]', 'ready']));
    expect(e.rules[0]).toMatchObject({ matched: false, why: 'excluded: "interrupted" found', evidence: '  [Interrupted by user]' });
    expect(e.rule).toBe('first');
    const text = formatExplanation('toy', e);
    expect(text).toContain('  second (idle, priority 10, screen): matched, first came first at priority 10\n');
    expect(text).toContain(
      '  ask (blocked, priority 10, screen): no match\n    excluded: "interrupted" found\n    held:   [Interrupted by user]\n',
    );
  });

  it('a long line is cut around what matched', () => {
    const e = explainDetection(
      compileRules([rule({ id: 'x', state: 'idle', contains: 'needle' })]),
      snap([`${'word '.repeat(60)}needle end`]),
    );
    expect(e.rules[0]!.evidence).toMatch(/^…[\w ]+needle end$/);
    expect([...e.rules[0]!.evidence].length).toBeLessThanOrEqual(120);
  });

  it('fits a stalled journal line whatever the screen holds (wide characters, long ids, many alternatives)', () => {
    const id = `a-${'long-'.repeat(30)}id`;
    const any = Array.from({ length: 16 }, (_, i) => ({ contains: `${'🙂'.repeat(40)}${i}` }));
    const e = explainDetection(compileRules([rule({ id, state: 'busy', any })]), snap(['🙂'.repeat(300), '🙂'.repeat(300)]));
    expect(e.rules[0]!.why.startsWith('none of: no "🙂')).toBe(true);
    expect(() => journalEntrySchema.parse({ type: 'stalled', role: 'builder', why: 'busy', for_ms: 1, detection: e })).not.toThrow();
  });
});

describe('a live pane explains itself', () => {
  class ReportingPane extends FakePane {
    reported: AgentState | null = null;
  }

  it("AgentPane.explain(): the screen's rules, and the multiplexer's report when it outranks them", async () => {
    const pane = new ReportingPane();
    const agent = new AgentPane('builder', pane, lineAgentProfile());
    try {
      await pane.draw('>');
      await until('idle', () => agent.state === 'idle');
      expect(agent.explain()).toMatchObject({ state: 'idle', rule: 'input-line' });
      pane.reported = 'busy';
      expect(agent.explain()).toMatchObject({
        state: 'busy',
        rule: 'multiplexer:busy',
        fallback: "the multiplexer reports busy, over the screen's idle",
      });
    } finally {
      agent.dispose();
      pane.dispose();
    }
  });
});

describe('parseScreenFile', () => {
  it('reads the header (title, OSC payloads, the rule that must decide), then the rows', () => {
    const f = parseScreenFile('title: ⠋ work\nosc 7501: state=done\nrule: osc-done\n---\n› hi\n---\nlast\n');
    expect(f).toEqual({
      rule: 'osc-done',
      snapshot: { title: '⠋ work', osc: new Map([[7501, 'state=done']]), viewport: ['› hi', '---', 'last'] },
    });
  });

  it('a capture with no header is all rows, a --- line among them', () => {
    expect(parseScreenFile('# Plan\n---\n❯ \r\n')).toEqual({
      rule: null,
      snapshot: { title: '', osc: new Map(), viewport: ['# Plan', '---', '❯ '] },
    });
  });
});
