/**
 * The hop to a pair on another machine (issue 40): the demo relay with its agents on the test host
 * (an sshd in a network namespace, test/helpers/test-host.ts) with `DELAY_MS` added each way on its
 * link, against the same demo relay on this machine, in turns in the same run. A hop is the sender's
 * turn end seen → the handoff delivered and confirmed in the peer's pane (journaled), as fleet.ts
 * counts it. The goal: the remote hop ≤ the local one + 3 round trips. Where network namespaces
 * cannot be made (or sshd is missing) the scene is skipped with the reason.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { quote } from 'shell-quote';
import { netnsUnavailable, startTestHost, type TestHost } from '../test/helpers/test-host.js';
import { onCleanup, tempDir } from './cleanup.js';
import { delayProxy } from './delay-proxy.js';
import { type Figure, median, quantile, skippedFigure } from './figure.js';
import { hops, journals } from './fleet.js';
import { BIN } from './spawn.js';
import { Workdir } from './workdir.js';

/** Added on the host's link each way (tc netem): a round trip is twice it. */
export const DELAY_MS = 50;
const ROUND_TRIPS = 3;
const BUDGET_MS = ROUND_TRIPS * 2 * DELAY_MS;
const GOAL = `≤ local hop + ${BUDGET_MS} ms (${ROUND_TRIPS} round trips)`;
const RUN_TIMEOUT_MS = 180_000;
const AUTHOR = { GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@b' };

/** One demo relay to done, headless, here or on `host`: its hops in ms. */
async function demoHops(host: { readonly destination: string; readonly sshCommand: readonly string[] } | null): Promise<number[]> {
  const dir = new Workdir();
  try {
    const repo = join(dir.path, 'shop');
    mkdirSync(repo);
    const git = (...args: string[]) => execa('git', args, { cwd: repo, env: AUTHOR });
    await git('init', '-q');
    await git('commit', '-q', '--allow-empty', '-m', 'bench');
    const where = host ? ['--host', host.destination] : [];
    const env = { LANG: 'C.UTF-8', npm_command: '', ...AUTHOR, ...(host ? { RELEVO_SSH_COMMAND: quote([...host.sshCommand]) } : {}) };
    const r = await execa(process.execPath, [BIN, 'new', '--headless', '--demo', ...where, '--goal', 'Add pagination'], {
      cwd: repo,
      env,
      reject: false,
      stdin: 'ignore',
      timeout: RUN_TIMEOUT_MS,
    });
    const what = host ? 'the demo on the host' : 'the demo here';
    if (r.exitCode !== 0) throw new Error(`${what} exited ${r.exitCode ?? r.signal}: ${String(r.stderr).trim().split('\n')[0]}`);
    const ms = hops(journals(repo));
    if (ms.length === 0) throw new Error(`${what} journaled no hop`);
    return ms;
  } finally {
    dir.release();
  }
}

/** Why the scene cannot run here, or null. */
async function unavailable(): Promise<string | null> {
  if (!existsSync('/usr/sbin/sshd')) return 'openssh-server is not installed (no /usr/sbin/sshd)';
  const why = await netnsUnavailable();
  return why === null ? null : `network namespaces unavailable (${why})`;
}

/** The delayed link the remote relays use: `tc netem` on the host's veth, else a delaying proxy in front of its sshd. */
type Link = { readonly sshCommand: readonly string[]; readonly how: string; close(): Promise<void> };

async function delayedLink(host: TestHost, dir: string): Promise<Link> {
  const netem = await host.delay(DELAY_MS).then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n').at(-1)!.trim(),
  );
  if (netem === null) return { sshCommand: host.sshCommand, how: 'tc netem', close: async () => {} };
  const proxy = await delayProxy({ host: host.address, port: host.port }, DELAY_MS);
  const config = join(dir, 'ssh_config');
  const text = readFileSync(host.sshConfig, 'utf8')
    .replace(/HostName .*/, 'HostName 127.0.0.1')
    .replace(/Port .*/, `Port ${proxy.port}`);
  writeFileSync(config, text);
  return { sshCommand: ['ssh', '-F', config], how: `a delaying TCP proxy (tc netem: ${netem})`, close: () => proxy.close() };
}

/** The host's processes and namespace go however the bench ends (stop() is async: this is the last resort). */
function reapOnExit(host: TestHost): () => void {
  return onCleanup(() => {
    if (host.netns === null) return;
    const pids = String(execaSync('ip', ['netns', 'pids', host.netns], { reject: false }).stdout)
      .split(/\s+/)
      .filter(Boolean);
    for (const pid of pids) execaSync('kill', ['-KILL', pid], { reject: false });
    execaSync('ip', ['netns', 'del', host.netns], { reject: false });
  });
}

export async function figures(opts: { reps: number; quick: boolean }): Promise<Figure[]> {
  const why = await unavailable();
  if (why !== null) {
    console.error(`bench: remote: skipped: ${why}`);
    return [skipped(why)];
  }
  const host = await startTestHost();
  const reap = reapOnExit(host);
  const dir = tempDir('relevo-bench-remote-');
  const local: number[] = [];
  const remote: number[] = [];
  let link: Link | null = null;
  try {
    link = await delayedLink(host, dir.path);
    const pair = { destination: host.destination, sshCommand: link.sshCommand };
    // In turns, so the machine's load falls on both alike.
    for (let rep = 0; rep < opts.reps; rep++) {
      local.push(...(await demoHops(null)));
      remote.push(...(await demoHops(pair)));
    }
  } finally {
    await link?.close();
    await host.stop();
    reap();
    dir.remove();
  }
  return remoteFigures(remote, local, link.how);
}

/** The remote hop's figures against the local hop's, with their difference and ratio. */
export function remoteFigures(remote: readonly number[], local: readonly number[], how: string): Figure[] {
  const figure = (key: string, what: string, pick: (xs: readonly number[]) => number, goal: boolean): Figure => {
    const [r, l] = [pick(remote), pick(local)];
    const within = r <= l + BUDGET_MS;
    return {
      key,
      what,
      unit: 'ms',
      relevo: r,
      samples: remote,
      baseline: { name: 'the same demo relay on this machine', value: l, samples: local },
      goal: goal ? { text: GOAL, met: within } : { text: 'none (for reference)', met: true },
      note: `${signed(r - l)} ms over the local hop, ${(r / l).toFixed(2)}× it; ${within ? 'within' : 'past'} local + ${BUDGET_MS} ms; ${remote.length} remote and ${local.length} local hops; delay by ${how}`,
    };
  };
  const link = `ssh, ${DELAY_MS} ms added each way`;
  return [
    figure('remote.hop', `relay hop to a pair on a host (${link}): turn end seen → handoff delivered and confirmed, median`, median, true),
    figure('remote.hop.p95', `relay hop to a pair on a host (${link}), p95`, (xs) => quantile(xs, 0.95), false),
  ];
}

const signed = (n: number) => `${n < 0 ? '−' : '+'}${Math.abs(Math.round(n))}`;

const skipped = (why: string): Figure => skippedFigure('remote.hop', 'relay hop to a pair on a host', GOAL, why);
