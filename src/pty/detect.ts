import type { AgentState, Matcher, Rule } from '../protocol/index.js';
import type { Snapshot } from './screen.js';

type Test = (region: string) => boolean;

export type CompiledRule = {
  readonly id: string;
  readonly state: Exclude<AgentState, 'unknown'>;
  readonly priority: number;
  /** A match is the agent's own word that its turn is over (`ends_turn`). */
  readonly endsTurn: boolean;
  readonly region: (s: Snapshot) => string;
  readonly test: Test;
  /** Where it looks, as a person reads it (`bottom 16`, `osc 7501`), and what it looks for: for explain.ts. */
  readonly where: string;
  readonly matcher: Matcher;
  /** The text of the first `reset` group its regexes capture in the region (a `limited` rule's reset time), or null. */
  readonly reset: (region: string) => string | null;
};

export type Detection = {
  readonly state: AgentState;
  /** Id of the rule that decided, or null when none matched. */
  readonly rule: string | null;
  /** A `limited` rule's `reset` group: when the limit resets, as the screen says it. */
  readonly reset?: string | undefined;
};

function compileMatcher(m: Matcher): Test {
  const tests: Test[] = [];
  if (m.contains !== undefined) {
    const needle = m.contains.toLowerCase();
    tests.push((r) => r.toLowerCase().includes(needle));
  }
  if (m.regex !== undefined) {
    const re = new RegExp(m.regex, 'mu');
    tests.push((r) => re.test(r));
  }
  if (m.all !== undefined) {
    const all = m.all.map(compileMatcher);
    tests.push((r) => all.every((t) => t(r)));
  }
  if (m.any !== undefined) {
    const any = m.any.map(compileMatcher);
    tests.push((r) => any.some((t) => t(r)));
  }
  if (m.not !== undefined) {
    const not = compileMatcher(m.not);
    tests.push((r) => !not(r));
  }
  return (r) => tests.every((t) => t(r));
}

function regexesOf(m: Matcher): string[] {
  return [m.regex ?? [], ...(m.all ?? []).flatMap(regexesOf), ...(m.any ?? []).flatMap(regexesOf)].flat();
}

function resetOf(m: Matcher): (region: string) => string | null {
  const res = regexesOf(m)
    .filter((r) => /\(\?<reset>/.test(r))
    .map((r) => new RegExp(r, 'mu'));
  return (region) => {
    for (const re of res) {
      const text = re.exec(region)?.groups?.reset;
      if (text !== undefined) return text;
    }
    return null;
  };
}

function regionOf(rule: Rule): (s: Snapshot) => string {
  switch (rule.region) {
    case 'title':
      return (s) => s.title;
    case 'screen':
      return (s) => s.viewport.join('\n');
    case 'osc': {
      const code = rule.osc ?? -1;
      return (s) => s.osc.get(code) ?? '';
    }
    case 'bottom': {
      const n = rule.lines ?? 1;
      return (s) =>
        s.viewport
          .filter((l) => l.trim() !== '')
          .slice(-n)
          .join('\n');
    }
  }
}

export function compileRules(rules: readonly Rule[]): CompiledRule[] {
  return rules.map((rule) => ({
    id: rule.id,
    state: rule.state,
    priority: rule.priority,
    endsTurn: rule.ends_turn,
    region: regionOf(rule),
    test: compileMatcher(rule),
    where: rule.region === 'bottom' ? `bottom ${rule.lines}` : rule.region === 'osc' ? `osc ${rule.osc}` : rule.region,
    matcher: rule,
    reset: resetOf(rule),
  }));
}

/**
 * One pure pass: each rule on its region; the highest priority wins, the earlier rule breaks ties
 * (so a rule that cannot outrank the one already found is not tested).
 */
export function detect(rules: readonly CompiledRule[], snapshot: Snapshot): Detection {
  let best: CompiledRule | null = null;
  for (const rule of rules) {
    if (best !== null && rule.priority <= best.priority) continue;
    if (rule.test(rule.region(snapshot))) best = rule;
  }
  if (best === null) return { state: 'unknown', rule: null };
  const reset = best.state === 'limited' ? best.reset(best.region(snapshot)) : null;
  return { state: best.state, rule: best.id, ...(reset !== null ? { reset } : {}) };
}
