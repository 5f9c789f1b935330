/**
 * A relay on a host whose link is cut for 60 s (the test host's interface down in its namespace),
 * once mid-turn and once mid-delivery: relevo says the host is out of reach (once), looks again
 * with back-off, goes on once it answers, and every handoff is delivered exactly once up to done.
 */
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../src/protocol/index.js';
import { BIN, tempDir } from '../helpers/cli.js';
import { gitRepo } from '../helpers/git.js';
import { expectDoneExactlyOnce, relayRuns } from '../helpers/relay-runs.js';
import { netnsUnavailable, testHostPerFile } from '../helpers/ssh-host.js';
import { band, freshTmuxServers, keys, start, untilScreen } from '../helpers/tui-tmux.js';
import { sleep, until } from '../helpers/until.js';

const noNetns = await netnsUnavailable();
if (noNetns !== null) console.log(`host-cut: skipped, no network namespace to cut (${noNetns})`);

const CUT_MS = 60_000;

type Line = JournalLine & { readonly relay?: string };

describe.skipIf(noNetns !== null)('a relay on a host, its link cut for 60 s', () => {
  const host = testHostPerFile();
  freshTmuxServers();

  /** `new --headless --demo` on the host, its JSON lines read as they come; `cutWhen` picks the line at which the link is cut. */
  async function cutRelay(cutWhen: (line: Line, seen: readonly Line[]) => boolean) {
    const dir = realpathSync(tempDir('relevo-host-cut-'));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    const env = { LANG: 'C.UTF-8', npm_command: '', RELEVO_SSH_COMMAND: quote([...host().sshCommand]) };
    const args = ['new', '--headless', '--demo', '--host', host().destination, '--goal', 'Add pagination'];
    const child = execa(process.execPath, [BIN, ...args], { cwd: root, reject: false, stdin: 'ignore', env, timeout: 300_000 });
    const lines: Line[] = [];
    let rest = '';
    let cutAt: number | null = null;
    let restored: Promise<void> | null = null;
    child.stdout?.on('data', (chunk: Buffer) => {
      rest += chunk.toString();
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      for (const text of parts.filter((p) => p.trim() !== '')) {
        const line = JSON.parse(text) as Line;
        lines.push(line);
        if (cutAt === null && cutWhen(line, lines)) {
          cutAt = lines.length - 1;
          restored = host()
            .cut()
            .then(() => sleep(CUT_MS))
            .then(() => host().restore());
        }
      }
    });
    // While cut: relevo says so once, and the relay has not ended.
    await until('the host said out of reach', () => lines.some((l) => l.type === 'unreachable'), 120_000);
    expect(lines.some((l) => l.type === 'done')).toBe(false);
    await until('the link restored', () => restored !== null, 1000);
    await restored;
    const r = await child;
    expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({ exit: 0, stderr: '' });
    const [run, ...others] = relayRuns(root);
    expect(others).toEqual([]);
    expectDoneExactlyOnce(run!);
    return { lines, cutAt: cutAt ?? -1, run: run!, done: () => rmSync(dir, { recursive: true, force: true }) };
  }

  /** What the headless stream said about the host: once out of reach, once back, in that order, after the cut. */
  function expectSaidOnce(lines: readonly Line[], cutAt: number) {
    const said = lines.flatMap((l, i) => (l.type === 'unreachable' || l.type === 'reachable' ? [{ i, l }] : []));
    expect(said.map(({ l }) => l.type)).toEqual(['unreachable', 'reachable']);
    const [out, back] = said;
    expect(out!.i).toBeGreaterThan(cutAt);
    expect(out!.l).toMatchObject({ type: 'unreachable', host: host().destination });
    expect(back!.l).toMatchObject({ type: 'reachable', host: host().destination });
    // Back after the cut's 60 s, give or take the detection: for_ms counts from when it was noticed.
    expect((back!.l as Extract<JournalLine, { type: 'reachable' }>).for_ms).toBeGreaterThan(CUT_MS / 2);
  }

  /** Round headers typed into each agent's pane on the host, counted in its whole history: each once. */
  async function headersOnHost(lines: readonly Line[]) {
    const started = lines.find((l) => l.type === 'run_started');
    if (started?.type !== 'run_started') throw new Error('no run_started line');
    const socket = started.tmux_socket ?? '';
    const pane = (p: string | undefined) => /^tmux (%\d+) on /.exec(p ?? '')?.[1] ?? '';
    const text = async (id: string) =>
      host().exec(['tmux', ...(socket ? ['-L', socket] : []), 'capture-pane', '-p', '-J', '-S', '-', '-t', id]);
    const count = (t: string) => [...t.matchAll(/\[relevo ronda (\d+) · de (planner|builder)\]/g)].map((m) => `${m[2]}/${m[1]}`);
    return { planner: count(await text(pane(started.planner.pane))), builder: count(await text(pane(started.builder.pane))) };
  }

  it('cut mid-turn (the builder working on round 1): unreachable then reachable once each, every handoff once, done', async () => {
    const { lines, cutAt, run, done } = await cutRelay(
      (l) => l.type === 'delivered' && l.kind === 'handoff' && l.to === 'builder' && l.round === 1,
    );
    expectSaidOnce(lines, cutAt);
    // The builder's turn was under way on the host when the link went: its turn end came after.
    const turnEnd = lines.findIndex((l, i) => i > cutAt && l.type === 'checkpoint' && l.lane === 'builder');
    expect(turnEnd).toBeGreaterThan(cutAt);
    expect(await headersOnHost(run.lines)).toEqual({
      planner: ['builder/1', 'builder/2', 'builder/3'],
      builder: ['planner/1', 'planner/2', 'planner/3'],
    });
    done();
  }, 360_000);

  it('cut mid-delivery (round 2 offered to the builder, not yet acknowledged): typed once, done', async () => {
    const { lines, cutAt, run, done } = await cutRelay((l) => l.type === 'offered' && l.to === 'builder' && l.round === 2);
    expectSaidOnce(lines, cutAt);
    const offers = lines.filter((l) => l.type === 'offered' && l.to === 'builder' && l.round === 2);
    expect(offers).toHaveLength(1);
    expect(await headersOnHost(run.lines)).toEqual({
      planner: ['builder/1', 'builder/2', 'builder/3'],
      builder: ['planner/1', 'planner/2', 'planner/3'],
    });
    done();
  }, 360_000);

  it('in the TUI: the band counts down to the next look while cut, keys for the agent are refused, and the relay goes on to done', async () => {
    const dir = realpathSync(tempDir('relevo-host-cut-'));
    const root = join(dir, 'shop');
    mkdirSync(root);
    await gitRepo(root);
    const ssh = `RELEVO_SSH_COMMAND=${quote([...host().sshCommand])}`;
    await start(200, 40, ['new', '--demo', '--host', host().destination, '--goal', 'Add pagination'], ['LANG=C.UTF-8', ssh], root);
    await untilScreen('the builder at work on round 1', (s) => /turn: builder/.test(band(s)), 120_000);
    await host().cut();
    const cutAt = Date.now();
    try {
      const first = await untilScreen(
        'the band saying the host is out of reach',
        (s) => band(s).includes('unreachable: relevo-test-host — retrying in'),
        90_000,
      );
      const count = (screen: string) => Number(/retrying in (\d+) s/.exec(band(screen))?.[1]);
      // It counts down: a later look shows another number (or the look under way).
      await untilScreen('the count-down moving', (s) => band(s).includes('retrying now') || count(s) !== count(first), 40_000);
      await keys('x');
      await untilScreen(
        'the key refused',
        (s) => s.includes("not sent: the planner's host is out of reach — type again once it answers"),
        20_000,
      );
      // The link stays down its whole 60 s.
      await sleep(Math.max(0, CUT_MS - (Date.now() - cutAt)));
    } finally {
      await host().restore();
    }
    await untilScreen(
      'the band without the note once the host answers',
      (s) => band(s) !== '' && !band(s).includes('unreachable'),
      120_000,
    );
    await untilScreen('done', (s) => band(s).includes(' · done'), 120_000);
    const [run, ...others] = relayRuns(root);
    expect(others).toEqual([]);
    expectDoneExactlyOnce(run!);
    expect(run!.lines.filter((l) => l.type === 'unreachable' || l.type === 'reachable').map((l) => l.type)).toEqual([
      'unreachable',
      'reachable',
    ]);
    rmSync(dir, { recursive: true, force: true });
  }, 360_000);
});
