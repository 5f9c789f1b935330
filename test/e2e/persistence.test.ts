import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { onlyRunJournal, recordedSims, relevo, SELF, tempDir } from '../helpers/cli.js';
import { fakeMnemosyne } from '../helpers/fake-mnemosyne.js';
import { gitRepo } from '../helpers/git.js';

const GOAL = 'Add pagination to /users with tests';
const of = <T extends JournalLine['type']>(lines: JournalLine[], type: T) =>
  lines.filter((l): l is Extract<JournalLine, { type: T }> => l.type === type);

const setup = () => recordedSims(GOAL, 'relevo-persist-');

describe.concurrent('file delivery (seed 003)', () => {
  it('--deliver file types the header and the path of HANDOFF.md; the agents read it and the run completes', async () => {
    const { cwd, received, args } = setup();
    const result = await relevo(args('--deliver', 'file'), cwd);
    expect(result.exitCode).toBe(0);
    const { runId, lines } = onlyRunJournal(join(cwd, '.relevo'));
    const path = `.relevo/runs/${runId}/planner/checkpoints/1/HANDOFF.md`;
    expect(received('builder')[0]).toBe(`[relevo ronda 1 · de planner]\nRead this handoff in full at ${path} and go on as usual.`);
    // What the builder reads there is the handoff exactly as it would have been typed.
    const md = readFileSync(join(cwd, path), 'utf8');
    const cp = JSON.parse(readFileSync(join(cwd, `.relevo/runs/${runId}/planner/checkpoints/1/handoff.json`), 'utf8')) as { body: string };
    expect(md).toContain(`[relevo ronda 1 · de planner]\n${cp.body}\n`);
    const handoffs = of(lines, 'delivered').filter((d) => d.kind === 'handoff');
    expect(handoffs).toHaveLength(6);
    expect(handoffs.every((d) => d.via === 'file')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });

  it('auto: a handoff over --deliver-max-lines goes as a file, a short one is typed in full; es for Spanish', async () => {
    const { cwd, received, args } = setup();
    // The planner's steps have 7–8 lines, the builder's reports 5.
    const result = await relevo(args('--deliver-max-lines', '6', '--lang', 'es'), cwd);
    expect(result.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    const via = of(lines, 'delivered')
      .filter((d) => d.kind === 'handoff')
      .map((d) => `${d.from}:${d.via}`);
    expect(via).toEqual(['planner:file', 'builder:inline', 'planner:file', 'builder:inline', 'planner:file', 'builder:inline']);
    expect(received('builder')[0]).toMatch(
      /^\[relevo ronda 1 · de planner\]\nLee este handoff completo en \.relevo\/runs\/[\w-]+\/planner\/checkpoints\/1\/HANDOFF\.md y sigue como siempre\.$/,
    );
    expect(received('planner')[1]).toMatch(/^\[relevo ronda 1 · de builder\]\nRound 1 report\n/);
  });

  it('--deliver inline never uses a file, whatever the limits', async () => {
    const { cwd, args } = setup();
    const result = await relevo(args('--deliver', 'inline', '--deliver-max-lines', '1', '--deliver-max-bytes', '1'), cwd);
    expect(result.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(
      of(lines, 'delivered')
        .filter((d) => d.kind === 'handoff')
        .every((d) => d.via === 'inline'),
    ).toBe(true);
  });

  it('refuses a bad --deliver with one line naming the flag', async () => {
    const result = await relevo(['--headless', '--demo', '--deliver', 'email'], tempDir());
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('relevo-tui: --deliver: expected auto, file or inline');
  });
});

describe.concurrent('STALE on resume', () => {
  it('the workspace moved since the last checkpoint: the journal says STALE and the agent is told what moved', async () => {
    const { cwd, received, args } = setup();
    const git = await gitRepo(cwd);
    // Killed right after round 1 reached the builder: the turn is the builder's.
    const killed = await relevo(args(), cwd, { RELEVO_FAILPOINT: 'delivered:2' });
    expect(killed.signal).toBe('SIGKILL');
    const anchor = JSON.parse(
      readFileSync(join(cwd, '.relevo', 'runs', onlyRunJournal(join(cwd, '.relevo')).runId, 'planner/checkpoints/1/handoff.json'), 'utf8'),
    ) as {
      anchor: { head: string };
    };
    expect(anchor.anchor.head).toBe((await git('rev-parse', 'HEAD')).stdout.trim());

    appendFileSync(join(cwd, 'users.ts'), 'export const page = 1;\nexport const size = 20;\n');
    const before = received('builder').length;
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    const [stale] = of(lines, 'stale');
    expect(stale).toMatchObject({
      lane: 'planner',
      checkpoint_seq: 1,
      head_then: anchor.anchor.head,
      head_now: anchor.anchor.head,
      status_changed: true,
    });
    expect(stale!.diff_stat).toEqual([' users.ts | 2 ++', ' 1 file changed, 2 insertions(+)']);
    const notice = received('builder')[before]!;
    expect(notice).toContain(
      'Note from relevo: the workspace changed since this handoff was written (git diff --stat against its anchor):\n   users.ts | 2 ++\n',
    );
    expect(notice).toContain('relevo was restarted while you were working on round 1 from the planner.');
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });

  it('an unchanged workspace resumes without STALE', async () => {
    const { cwd, received, args } = setup();
    await gitRepo(cwd);
    const killed = await relevo(args(), cwd, { RELEVO_FAILPOINT: 'offer:2' });
    expect(killed.signal).toBe('SIGKILL');
    const before = received('planner').length;
    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(of(lines, 'stale')).toEqual([]);
    // The builder's report, offered but not acknowledged, is sent again — with the goal first, for the new planner.
    expect(received('planner')[before]).toMatch(
      /^relevo was restarted; this run's goal, for context:\nGoal: Add pagination to \/users with tests\n\n\[relevo ronda 1 · de builder\]\nRound 1 report\n/,
    );
    expect(of(lines, 'offered').filter((o) => o.resend)).toHaveLength(1);
  });
});

describe.concurrent('offer and ack', () => {
  it('a checkpoint changed on disk is never typed: checkpoint_mismatch pauses (exit 3) and the sender keeps it', async () => {
    const { cwd, received, args } = setup();
    const killed = await relevo(args(), cwd, { RELEVO_FAILPOINT: 'checkpoint:2' });
    expect(killed.signal).toBe('SIGKILL');
    const { runId } = onlyRunJournal(join(cwd, '.relevo'));
    const file = join(cwd, '.relevo', 'runs', runId, 'builder/checkpoints/1/handoff.json');
    const cp = JSON.parse(readFileSync(file, 'utf8')) as { body: string };
    writeFileSync(file, JSON.stringify({ ...cp, body: `${cp.body}\nrm -rf /` }));
    const before = received('planner').length;

    const resumed = await relevo(['--headless', '--resume'], cwd);
    expect(resumed.exitCode).toBe(3);
    expect(resumed.stderr).toMatch(
      // Killed before its journal line: the checkpoint is checked against its own sha256.
      /^relevo-tui: paused: checkpoint_mismatch \(planner\): builder\/checkpoints\/1\/handoff\.json changed: sha256 \w{12}…, handoff\.json says \w{12}…/,
    );
    expect(resumed.stderr).toContain(`go on with: ${SELF} --resume ${runId}`);
    expect(received('planner').slice(before).join('\n')).not.toContain('rm -rf');
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    expect(lines.at(-1)).toMatchObject({
      type: 'paused',
      reason: 'checkpoint_mismatch',
      role: 'planner',
      pending_round: 1,
      pending_to: 'planner',
    });
    expect(existsSync(join(cwd, '.relevo', 'runs', runId, 'builder/checkpoints/1/ack.json'))).toBe(false);
  });

  it('--resume explains what it cannot do: no runs, an unknown run, a finished run', async () => {
    const cwd = tempDir();
    expect((await relevo(['--headless', '--resume'], cwd)).stderr.trim()).toBe(
      `relevo-tui: --resume: no runs in ${join(cwd, '.relevo', 'runs')}`,
    );
    const unknown = await relevo(['--headless', '--resume', '20990101-000000-000'], cwd);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      `relevo-tui: --resume: no run 20990101-000000-000 in ${join(cwd, '.relevo', 'runs')} (see ${SELF} runs)`,
    );
    const elsewhere = await relevo(['--headless', '--resume', '20990101-000000-000', '--state-dir', 'my runs'], cwd);
    expect(elsewhere.stderr.trim()).toBe(
      `relevo-tui: --resume: no run 20990101-000000-000 in ${join(cwd, 'my runs', 'runs')} (see ${SELF} runs --state-dir 'my runs')`,
    );
    expect((await relevo(['--headless', '--demo'], cwd)).exitCode).toBe(0);
    const done = await relevo(['--headless', '--resume'], cwd);
    expect(done.exitCode).toBe(2);
    expect(done.stderr.trim()).toMatch(/^relevo-tui: --resume: run [\d-]+: this run is already done$/);
  });
});

describe.concurrent('memory (mnemosyne)', () => {
  it('--memory stores each round handoff summary and the <done> summary in a bank named after the project', async () => {
    const { cwd, args } = setup();
    const fake = fakeMnemosyne();
    const result = await relevo(args('--memory'), cwd, fake.env() as Record<string, string>);
    expect(result.exitCode).toBe(0);
    const { runId, lines } = onlyRunJournal(join(cwd, '.relevo'));
    const bank = basename(cwd)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-');
    expect(of(lines, 'memory')[0]).toMatchObject({ state: 'ready', bank });
    const calls = fake.calls();
    expect(calls).toHaveLength(7);
    expect(
      calls.every((c) => c.bank === bank && c.scope === 'global' && c.argv[0] === 'store' && c.argv[2] === 'relevo' && c.argv[3] === '0.8'),
    ).toBe(true);
    const texts = calls.map((c) => c.argv[1]).sort();
    expect(texts).toContain(`relevo ${runId} · round 1 · planner → builder: Step 1 of 3: Write the failing tests — ${GOAL}`);
    expect(texts).toContain(`relevo ${runId} · round 3 · builder → planner: Round 3 report`);
    expect(texts).toContain(`relevo ${runId} · done: Goal met: ${GOAL} in 3 rounds.`);
    expect(of(lines, 'memory').filter((m) => m.state === 'stored')).toHaveLength(7);
    fake.cleanup();
  });

  it('without mnemosyne on PATH: memory: blocked with the install hint, and the relay goes on', async () => {
    const { cwd, args } = setup();
    const result = await relevo(args('--memory'), cwd, { PATH: '/usr/bin:/bin' });
    expect(result.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    const [memory] = of(lines, 'memory');
    expect(memory).toMatchObject({ state: 'blocked' });
    expect(memory!.detail).toContain('uv tool install --python 3.12 mnemosyne-memory');
    expect(lines.at(-1)).toMatchObject({ type: 'done', rounds: 3 });
  });

  it('a failing store is journaled and the relay goes on', async () => {
    const { cwd, args } = setup();
    const fake = fakeMnemosyne();
    const result = await relevo(args('--memory'), cwd, fake.env({ FAKE_MNEMOSYNE_FAIL: '1' }) as Record<string, string>);
    expect(result.exitCode).toBe(0);
    const { lines } = onlyRunJournal(join(cwd, '.relevo'));
    const failed = of(lines, 'memory').filter((m) => m.state === 'failed');
    expect(failed).toHaveLength(7);
    expect(failed[0]!.detail).toBe('mnemosyne store exited 1: error: database is locked');
    fake.cleanup();
  });
});
