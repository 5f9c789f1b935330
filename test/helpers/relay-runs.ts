/** The runs of a repository's relays as their journals and checkpoints tell them, and the check that each reached done exactly once. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CheckpointStore } from '../../src/app/store/checkpoints.js';
import type { JournalLine, RelayInfo, Role } from '../../src/protocol/index.js';
import { parseJournal } from './cli.js';

export type RelayRun = { id: string; dir: string; lines: JournalLine[]; relay: RelayInfo };

/** Every run in the repository's state directory, with its journal and the relay its `run_started` names. */
export function relayRuns(root: string): RelayRun[] {
  const runs = join(root, '.relevo', 'runs');
  return readdirSync(runs).map((id) => {
    const dir = join(runs, id);
    const lines = parseJournal(readFileSync(join(dir, 'events.jsonl'), 'utf8'));
    const started = lines.find((l) => l.type === 'run_started');
    if (started?.type !== 'run_started' || started.worktree === undefined) throw new Error(`run ${id} is no relay`);
    return { id, dir, lines, relay: started.worktree };
  });
}

/** Each lane's acknowledged rounds, from the checkpoints on disk. */
export function ackedRounds(run: RelayRun): Record<Role, number[]> {
  const all = new CheckpointStore(run.dir, run.id).readAll();
  expect(all.every((c) => c.digestOk)).toBe(true);
  const of = (role: Role) => all.filter((c) => c.acked && c.checkpoint.from === role).map((c) => c.checkpoint.round);
  return { planner: of('planner'), builder: of('builder') };
}

/** Done once, every handoff of both lanes acknowledged, none journaled as delivered twice. */
export function expectDoneExactlyOnce(run: RelayRun) {
  expect(
    run.lines.filter((l) => l.type === 'done'),
    run.relay.branch,
  ).toHaveLength(1);
  expect(ackedRounds(run)).toEqual({ planner: [1, 2, 3], builder: [1, 2, 3] });
  const delivered = run.lines.flatMap((l) => (l.type === 'delivered' && l.kind === 'handoff' ? [`${l.from}/${l.round}`] : []));
  expect(new Set(delivered).size).toBe(delivered.length);
}
