/**
 * The relay every real-agent test plays: the goal, the planner's steps, the builder's reports and the
 * summary, as the fake model servers answer them. Markdown, a line wider than the pane, four-space
 * indents and a code fence, so a delivery that changes a byte shows.
 */
import type { JournalLine } from '../../src/protocol/index.js';
import type { ScriptedReply } from '../helpers/fake-models/common.js';

export const GOAL = 'Add pagination to /users with tests';
export const STEP_1 = 'Step 1: write failing tests for GET /users?page=2\n  - cover the empty page\nVerify: npm test';
export const STEP_2 = [
  '## Step 2: implement `page` and `limit`',
  '',
  `**Context:** ${'the handler in `src/users.ts` returns every row at once, which is slow for large tables; '.repeat(3).trim()}`,
  '- `limit` defaults to **20**, capped at 100',
  '    - four spaces in: keep the public API unchanged',
  '1. make the failing tests pass',
  '```ts',
  "const page = Number(req.query.page ?? '1');",
  '```',
  'Verify: npm test',
].join('\n');
export const REPORT_1 = 'Round 1 report\nDid: added test/users.test.ts\nTests: 2 failed (expected)\nDoubts: none';
export const SUMMARY = 'Pagination shipped in 2 rounds.';

/** A reply that ends with a handoff block. */
export const handoff = (intro: string, body: string): ScriptedReply => ({ text: `${intro}\n\n<handoff>\n${body}\n</handoff>` });
/** The planner's last reply: the run is done. */
export const done = (summary: string): ScriptedReply => ({ text: `Both steps are done.\n\n<done>\n${summary}\n</done>` });
/** The journal lines of one type. */
export const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);
