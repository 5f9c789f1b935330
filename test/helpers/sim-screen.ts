/** What the simulated agent (`relevo-tui sim-agent`) draws, as several tests expect it line by line. */

/** Its permission prompt (asked for with `--ask`), under a rule `width` columns wide. */
export const simPermissionPrompt = (width: number): string[] => [
  '─'.repeat(width),
  'Bash command',
  '  npm test',
  'Do you want to proceed?',
  '❯ 1. Yes',
  '  2. No',
  'Esc to cancel · Enter to confirm',
];

/** Its reply to the first handoff of the default script (`Step 1 of 3: Write the failing tests — X`), as drawn. */
export const SIM_REPORT_1 = [
  '● Working on round 1.',
  '',
  '  <handoff>',
  '  Round 1 report',
  '  Did: Step 1 of 3: Write the failing tests — X',
  '  Files: src/users.ts, test/users.test.ts',
  '  Tests: 12 passed, 0 failed',
  '  Doubts: none',
  '  </handoff>',
];
