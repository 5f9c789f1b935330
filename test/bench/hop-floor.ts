/**
 * The hop's floor for one CLI, without relevo, in its two parts (one bare-terminal session gives both):
 * - sender: the fake server sent the last SSE event of its reply → the CLI says its turn is over:
 *   its end-of-turn hook wrote its file (Claude Code: a `Stop` hook in a `--settings` layer running
 *   relevo's own spool command, async as the profile says; Codex: a `notify` program that only
 *   writes a file, or its OSC 7501 `state=done`, whichever comes first);
 * - receiver: the idle CLI gets the handoff as a bracketed paste, Enter as soon as the paste shows
 *   (no settle) → its fake server received the request. Measured for a FIRST prompt (what a fresh
 *   builder gets from relevo: planner → builder) and a SECOND one (the planner, after its own turn:
 *   builder → planner), so each relevo hop is compared with a floor of the same kind.
 * The paste is watched every 2 ms (xterm flushed first), so the receiver part errs high by ≤ 2 ms.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spoolCommand } from '../../src/app/config/launch.js';
import { loadProfile } from '../../src/app/config/profiles.js';
import { formatHeader } from '../../src/protocol/index.js';
import { claudeIdle, codexComposer, codexIdle, inputShows, reapLeftovers, sleep } from '../agents/drive.js';
import { type AgentHome, createClaudeHome, createCodexHome, makeTempDir } from '../agents/homes.js';
import { handoff, REPORT_1, STEP_1 } from '../agents/script.js';
import { startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { startFakeOpenAI } from '../helpers/fake-models/openai.js';
import { Program } from '../helpers/pty/program.js';

const LAUNCH_MS = 30_000;
/** The receiver waited a while in relevo's hop (the other agent's turn): the floor's second prompt waits too. */
const IDLE_BEFORE_MS = 500;

export type FloorSample = { readonly sender: number; readonly first: number; readonly second: number };

/** Polls `check` every 2 ms (after xterm caught up). */
async function soon(t: Program, what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await t.flush();
    if (check()) return;
    if (t.exited !== null || Date.now() > deadline) throw new Error(`${what}: not seen; screen:\n${t.screen()}`);
    await sleep(2);
  }
}

/** Paste, Enter as soon as the paste shows, Enter again if the turn did not start: the ms from the paste to the request. */
async function deliver(t: Program, agent: 'claude' | 'codex', text: string, requests: () => { at: number }[]): Promise<number> {
  const before = requests().length;
  const pastedAt = Date.now();
  t.paste(text);
  await soon(t, 'the paste in the input area', () => inputShows(agent, t, text));
  t.write('\r');
  for (let crs = 1; ; crs++) {
    const deadline = Date.now() + 1500;
    while (requests().length === before && Date.now() < deadline) await sleep(5);
    const request = requests()[before];
    if (request) return request.at - pastedAt;
    if (crs > 2) throw new Error(`the turn did not start after ${crs} CRs; screen:\n${t.screen()}`);
    t.write('\r');
  }
}

/** The earliest mtime of a file in `dir` (the hook's report), if any. */
function hookWroteAt(dir: string): number | undefined {
  const times = readdirSync(dir)
    .filter((f) => !f.endsWith('.part'))
    .map((f) => statSync(join(dir, f)).mtimeMs);
  return times.length > 0 ? Math.min(...times) : undefined;
}

export async function floorSample(cli: 'claude' | 'codex'): Promise<FloorSample> {
  const replies = [handoff('Done.', REPORT_1), handoff('Plan.', STEP_1)];
  const server = cli === 'claude' ? await startFakeAnthropic({ replies }) : await startFakeOpenAI({ replies });
  const dir = makeTempDir('relevo-hop-floor-');
  const spool = join(dir, 'spool');
  mkdirSync(spool);
  let home: AgentHome | null = null;
  let term: Program | null = null;
  try {
    if (cli === 'claude') {
      const h = createClaudeHome({ serverUrl: server.url });
      home = h;
      const settings = join(dir, 'settings.json');
      const hook = { type: 'command', command: spoolCommand(spool, 'claude-stop'), async: true };
      writeFileSync(settings, JSON.stringify({ hooks: { Stop: [{ hooks: [hook] }] } }));
      const env = { ...h.env, ...loadProfile('claude', 'bench').data.launch.env };
      term = new Program({ file: h.bin, args: ['--settings', settings], cwd: h.cwd, env });
    } else {
      const h = createCodexHome({ serverUrl: server.url });
      home = h;
      const notify = ['sh', '-c', `printf '%s' "$1" > '${spool}/notify.json'`, 'sh'];
      const args = h.args({ altScreen: false, extra: ['-c', `notify=${JSON.stringify(notify)}`] });
      term = new Program({ file: h.bin, args, cwd: h.cwd, env: h.env });
    }
    const t = term;
    const codexDone = () => codexComposer(t) !== undefined && t.osc7501.at(-1)?.data.startsWith('state=done') === true;
    const idle = () => (cli === 'claude' ? claudeIdle(t) : t.osc7501.length > 0 ? codexDone() || codexIdle(t) : codexIdle(t));
    const requests = () => server.mainRequests();
    await t.waitFor('the idle input box', idle, LAUNCH_MS);
    await sleep(IDLE_BEFORE_MS);
    const first = await deliver(t, cli, `${formatHeader(1, 'planner')}\n${STEP_1}`, requests);
    await t.waitFor('the hook reported', () => hookWroteAt(spool) !== undefined, LAUNCH_MS);
    // Codex's notify can come before the server has closed the reply's stream.
    await t.waitFor("the reply's stream closed", () => requests()[0]?.endedAt !== undefined, LAUNCH_MS);
    const endedAt = requests()[0]!.endedAt!;
    const done = cli === 'codex' ? t.osc7501.find((o) => o.data.startsWith('state=done'))?.at : undefined;
    const sender = Math.round(Math.min(hookWroteAt(spool)!, done ?? Number.POSITIVE_INFINITY) - endedAt);
    await t.waitFor('idle after the reply', idle, LAUNCH_MS);
    await sleep(IDLE_BEFORE_MS);
    const second = await deliver(t, cli, `${formatHeader(1, 'builder')}\n${REPORT_1}`, requests);
    return { sender, first, second };
  } finally {
    await term?.kill();
    if (home) {
      await reapLeftovers(home.home);
      home.cleanup();
    }
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
