/** The planner's goal with `--demo` and no `--goal` (its own module: `--help` quotes it without loading the flags' schema). */
export const DEMO_GOAL = 'Add pagination to /users with tests';
