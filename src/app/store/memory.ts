import { basename, delimiter, resolve } from 'node:path';
import { execa, execaSync } from 'execa';
import which from 'which';

/** How to install the `mnemosyne` CLI. */
export const MNEMOSYNE_INSTALL_HINT = 'uv tool install --python 3.12 mnemosyne-memory';

export type MemoryStatus = { state: 'ready'; bank: string; bin: string } | { state: 'blocked'; detail: string };

export type StoreResult = { ok: true; id: string | null } | { ok: false; detail: string };

const STORE_TIMEOUT_MS = 15_000;

/** Cuts `text` to at most `max` code points (never splits a surrogate pair). */
function cut(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max).join('');
}

/** One line, at most 240 chars, for status and error details. */
function oneLine(text: string): string {
  return cut(text.replace(/\s+/g, ' ').trim(), 240);
}

/**
 * The memory bank named after the project: the basename of the git toplevel when `cwd` is inside a
 * git repository, else the basename of `cwd`; lowercased, every char outside `[a-z0-9._-]` replaced
 * by `-`, at most 64 chars, and `project` when nothing usable is left (empty or only dots, so the
 * bank can never be `.`/`..` in mnemosyne's `data/banks/<name>/` path).
 */
export function projectBank(cwd: string): string {
  const git = execaSync('git', ['rev-parse', '--show-toplevel'], { cwd, reject: false, stdin: 'ignore' });
  const top = git.exitCode === 0 && typeof git.stdout === 'string' ? git.stdout.trim() : '';
  const name = basename(top !== '' ? top : resolve(cwd))
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '-')
    .slice(0, 64);
  return /^\.*$/.test(name) ? 'project' : name;
}

/** Long-term memory through the `mnemosyne` CLI, one bank per project; "not on PATH" is blocked, not an error. */
export class Memory {
  private constructor(
    readonly status: MemoryStatus,
    private readonly env: NodeJS.ProcessEnv,
    private readonly cwd: string,
  ) {}

  /** Finds `mnemosyne` on `env.PATH` (empty PATH entries are ignored) and picks the bank for `cwd`. */
  static async open(env: NodeJS.ProcessEnv, cwd: string): Promise<Memory> {
    const path = (env.PATH ?? '')
      .split(delimiter)
      .filter((p) => p !== '')
      .join(delimiter);
    const found = path === '' ? null : await which('mnemosyne', { path, nothrow: true });
    const status: MemoryStatus =
      found === null
        ? { state: 'blocked', detail: `mnemosyne not found on PATH; install it with: ${MNEMOSYNE_INSTALL_HINT}` }
        : { state: 'ready', bank: projectBank(cwd), bin: resolve(found) };
    return new Memory(status, env, cwd);
  }

  /** Stores one memory (global scope, source `relevo`, importance 0.8); never throws. */
  async store(text: string): Promise<StoreResult> {
    if (this.status.state === 'blocked') return { ok: false, detail: this.status.detail };
    // mnemosyne takes an argument starting with '-' as content only by accident (`remember --help`
    // stores "--help") and a future version may read it as a flag instead, so such a text gets a
    // visible "· " prefix: it can never be taken for a flag and the stored memory stays readable.
    const content = text.startsWith('-') ? `· ${text}` : text;
    try {
      const r = await execa(this.status.bin, ['store', content, 'relevo', '0.8'], {
        env: { ...this.env, MNEMOSYNE_BANK: this.status.bank, MNEMOSYNE_DEFAULT_SCOPE: 'global' },
        extendEnv: false,
        cwd: this.cwd,
        timeout: STORE_TIMEOUT_MS,
        stdin: 'ignore',
        reject: false,
      });
      const stdout = typeof r.stdout === 'string' ? r.stdout : '';
      const stderr = typeof r.stderr === 'string' ? r.stderr : '';
      if (r.timedOut) return { ok: false, detail: `mnemosyne store timed out after ${STORE_TIMEOUT_MS / 1000} s` };
      if (r.exitCode === 0) return { ok: true, id: /^Stored:\s*(\S+)/m.exec(stdout)?.[1] ?? null };
      const said = [stderr, stdout].flatMap((s) => s.split('\n')).find((l) => l.trim() !== '') ?? '';
      if (r.exitCode !== undefined) return { ok: false, detail: oneLine(`mnemosyne store exited ${r.exitCode}: ${said}`) };
      if (r.signal !== undefined) return { ok: false, detail: oneLine(`mnemosyne store killed by ${r.signal}`) };
      return { ok: false, detail: oneLine(`mnemosyne store failed to start: ${r.originalMessage ?? r.shortMessage}`) };
    } catch (error) {
      return { ok: false, detail: oneLine(`mnemosyne store failed: ${error instanceof Error ? error.message : String(error)}`) };
    }
  }
}

/** The memory for one relayed handoff: `relevo <runId> · round <n> · <from> → <to>: <first non-blank line>`. */
export function roundMemory(runId: string, round: number, from: 'planner' | 'builder', to: 'planner' | 'builder', body: string): string {
  const first =
    body
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return `relevo ${runId} · round ${round} · ${from} → ${to}: ${cut(first, 200)}`;
}

/** The memory for a finished run: `relevo <runId> · done: <summary on one line, ≤ 1000 chars>`. */
export function doneMemory(runId: string, summary: string): string {
  return `relevo ${runId} · done: ${cut(summary.replace(/\s+/g, ' ').trim(), 1000)}`;
}
