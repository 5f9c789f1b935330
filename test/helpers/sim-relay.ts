/** A RelayRunner over two built simulators in real pseudo-terminals, each recording what it receives (run `npm run build` first). */
import { join } from 'node:path';
import { loadProfile } from '../../src/app/config/profiles.js';
import type { RunnerOptions } from '../../src/app/run/run-options.js';
import { createRunDir, Journal } from '../../src/app/store/journal.js';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { printed, recorded, simArgv, tempDir } from './cli.js';
import { startRunner } from './runner.js';
import type { Undo } from './undo.js';

/**
 * `flags[role]`: the sim's think time, then any more flags (`--misbehave limit:2`); `options`: the
 * runner's own, over startRunner's (the agents' first PTY size…). Stopped by `undo`.
 */
export async function simRelay(
  undo: Undo,
  prefix: string,
  flags: Record<Role, readonly [thinkMs: string, ...more: string[]]>,
  options: Partial<RunnerOptions> = {},
) {
  const cwd = tempDir(prefix);
  const { runId, dir } = createRunDir(join(cwd, '.relevo'));
  const journal = new Journal(dir);
  const lines: JournalLine[] = [];
  journal.onAppend((l) => lines.push(l));
  const record = (role: Role) => join(cwd, `${role}-received.jsonl`);
  const sim = loadProfile('sim', 'test');
  const argv = (role: Role) => {
    const [thinkMs, ...more] = flags[role];
    return simArgv(role, thinkMs, '--record', record(role), ...more);
  };
  const runner = await startRunner({
    runId,
    cwd,
    env: { ...process.env, LANG: 'C.UTF-8' },
    readyTimeoutMs: 20_000,
    runDir: dir,
    runPath: `.relevo/runs/${runId}`,
    agents: { planner: { argv: argv('planner'), profile: sim }, builder: { argv: argv('builder'), profile: sim } },
    journal,
    ...options,
  });
  undo.add(async () => {
    await runner.stop();
    journal.close();
  });
  return { runner, lines, runId, dir, received: (role: Role) => recorded(record(role)), printed: (role: Role) => printed(record(role)) };
}
