import { type Explanation, MAX_EVIDENCE_CHARS, type Matcher, type RuleVerdict } from '../protocol/index.js';
import { type CompiledRule, detect } from './detect.js';
import type { Snapshot } from './screen.js';

/** Why the state is unknown when no rule matched: what relevo then does. */
export const NO_RULE_MATCHED = 'no rule matched: the state is unknown, so no turn ends and nothing is typed into the agent until one does';

/** What one matcher found in a region: whether it matched, the reason in a few words, the text that matched. */
export type Finding = { readonly matched: boolean; readonly why: string; readonly evidence: string | null };

const PATTERN_CHARS = 48;

/** `text` on one line, cut to `max` characters: from its start, or (`tail`) keeping its end. */
function cut(text: string, max = MAX_EVIDENCE_CHARS, tail = false): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return tail ? `…${chars.slice(-(max - 1)).join('')}` : `${chars.slice(0, max - 1).join('')}…`;
}

/** A line as a preview shows it: runs of one character (box rules, padding) shortened; its indent kept (a `^` pattern sees it). */
const squeeze = (line: string): string =>
  line
    .trimEnd()
    .replace(/(\S)\1{5,}/gu, '$1$1$1…')
    .replace(/(\S)\s{3,}/gu, '$1  ');

/** The region's non-empty lines on one line, its end kept (the bottom of a screen is where agents draw their state). */
export function preview(region: string): string {
  const lines = region
    .split('\n')
    .map(squeeze)
    .filter((l) => l !== '');
  return lines.length === 0 ? '(empty)' : cut(lines.join(' ⏎ '), MAX_EVIDENCE_CHARS, true);
}

/** The line of `region` holding offset `at`, trimmed and cut to show that offset. */
function lineAt(region: string, at: number): string {
  const start = region.lastIndexOf('\n', at - 1) + 1;
  const end = region.indexOf('\n', at);
  const line = region.slice(start, end < 0 ? undefined : end);
  const from = Math.max(0, at - start - 20);
  return cut(from > 0 ? `…${squeeze(line.slice(from))}` : squeeze(line));
}

function part(kind: keyof Matcher, m: Matcher, region: string): Finding {
  switch (kind) {
    case 'contains': {
      const at = region.toLowerCase().indexOf(m.contains!.toLowerCase());
      const quoted = `"${cut(m.contains!, PATTERN_CHARS)}"`;
      return at < 0
        ? { matched: false, why: `no ${quoted}`, evidence: null }
        : { matched: true, why: `${quoted} found`, evidence: lineAt(region, at) };
    }
    case 'regex': {
      const found = new RegExp(m.regex!, 'mu').exec(region);
      const shown = `/${cut(m.regex!, PATTERN_CHARS)}/`;
      return found === null
        ? { matched: false, why: `nothing matches ${shown}`, evidence: null }
        : { matched: true, why: `${shown} matches`, evidence: lineAt(region, found.index) };
    }
    case 'all': {
      const subs = m.all!.map((s) => explainMatcher(s, region));
      const failed = subs.find((s) => !s.matched);
      if (failed !== undefined) return failed;
      return {
        matched: true,
        why: subs.map((s) => s.why).join(' and '),
        evidence: subs.find((s) => s.evidence !== null)?.evidence ?? null,
      };
    }
    case 'any': {
      const subs = m.any!.map((s) => explainMatcher(s, region));
      return subs.find((s) => s.matched) ?? { matched: false, why: `none of: ${subs.map((s) => s.why).join('; ')}`, evidence: null };
    }
    case 'not': {
      const sub = explainMatcher(m.not!, region);
      return sub.matched
        ? { matched: false, why: `excluded: ${sub.why}`, evidence: sub.evidence }
        : { ...sub, matched: true, evidence: null };
    }
  }
}

const PARTS: readonly (keyof Matcher)[] = ['contains', 'regex', 'all', 'any', 'not'];

/** A matcher's parts in detect.ts's order, each must hold: the first that fails says why, else what matched. */
export function explainMatcher(m: Matcher, region: string): Finding {
  const found = PARTS.filter((k) => m[k] !== undefined).map((k) => part(k, m, region));
  const failed = found.find((f) => !f.matched);
  if (failed !== undefined) return failed;
  return { matched: true, why: found.map((f) => f.why).join(' and '), evidence: found.find((f) => f.evidence !== null)?.evidence ?? null };
}

const emptyRegion = (where: string): string =>
  where === 'title' ? 'no title' : where.startsWith('osc') ? `no OSC ${where.slice(4)} payload seen` : 'the screen is empty';

function verdict(rule: CompiledRule, snapshot: Snapshot): RuleVerdict {
  const region = rule.region(snapshot);
  // The verdict is the compiled test's, the one detect() runs; the finding only words it.
  const matched = rule.test(region);
  const finding = explainMatcher(rule.matcher, region);
  const empty = region.trim() === '' && !matched;
  return {
    id: rule.id,
    state: rule.state,
    priority: rule.priority,
    region: rule.where,
    ends_turn: rule.endsTurn,
    matched,
    why: cut(empty ? emptyRegion(rule.where) : finding.why, MAX_EVIDENCE_CHARS * 2),
    evidence: finding.evidence ?? preview(region),
  };
}

/**
 * Every rule evaluated on `snapshot`, in the profile's order, and the one that decided: the same
 * verdict as detect(), which stays the relay's fast path (it skips rules that cannot win).
 */
export function explainDetection(rules: readonly CompiledRule[], snapshot: Snapshot): Explanation {
  const { state, rule, reset } = detect(rules, snapshot);
  const found = { ...(rule === null ? { fallback: NO_RULE_MATCHED } : {}), ...(reset !== undefined ? { reset: cut(reset) } : {}) };
  return { state, rule, ...found, rules: rules.map((r) => verdict(r, snapshot)) };
}
