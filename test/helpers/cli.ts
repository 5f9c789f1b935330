import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { extract, type JournalLine, journalLineSchema } from '../../src/protocol/index.js';

export const BIN = fileURLToPath(new URL('../../bin/relevo-tui.js', import.meta.url));

/** The built-in simulator's argv in `role`, thinking `thinkMs` before each reply, then `flags`. */
export const simArgv = (role: 'planner' | 'builder', thinkMs: string, ...flags: string[]): string[] => [
  process.execPath,
  BIN,
  'sim-agent',
  '--role',
  role,
  '--think-ms',
  thinkMs,
  ...flags,
];

/** A `--planner`/`--builder` command line running the built-in simulator with test-friendly timing. */
export function simCommand(role: 'planner' | 'builder', ...flags: string[]): string {
  return quote(simArgv(role, '150', ...flags));
}

export function tempDir(prefix = 'relevo-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A PATH directory of executable shell scripts: each name with its body (after `#!/bin/sh`), e.g. fake agent CLIs. */
export function binDir(scripts: Readonly<Record<string, string>>): string {
  const dir = tempDir('relevo-bin-');
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** How relevo-tui names itself in the commands it suggests when run as `relevo` runs it (node and the bin's path). */
export const SELF = quote(['node', BIN]);

/** Runs `relevo-tui` as a user would (no stdin), in `cwd`: as `node bin/relevo-tui.js`, not through npm. */
export function relevo(args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args], {
    cwd,
    reject: false,
    stdin: 'ignore',
    timeout: 150_000,
    env: { LANG: 'C.UTF-8', npm_command: '', ...env },
  });
}

/** Parses JSON lines, validating each against the journal schema. */
export function parseJournal(text: string): JournalLine[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => journalLineSchema.parse(JSON.parse(l)));
}

/** The journal of the only run under `<stateDir>/runs/`. */
export function onlyRunJournal(stateDir: string): { runId: string; lines: JournalLine[]; raw: string } {
  const runs = readdirSync(join(stateDir, 'runs'));
  if (runs.length !== 1) throw new Error(`expected one run, found ${runs.join(', ')}`);
  const raw = readFileSync(join(stateDir, 'runs', runs[0]!, 'events.jsonl'), 'utf8');
  return { runId: runs[0]!, lines: parseJournal(raw), raw };
}

/** A line of a simulator's `--record FILE`: a message it received, or a block it printed at the end of a turn. */
type RecordLine = { text: string } | { handoff: string } | { done: string };

function recordLines(file: string): RecordLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RecordLine);
}

/** The messages a simulator started with `--record FILE` received, oldest first (every process that appended to it). */
export function recorded(file: string): string[] {
  return recordLines(file).flatMap((l) => ('text' in l ? [l.text] : []));
}

/**
 * What a simulator started with `--record FILE` printed at the end of its turns, oldest first: each
 * `<handoff>` body and `<done>` summary as relevo extracts it from the printed block (protocol/blocks.ts).
 */
export function printed(file: string): { handoffs: string[]; done: string[] } {
  const handoffs: string[] = [];
  const done: string[] = [];
  for (const line of recordLines(file)) {
    if ('handoff' in line) handoffs.push(extract(`<handoff>\n${line.handoff}\n</handoff>`).handoff ?? '');
    if ('done' in line) done.push(extract(`<done>\n${line.done}\n</done>`).done ?? '');
  }
  return { handoffs, done };
}

/** relevo's command line for a run of `goal` by these two agent commands, then `extra`. */
export const runArgs = (goal: string, agents: { planner: string; builder: string }, ...extra: string[]): string[] => [
  '--goal',
  goal,
  '--planner',
  agents.planner,
  '--builder',
  agents.builder,
  ...extra,
];

/**
 * A headless run of `goal` on two recorded simulators; the records live outside the working directory
 * (it may be a git repo). `args(...extra)` is the command line, `received(role)` what each was typed.
 */
export function recordedSims(goal: string, prefix = 'relevo-sims-') {
  const cwd = tempDir(prefix);
  const records = tempDir(`${prefix}records-`);
  const record = (role: 'planner' | 'builder') => join(records, `${role}.record`);
  const sims = {
    planner: simCommand('planner', '--record', record('planner')),
    builder: simCommand('builder', '--record', record('builder')),
  };
  const args = (...extra: string[]) => ['--headless', ...runArgs(goal, sims, ...extra)];
  return { cwd, records, args, received: (role: 'planner' | 'builder'): string[] => recorded(record(role)) };
}
