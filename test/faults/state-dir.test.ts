import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { BIN, onlyRunJournal, recordedSims, relevo, tempDir } from '../helpers/cli.js';
import { processesMentioning } from '../helpers/procs.js';

// The state directory's faults, injected with RELEVO_FSFAULT (see src/app/fsfault.ts): CI runs as
// root, where chmod cannot make a directory unwritable. A read-only file system is a real one: a
// read-only bind mount in a mount namespace of the test's own.

const GOAL = 'Add pagination to /users with tests';
const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);

/**
 * Runs `argv` in `dir` with `dir` mounted read-only, in a mount namespace of its own (`unshare -m` as
 * root; as another user, `-rm` maps it to root in a user namespace): the paths are arguments, never shell text.
 */
function inReadOnly(dir: string, argv: readonly string[]) {
  const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && cd "$1" && shift && exec "$@"';
  const unshare = process.getuid?.() === 0 ? ['-m'] : ['-rm'];
  return execa('unshare', [...unshare, 'sh', '-c', script, 'sh', dir, ...argv], {
    cwd: dir,
    reject: false,
    stdin: 'ignore',
    timeout: 90_000,
    env: { LANG: 'C.UTF-8', npm_command: '' },
  });
}

/** Why this machine cannot make a read-only mount (no unshare or mount, namespaces not allowed), or null when it can. */
async function probeReadOnlyMount(): Promise<string | null> {
  const probe = await inReadOnly(tempDir('relevo-ro-probe-'), ['sh', '-c', 'touch probe 2>/dev/null && echo writable || echo read-only']);
  if (probe.stdout === 'read-only') return null;
  const why = probe.stderr || probe.stdout || (probe.shortMessage ?? '');
  return `this machine cannot mount a directory read-only in a namespace of its own (unshare, mount): ${why.split('\n')[0]}`;
}
const readOnlyMount = await probeReadOnlyMount();

function setup() {
  const run = recordedSims(GOAL, 'relevo-fsfault-');
  return { ...run, args: run.args() };
}

/** One line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  return stderr.trim();
}

describe.concurrent('a state directory that cannot be written mid-run', () => {
  it('ENOSPC writing a checkpoint: paused state_unwritable (exit 3, one line), nothing delivered; --resume goes on to done', async () => {
    const { cwd, args, received } = setup();
    const paused = await relevo(args, cwd, { RELEVO_FSFAULT: 'checkpoint:ENOSPC:1' });
    expect(paused.exitCode).toBe(3);
    expect(oneLine(paused.stderr)).toMatch(
      /^relevo-tui: paused: state_unwritable: ENOSPC: no space left on device, mkdir '.*'; round 1 for the builder could not be checkpointed: --resume asks the planner again — journal: /,
    );
    const { runId, lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(lines.at(-1)).toMatchObject({ type: 'paused', reason: 'state_unwritable', pending_round: 1, pending_to: 'builder' });
    expect((lines.at(-1) as { detail: string }).detail).toMatch(/^ENOSPC: /);
    expect(of(lines, 'checkpoint')).toEqual([]);
    // Nothing is delivered without its checkpoint.
    expect(received('builder')).toEqual([]);
    expect(existsSync(join(cwd, '.relevo', 'runs', runId, 'planner', 'checkpoints', '1'))).toBe(false);

    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.stderr).toBe('');
    expect(resumed.exitCode).toBe(0);
    expect(onlyRunJournal(join(cwd, '.relevo')).lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });

  it('ENOSPC writing an offer: the handoff is never typed without it, and is typed once after --resume', async () => {
    const { cwd, args, received } = setup();
    const paused = await relevo(args, cwd, { RELEVO_FSFAULT: 'offer:ENOSPC:2' });
    expect(paused.exitCode).toBe(3);
    expect(oneLine(paused.stderr)).toMatch(
      /^relevo-tui: paused: state_unwritable: ENOSPC: no space left on device, open '.*offer\.json'; round 1 for the planner is kept — /,
    );
    const report = (text: string) => text.includes('[relevo ronda 1 · de builder]');
    expect(received('planner').filter(report)).toEqual([]);
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(0);
    expect(received('planner').filter(report)).toHaveLength(1);
  });

  it('the journal itself cannot be written: the pause is printed though not journaled, the journal stays whole, and --resume goes on', async () => {
    const { cwd, args } = setup();
    const paused = await relevo(args, cwd, { RELEVO_FSFAULT: 'journal:ENOSPC:9+' });
    expect(paused.exitCode).toBe(3);
    expect(oneLine(paused.stderr)).toMatch(
      /^relevo-tui: paused: state_unwritable: ENOSPC: no space left on device, write '.*events\.jsonl'/,
    );
    const { lines, raw } = onlyRunJournal(join(cwd, '.relevo'));
    // Eight whole lines, numbered 1…8: the failed ones were cut off again.
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(raw.endsWith('\n')).toBe(true);
    expect(of(lines, 'paused')).toEqual([]);
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(0);
    const after = onlyRunJournal(join(cwd, '.relevo')).lines;
    expect(after.map((l) => l.seq)).toEqual(after.map((_, i) => i + 1));
    expect(after.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });
});

describe.concurrent('a state directory that cannot be written at start', () => {
  it('EROFS: one line naming the directory and the cause, exit 2, nothing created, no agent started', async () => {
    const { cwd, args, received } = setup();
    const result = await relevo(args, cwd, { RELEVO_FSFAULT: 'state-dir:EROFS:1' });
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      `relevo-tui: state directory ${join(cwd, '.relevo')} is not writable: EROFS: read-only file system`,
    );
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
    expect(received('planner')).toEqual([]);
  });

  it('a real read-only file system (a read-only bind mount): EROFS, not the ENOENT a recursive mkdir reports', async (ctx) => {
    if (readOnlyMount !== null) ctx.skip(readOnlyMount);
    const { cwd, args, received } = setup();
    const result = await inReadOnly(cwd, [process.execPath, BIN, ...args]);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      `relevo-tui: state directory ${join(cwd, '.relevo')} is not writable: EROFS: read-only file system`,
    );
    expect(existsSync(join(cwd, '.relevo'))).toBe(false);
    expect(received('planner')).toEqual([]);
  });

  it('a state directory under a regular file (ENOTDIR, even as root): one line, exit 2', async () => {
    const { cwd, args } = setup();
    writeFileSync(join(cwd, 'file'), '');
    const stateDir = join(cwd, 'file', 'state');
    const result = await relevo([...args, '--state-dir', stateDir], cwd);
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toBe(`relevo-tui: state directory ${stateDir} is not writable: ENOTDIR: not a directory`);
  });

  it('the first journal line fails after the agents started: exit 2, one line, the agents stopped, no run left behind', async () => {
    const { cwd, records, args } = setup();
    const result = await relevo(args, cwd, { RELEVO_FSFAULT: 'journal:ENOSPC:1' });
    expect(result.exitCode).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      `relevo-tui: state directory ${join(cwd, '.relevo')} is not writable: ENOSPC: no space left on device`,
    );
    expect(readdirSync(join(cwd, '.relevo', 'runs'))).toEqual([]);
    expect(processesMentioning(records)).toEqual([]);
  });
});

describe.concurrent('an unforeseen error', () => {
  it('an exception thrown where nothing catches it (a turn-end listener): the last-resort guard pauses internal_error, exit 3, the agents stopped', async () => {
    const { cwd, records, args } = setup();
    const result = await relevo(args, cwd, { RELEVO_FAILPOINT: 'turn-end:2:throw' });
    expect(result.exitCode).toBe(3);
    expect(oneLine(result.stderr)).toMatch(/^relevo-tui: paused: internal_error: failpoint turn-end — journal: /);
    expect(onlyRunJournal(join(cwd, '.relevo')).lines.at(-1)).toMatchObject({ type: 'paused', reason: 'internal_error' });
    expect(processesMentioning(records)).toEqual([]);
  });

  it('a throw while a reply is read: paused internal_error (journaled, one line, exit 3), the agents stopped', async () => {
    const { cwd, records, args } = setup();
    const result = await relevo(args, cwd, { RELEVO_FAILPOINT: 'read-reply:2:throw' });
    expect(result.exitCode).toBe(3);
    expect(oneLine(result.stderr)).toMatch(/^relevo-tui: paused: internal_error: failpoint read-reply — journal: /);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(lines.at(-1)).toMatchObject({ type: 'paused', reason: 'internal_error', detail: 'failpoint read-reply' });
    expect(processesMentioning(records)).toEqual([]);
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(0);
  });
});
