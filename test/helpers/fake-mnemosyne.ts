import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type FakeMnemosyneCall = { argv: string[]; bank: string | null; scope: string | null };

export type FakeMnemosyne = {
  /** The directory holding the fake `mnemosyne` executable. */
  dir: string;
  /** The JSON-lines file each call of the fake appends to. */
  log: string;
  /** process.env with the fake first on PATH and FAKE_MNEMOSYNE_LOG set, plus `extra`. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Every call the fake has logged so far, oldest first. */
  calls(): FakeMnemosyneCall[];
  cleanup(): void;
};

/** A fake `mnemosyne` CLI (test/helpers/fake-mnemosyne/mnemosyne) logging to a fresh temp dir. */
export function fakeMnemosyne(): FakeMnemosyne {
  const dir = fileURLToPath(new URL('./fake-mnemosyne/', import.meta.url)).replace(/[\\/]$/, '');
  const logDir = mkdtempSync(join(tmpdir(), 'relevo-fake-mnemosyne-'));
  const log = join(logDir, 'calls.jsonl');
  return {
    dir,
    log,
    env: (extra = {}) => ({
      ...process.env,
      PATH: [dir, process.env.PATH ?? ''].filter((p) => p !== '').join(delimiter),
      FAKE_MNEMOSYNE_LOG: log,
      ...extra,
    }),
    calls() {
      let text: string;
      try {
        text = readFileSync(log, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as FakeMnemosyneCall);
    },
    cleanup: () => rmSync(logDir, { recursive: true, force: true }),
  };
}
