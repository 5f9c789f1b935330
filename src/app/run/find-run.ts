import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { selfIn } from '../config/self.js';
import { ConfigError } from '../faults/errors.js';
import { readJournal } from '../store/journal.js';
import { rebuildable } from '../store/rebuild.js';

// Which run `--resume` picks up.

/** `<dir>/events.jsonl`'s whole lines; none when it is missing. */
const journalOf = (dir: string) => (existsSync(join(dir, 'events.jsonl')) ? readJournal(join(dir, 'events.jsonl')) : []);

/**
 * False for a run that never got its goal (quit before it): nothing to go on with. A run whose journal
 * was lost counts when `--resume` can rebuild it; an unreadable journal is left to `--resume` to explain.
 */
function gotGoal(dir: string): boolean {
  try {
    const lines = journalOf(dir);
    const goal = lines.some((l) => l.type === 'goal');
    return lines.some((l) => l.type === 'run_started') ? goal : goal || rebuildable(dir);
  } catch {
    return true;
  }
}

/** `<state-dir>/runs/<run>`, or for `latest` the newest run that got its goal; `given`: the --state-dir as the person gave it, for the hint. */
export function findRun(stateDir: string, run: string, given = '.relevo'): string {
  const runs = join(stateDir, 'runs');
  if (run !== 'latest') {
    // A run whose journal was lost is still a run: --resume rebuilds it, or says why it cannot.
    const dir = join(runs, run);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ConfigError('--resume', `no run ${run} in ${runs} (see ${selfIn(given, 'runs')})`);
    return dir;
  }
  const ids = existsSync(runs)
    ? readdirSync(runs)
        .filter((id) => existsSync(join(runs, id, 'events.jsonl')) || rebuildable(join(runs, id)))
        .sort()
    : [];
  if (ids.length === 0) throw new ConfigError('--resume', `no runs in ${runs}`);
  const latest = ids.findLast((id) => gotGoal(join(runs, id)));
  if (latest === undefined) throw new ConfigError('--resume', `no run in ${runs} got its goal: nothing to resume`);
  return join(runs, latest);
}
