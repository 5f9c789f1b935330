/**
 * A temporary directory for one measurement — relevo's state, the stand-in agents' pid files — and
 * the argv of those agents (bench-agent.ts). Released (or on cleanup, however the bench ends), it
 * kills every agent that wrote its pid there, then goes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/app/config/paths.js';
import { sleep } from '../test/helpers/until.js';
import { onCleanup, tempDir } from './cleanup.js';

/** The built agent program (`npm run build:bench` first), from bench/ (tests) and dist/bench alike. */
const AGENT = join(PACKAGE_ROOT, 'dist', 'bench', 'bench-agent.js');

export type AgentMode = 'echo' | 'flood' | 'print';

export class Workdir {
  readonly #dir = tempDir('relevo-bench-');
  readonly path = this.#dir.path;
  readonly release = onCleanup(() => {
    for (const f of readdirSync(this.path).filter((f) => f.endsWith('.pid'))) {
      try {
        process.kill(Number(readFileSync(join(this.path, f), 'utf8')), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.#dir.remove();
  });

  /** The argv of a stand-in agent that writes its pid here; `n` is a flood's bytes or the lines printed. */
  agent(mode: AgentMode, tag: string, n?: number): string[] {
    return [process.execPath, AGENT, mode, tag, join(this.path, `${tag}.pid`), ...(n === undefined ? [] : [String(n)])];
  }

  /** The pid an agent wrote, once it has. */
  async pid(tag: string, ms = 15_000): Promise<number> {
    const deadline = performance.now() + ms;
    while (performance.now() < deadline) {
      try {
        const pid = Number(readFileSync(join(this.path, `${tag}.pid`), 'utf8'));
        if (pid > 0) return pid;
      } catch {
        // not yet
      }
      await sleep(20);
    }
    throw new Error(`bench agent ${tag} did not start`);
  }
}
