/**
 * A person's word in the relay, as people meet it in tmux: a note that rides with the next handoff
 * (`C-] n`), and a next goal after `done` (`C-] g`) given to the same agent processes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLock } from '../../src/app/store/locks.js';
import { parseJournal, recorded, relevo, simCommand, tempDir } from '../helpers/cli.js';
import { band, freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';

freshTmuxServers();

/** A TUI run of two recorded simulators (slow enough to type between turns), its state under `cwd`/.relevo. */
function recordedRun(thinkMs: string, ...extra: string[]) {
  const cwd = tempDir();
  const records = tempDir('relevo-records-');
  const record = (role: 'planner' | 'builder') => join(records, `${role}.record`);
  const sim = (role: 'planner' | 'builder') => simCommand(role, '--record', record(role), '--think-ms', thinkMs);
  const args = ['--goal', 'Add pagination', '--planner', sim('planner'), '--builder', sim('builder'), ...extra];
  const runs = () => (existsSync(join(cwd, '.relevo', 'runs')) ? readdirSync(join(cwd, '.relevo', 'runs')).sort() : []);
  const journal = (id: string) => parseJournal(readFileSync(join(cwd, '.relevo', 'runs', id, 'events.jsonl'), 'utf8'));
  return { cwd, args, runs, journal, received: (role: 'planner' | 'builder') => recorded(record(role)) };
}

/**
 * While the builder works on round 1, the relay is paused (so the note is sure to be given before
 * round 1's report is relayed) and `C-] n` gives a note: the prompt opens addressed to the planner,
 * whose handoff is next. The screen once the band shows the note queued.
 */
async function noteWhileBuilderWorks(text: string): Promise<string> {
  await untilScreen('the builder working', (s) => band(s).includes('turn: builder'));
  await keys('C-]', 'p');
  await untilScreen('paused', (s) => band(s).includes('paused: user'));
  await keys('C-]', 'n');
  await untilScreen('the note prompt', (s) => s.includes('goal › /relevo note planner'));
  await keys('-l', text);
  await keys('Enter');
  return untilScreen('the note in the band', (s) => band(s).includes('note → planner'));
}

describe("the person's word in the relay", () => {
  it('C-] n queues a note that arrives once, after the next handoff body, labelled, and is kept in its checkpoint', async () => {
    const run = recordedRun('1500', '--lang', 'es');
    await start(180, 50, run.args, [], run.cwd);
    const queued = await noteWhileBuilderWorks('keep the old /users response shape');
    expect(queued).toContain('note for the planner queued');
    await keys('C-]', 'r');
    await untilScreen('done', (s) => / · done$/.test(band(s)), 90_000);

    const noted = run.received('planner').filter((m) => m.includes('[nota de la persona]'));
    expect(noted).toHaveLength(1);
    const [header, ...rest] = noted[0]!.split('\n');
    expect(header).toBe('[relevo ronda 1 · de builder]');
    expect(rest.join('\n')).toMatch(/^Round 1 report\n[\s\S]*\n\n\[nota de la persona\]\nkeep the old \/users response shape$/);
    expect(run.received('builder').join('\n')).not.toContain('keep the old');

    const [id] = run.runs();
    const lines = run.journal(id!);
    expect(lines.filter((l) => l.type === 'note_queued')).toMatchObject([{ to: 'planner', text: 'keep the old /users response shape' }]);
    const carried = lines.filter((l) => l.type === 'delivered' && l.note_chars !== undefined);
    expect(carried).toMatchObject([{ to: 'planner', round: 1, from: 'builder' }]);
    // The checkpoint that was delivered holds the note (when the report came in while paused, it is
    // the one written anew with the note, replacing the one without).
    const seq = carried[0]?.type === 'delivered' ? carried[0].checkpoint_seq : undefined;
    const checkpoint = JSON.parse(
      readFileSync(join(run.cwd, '.relevo', 'runs', id!, 'builder', 'checkpoints', String(seq), 'handoff.json'), 'utf8'),
    ) as { note?: string; round: number; supersedes?: number };
    expect(checkpoint).toMatchObject({ note: 'keep the old /users response shape', round: 1 });
    if (seq !== 1) expect(checkpoint.supersedes).toBe(1);
    await keys('C-]', 'q', 'y');
    await untilScreen('the shell back', (s) => s.includes('exited with 0'));
  }, 120_000);

  it('a note can be taken back before it is sent: /relevo note cancel', async () => {
    const run = recordedRun('1500');
    await start(180, 50, run.args, [], run.cwd);
    await noteWhileBuilderWorks('never mind');
    await keys('C-]', 'g');
    await untilScreen('the prompt', (s) => /^goal ›/m.test(s));
    await keys('-l', '/relevo note cancel');
    await keys('Enter');
    const cancelled = await untilScreen('the note cancelled', (s) => s.includes('note for the planner cancelled'));
    expect(band(cancelled)).not.toContain('note →');
    await keys('C-]', 'r');
    await untilScreen('done', (s) => / · done$/.test(band(s)), 90_000);
    expect(run.received('planner').join('\n')).not.toContain('never mind');
    const lines = run.journal(run.runs()[0]!);
    expect(lines.filter((l) => l.type === 'note_cancelled')).toMatchObject([{ to: 'planner', chars: 10 }]);
    await keys('C-]', 'q', 'y');
  }, 120_000);

  it('after done, C-] g gives the same agent processes a next goal: a new run that follows the first, rounds from 1', async () => {
    const run = recordedRun('150');
    await start(180, 50, run.args, [], run.cwd);
    const first = await untilScreen('done', (s) => / · done$/.test(band(s)), 60_000);
    expect(first).toContain('C-] g gives the same agents a next goal');
    const [firstId] = run.runs();
    const agentsOf = (id: string) => readLock(join(run.cwd, '.relevo', 'runs', id))?.agents;
    const firstAgents = agentsOf(firstId!);
    expect(firstAgents).toHaveLength(2);
    await keys('C-]', 'g');
    await untilScreen('the goal prompt', (s) => /^goal ›/m.test(s));
    await keys('-l', 'Document the pagination');
    await keys('Enter');
    await untilScreen('the second run started', (s) => s.includes('goal: Document the pagination'));
    const second = await untilScreen(
      'done again',
      (s) => / · done$/.test(band(s)) && s.includes('Goal met: Document the pagination'),
      60_000,
    );
    expect(band(second)).toContain('▰▰▰▱▱▱▱▱▱▱ 3/10');

    const ids = run.runs();
    expect(ids).toHaveLength(2);
    const secondId = ids.find((id) => id !== firstId)!;
    const started = run.journal(secondId).find((l) => l.type === 'run_started');
    expect(started).toMatchObject({ run_id: secondId, follows: firstId });
    // Each run's journal has its own goal and rounds, each delivered once.
    const delivered = (id: string) => run.journal(id).flatMap((l) => (l.type === 'delivered' ? [`${l.kind}:${l.round}:${l.to}`] : []));
    const once = [
      'goal:0:planner',
      'handoff:1:builder',
      'handoff:1:planner',
      'handoff:2:builder',
      'handoff:2:planner',
      'handoff:3:builder',
      'handoff:3:planner',
    ];
    expect(delivered(firstId!)).toEqual(once);
    expect(delivered(secondId)).toEqual(once);
    expect(run.journal(firstId!).find((l) => l.type === 'goal')).toMatchObject({ text: 'Add pagination' });
    expect(run.journal(secondId).find((l) => l.type === 'goal')).toMatchObject({ text: 'Document the pagination' });
    // The same processes: the second run's lock records the agents the first one started, and the first run is let go.
    expect(agentsOf(secondId)).toEqual(firstAgents);
    expect(readLock(join(run.cwd, '.relevo', 'runs', firstId!))).toMatchObject({ released: true });
    const planner = run.received('planner');
    expect(planner.filter((m) => /^Goal: /m.test(m)).map((m) => m.match(/^Goal: (.*)$/m)![1])).toEqual([
      'Add pagination',
      'Document the pagination',
    ]);
    expect(run.received('builder').filter((m) => m.startsWith('[relevo ronda 1 · de planner]'))).toHaveLength(2);
    await keys('C-]', 'q', 'y');
    const after = await untilScreen('the shell back', (s) => s.includes('exited with 0'));
    expect(after).toContain('relevo-tui: done: Goal met: Document the pagination');
    const shown = await relevo(['show', secondId], run.cwd);
    expect(shown.stdout.split('\n')[0]).toBe(`run ${secondId} · done · follows ${firstId} · goal: Document the pagination`);
  }, 150_000);
});
