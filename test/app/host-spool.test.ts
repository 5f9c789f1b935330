/**
 * Hooks of agents on a host: reports appended to a spool file there, read by byte offset through
 * the ssh master; a dropped connection re-reads nothing and misses nothing, and a run picked up
 * again reads on from the offsets it kept.
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfile } from '../../src/app/config/profiles.js';
import type { HookDelivery } from '../../src/app/replies/hook-channel.js';
import { appendCommand } from '../../src/app/replies/hook-site.js';
import { HOST_HOOKS_FILE, HostSpool, localTimeOf } from '../../src/app/replies/host-spool.js';
import { SpoolTail } from '../../src/app/replies/spool-tail.js';
import { openHooks } from '../../src/app/run/run-hooks.js';
import { closeMaster, type SshHost } from '../../src/pty/backends/ssh.js';
import { tempDir } from '../helpers/cli.js';
import { testHostPerFile } from '../helpers/ssh-host.js';
import { until } from '../helpers/until.js';

const host = testHostPerFile();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

/** The test host as relevo reaches it, with a master of its own. */
function sshHost(): SshHost {
  const controlDir = tempDir('relevo-spool-ssh-');
  const h = { destination: host().destination, command: host().sshCommand, controlDir };
  cleanups.push(async () => {
    await closeMaster(h);
    rmSync(controlDir, { recursive: true, force: true });
  });
  return h;
}

describe('SpoolTail', () => {
  it('hands on whole lines with the offset past each; after the master is gone it reads on from the last offset: nothing twice, nothing missed', async () => {
    const h = sshHost();
    // The file as the host sees it (its home), and the same file here.
    const name = `spool-${process.pid}.jsonl`;
    const local = join(host().home, name);
    appendFileSync(local, 'zero\n');
    const lines: [string, number][] = [];
    const downs: number[] = [];
    const tail = new SpoolTail(h, join(homedir(), name), 5, { line: (t, o) => lines.push([t, o]), down: (at) => downs.push(at) });
    cleanups.push(() => tail.close());
    tail.start();
    appendFileSync(local, 'one\ntw');
    await until('line one', () => lines.length === 1, 30_000);
    appendFileSync(local, 'o\n');
    await until('line two', () => lines.length === 2, 30_000);
    expect(lines).toEqual([
      ['one', 9],
      ['two', 13],
    ]);

    // The master connection ends under the reader: its `tail` goes with it; a half line is written meanwhile.
    await closeMaster(h);
    await until('the reader to notice', () => downs.length >= 1, 30_000);
    appendFileSync(local, 'three\nfo');
    await until('line three', () => lines.length === 3, 60_000);
    appendFileSync(local, 'ur\n');
    await until('line four', () => lines.length === 4, 30_000);
    expect(lines).toEqual([
      ['one', 9],
      ['two', 13],
      ['three', 19],
      ['four', 24],
    ]);
    expect(tail.offset).toBe(readFileSync(local).length);
    await tail.close();
    // No `tail` of the reader is left on the host.
    await until('the remote tail to end', async () => !(await remoteTails()).some((t) => t.includes(name)), 30_000);
  }, 120_000);

  it('a remote tail that ends after its time is followed by the next at the same offset: each line once, nothing left behind', async () => {
    const h = sshHost();
    const name = `spool-turns-${process.pid}.jsonl`;
    const local = join(host().home, name);
    appendFileSync(local, '');
    const lines: string[] = [];
    const downs: number[] = [];
    // Each remote tail runs one second.
    const tail = new SpoolTail(h, join(homedir(), name), 0, { line: (t) => lines.push(t), down: (at) => downs.push(at) }, 1);
    cleanups.push(() => tail.close());
    tail.start();
    const expected: string[] = [];
    for (let i = 1; i <= 4; i++) {
      appendFileSync(local, `line ${i}\npart`);
      await new Promise((resolve) => setTimeout(resolve, 700));
      appendFileSync(local, ` ${i}\n`);
      expected.push(`line ${i}`, `part ${i}`);
      await until(`line ${i}`, () => lines.length === expected.length, 30_000);
    }
    expect(lines).toEqual(expected);
    expect(downs).toEqual([]);
    await tail.close();
    await until('no tail of the file left', async () => !(await remoteTails()).some((t) => t.includes(name)), 30_000);
  }, 120_000);

  it('reads on after the link was cut and came back: the lines written meanwhile once each', async () => {
    if (host().netns === null) return;
    const h = sshHost();
    const name = `spool-cut-${process.pid}.jsonl`;
    const local = join(host().home, name);
    appendFileSync(local, '');
    const lines: string[] = [];
    const downs: number[] = [];
    const tail = new SpoolTail(h, join(homedir(), name), 0, { line: (t) => lines.push(t), down: (at) => downs.push(at) });
    cleanups.push(() => tail.close());
    tail.start();
    appendFileSync(local, 'before\n');
    await until('the line before the cut', () => lines.length === 1, 30_000);
    await host().cut();
    cleanups.push(() => host().restore());
    appendFileSync(local, 'during\nhal');
    // The master gives up on the dead link (server-alive probes), and the reader with it.
    await until('the reader to lose the host', () => downs.length >= 1, 60_000);
    await host().restore();
    appendFileSync(local, 'f\n');
    await until('the lines written meanwhile', () => lines.length === 3, 90_000);
    expect(lines).toEqual(['before', 'during', 'half']);
    expect(tail.offset).toBe(readFileSync(local).length);
  }, 180_000);
});

describe('HostSpool', () => {
  it('a hook on the host appends its report; relevo takes it with its token, refuses a wrong one, and a resumed run reads on from its offsets', async () => {
    const h = sshHost();
    const runDir = tempDir('relevo-spool-run-');
    cleanups.push(() => rmSync(runDir, { recursive: true, force: true }));
    const runId = `spooltest${process.pid}`;
    const spool = await HostSpool.open(h, runId, runDir);
    cleanups.push(() => spool.close());
    expect(spool.dir).toBe(join(homedir(), '.relevo', 'spool', runId));
    const got: HookDelivery[] = [];
    const refused: string[] = [];
    spool.channel.onMessage((m) => got.push(m));
    spool.channel.onRejected((r) => refused.push(r));

    // The settings file the hook is installed with is written on the host, private.
    const settings = spool.file('planner.claude-settings.json', '{"hooks":{}}');
    await spool.flush();
    expect(await host().exec(['stat', '-c', '%a %s', settings])).toBe('600 12');
    spool.start();

    const stop = { hook_event_name: 'Stop', session_id: 's1', last_assistant_message: 'line one\nline "two"' };
    const before = Date.now();
    await hookWithInput(spool.env('planner'), JSON.stringify(stop));
    await until('the planner’s report', () => got.length === 1, 30_000);
    expect(got).toEqual([{ role: 'planner', kind: 'claude-stop', payload: stop, at: expect.any(Number) }]);
    // When the hook ran, by the host's clock made local: never earlier than it was (a report is refused as late only when surely so).
    expect(got[0]!.at).toBeGreaterThanOrEqual(before);
    // The builder's token does not speak for the planner.
    await hookWithInput({ ...spool.env('planner'), RELEVO_HOOK_TOKEN: spool.channel.tokenFor('builder') }, '{"x":1}');
    await until('the refusal', () => refused.length === 1, 30_000);
    expect(refused).toEqual(['wrong token (claimed role planner, kind claude-stop)']);
    const kept = JSON.parse(readFileSync(join(runDir, HOST_HOOKS_FILE), 'utf8'));
    const size = Number(await host().exec(['stat', '-c', '%s', spool.fileFor('planner')]));
    expect(kept).toEqual({ dir: spool.dir, secret: spool.channel.secret, offsets: { planner: size, builder: 0 } });
    // The next run after `done` (same agents): kept in its directory from then on.
    const next = tempDir('relevo-spool-next-');
    cleanups.push(() => rmSync(next, { recursive: true, force: true }));
    spool.keepIn(next);
    await spool.close();
    expect(JSON.parse(readFileSync(join(next, HOST_HOOKS_FILE), 'utf8'))).toEqual(kept);

    // Picked up again: the same tokens, nothing read twice, the next report once.
    const again = await HostSpool.resume(h, next);
    expect(again).not.toBeNull();
    cleanups.push(() => again!.close());
    const more: HookDelivery[] = [];
    again!.channel.onMessage((m) => more.push(m));
    again!.start();
    await hookWithInput(again!.env('builder'), '{"type":"agent-turn-complete","last-assistant-message":"done"}');
    await until('the builder’s report', () => more.length === 1, 30_000);
    expect(more.map((m) => [m.role, m.payload])).toEqual([['builder', { type: 'agent-turn-complete', 'last-assistant-message': 'done' }]]);
  }, 120_000);
});

describe('localTimeOf', () => {
  it('puts a host time (seconds) at the end of its second, as measured against the local clock when the host was asked', () => {
    const clock = { hostSeconds: 100, localAfter: 50_000 };
    expect([99, 100, 103].map((s) => localTimeOf(clock, s))).toEqual([50_000, 51_000, 54_000]);
  });
});

describe('hooks of a host relay', () => {
  it('`relevo-tui hook` on the host (Qwen Code, OpenCode) appends to the spool file; openHooks picks the spool up again for found panes', async () => {
    const h = sshHost();
    const runDir = tempDir('relevo-spool-run-');
    cleanups.push(() => rmSync(runDir, { recursive: true, force: true }));
    const agents = {
      planner: { argv: ['claude'], profile: loadProfile('claude', 'test') },
      builder: { argv: ['codex'], profile: loadProfile('codex', 'test') },
    };
    const options = { agents, runId: `spoolhooks${process.pid}`, runDir };
    const open = (attached: boolean) => openHooks(options, { attached, host: h, open: async () => ({}) as never });
    const hooks = (await open(false))!;
    cleanups.push(() => hooks.close());
    expect(hooks.site.onHost).toBe(true);
    const got: HookDelivery[] = [];
    hooks.channel.onMessage((m) => got.push(m));
    hooks.start();
    const env = hooks.site.env('builder');
    const payload = { type: 'agent-turn-complete', 'last-assistant-message': 'built' };
    const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    const before = Date.now();
    await host().exec(['env', ...vars, 'relevo-tui', 'hook', 'codex-notify', JSON.stringify(payload)]);
    await until('the builder’s report', () => got.length === 1, 30_000);
    expect(got).toEqual([{ role: 'builder', kind: 'codex-notify', payload, at: expect.any(Number) }]);
    expect(got[0]!.at).toBeGreaterThanOrEqual(before);
    await hooks.close();

    // The run's panes found again (--resume): the same spool, the same tokens, from the kept offsets.
    const again = (await open(true))!;
    cleanups.push(() => again.close());
    expect(again.site.env('builder')).toEqual(env);
    const more: HookDelivery[] = [];
    again.channel.onMessage((m) => more.push(m));
    again.start();
    await host().exec([
      'env',
      ...vars,
      'relevo-tui',
      'hook',
      'codex-notify',
      JSON.stringify({ ...payload, 'last-assistant-message': 'again' }),
    ]);
    await until('the next report', () => more.length === 1, 30_000);
    expect(more.map((m) => m.payload)).toEqual([{ ...payload, 'last-assistant-message': 'again' }]);
    // No spool kept: found panes get no hooks (their tokens are unknown).
    rmSync(join(runDir, HOST_HOOKS_FILE));
    expect(await open(true)).toBeNull();
  }, 120_000);
});

/** The command lines of the `tail` processes on the host. */
async function remoteTails(): Promise<string[]> {
  const ps = await host().exec(['ps', '-eo', 'comm=,args=']);
  return ps.split('\n').filter((l) => /^tail\s/.test(l));
}

/** Runs a Claude Code Stop hook on the host as the role's pane would: its environment, `input` on stdin. */
async function hookWithInput(env: Record<string, string>, input: string): Promise<void> {
  const name = `hook-input-${process.pid}.json`;
  writeFileSync(join(host().home, name), input);
  const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const script = appendCommand(env.RELEVO_HOOK_FILE!, 'claude-stop');
  await host().exec(['env', ...vars, 'sh', '-c', 'exec sh -c "$1" < "$2"', 'sh', script, join(homedir(), name)]);
}
