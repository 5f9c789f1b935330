import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { AGENT_STATES } from './profile.js';

/** Longest evidence preview or reason kept: a line a person reads, never a whole screen. */
export const MAX_EVIDENCE_CHARS = 120;

/** Bound loosely: the producer cuts by characters, an astral one counts twice here. */
const short = lazySchema(() => z.string().max(MAX_EVIDENCE_CHARS * 8));

/** One detection rule as it was evaluated on a screen: where it looked, whether it matched, and why. */
export const ruleVerdictSchema = lazySchema(() =>
  z.strictObject({
    id: z.string(),
    state: z.enum(AGENT_STATES),
    priority: z.number().int().nonnegative(),
    /** Where it looked: `title`, `screen`, `bottom 16`, `osc 7501`. */
    region: z.string().max(32),
    ends_turn: z.boolean(),
    matched: z.boolean(),
    /** What matched, or why it did not (the first part of the rule that failed). */
    why: short,
    /** The text that matched, or (no match) what the region held. */
    evidence: short,
  }),
);
export type RuleVerdict = z.infer<typeof ruleVerdictSchema>;

/** Every rule of a profile evaluated on one screen, with the rule that decided (or why none did). */
export const explanationSchema = lazySchema(() =>
  z.strictObject({
    state: z.enum([...AGENT_STATES, 'unknown']),
    rule: z.string().nullable(),
    /** Why the state is not a matched rule's: no rule matched, or the multiplexer's own report outranked the screen. */
    fallback: short.optional(),
    /** `limited`: when the limit resets, as the decided rule's `reset` group read it. */
    reset: short.optional(),
    rules: z.array(ruleVerdictSchema).max(128),
  }),
);
export type Explanation = z.infer<typeof explanationSchema>;
