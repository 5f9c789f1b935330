/** A RelayRunner over two built simulators in real pseudo-terminals, each recording what it receives (run `npm run build` first). */
import { join } from 'node:path';
import { loadProfile } from '../../src/app/config/profiles.js';
import { createRunDir, Journal } from '../../src/app/store/journal.js';
import type { JournalLine, Role } from '../../src/protocol/index.js';
import { recorded, simArgv, tempDir } from './cli.js';
import { startRunner } from './runner.js';
import type { Undo } from './undo.js';

/** `flags[role]`: the sim's think time, then any more flags (`--misbehave limit:2`). Stopped by `undo`. */
export async function simRelay(undo: Undo, prefix: string, flags: Record<Role, readonly [thinkMs: string, ...more: string[]]>) {
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
  });
  undo.add(async () => {
    await runner.stop();
    journal.close();
  });
  return { runner, lines, received: (role: Role) => recorded(record(role)) };
}
