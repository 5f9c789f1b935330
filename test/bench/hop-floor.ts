/**
 * The hop's floor for one CLI, without relevo: the CLI in a bare terminal gets a message, and as
 * soon as its fake server sent the reply's last SSE event and its screen is idle again, the next
 * message is pasted, and Enter pressed once the paste shows (no quiet window, no settle, no hook):
 * last SSE event → the next request received. What is left is the CLI's own redraw, its paste and
 * submit, and its HTTP request. Polled every 25 ms (AgentTerminal.waitFor), so it errs high.
 */
import { loadProfile } from '../../src/app/config/profiles.js';
import { formatHeader } from '../../src/protocol/index.js';
import { claudeIdle, codexComposer, codexIdle, reapLeftovers, submit } from '../agents/drive.js';
import { type AgentHome, createClaudeHome, createCodexHome } from '../agents/homes.js';
import { GOAL, handoff, REPORT_1, STEP_1 } from '../agents/script.js';
import { AgentTerminal } from '../agents/terminal.js';
import { startFakeAnthropic } from '../helpers/fake-models/anthropic.js';
import { startFakeOpenAI } from '../helpers/fake-models/openai.js';

const LAUNCH_MS = 30_000;

export async function floorSample(cli: 'claude' | 'codex'): Promise<number> {
  const replies = [handoff('Plan.', STEP_1), handoff('Done.', REPORT_1)];
  const server = cli === 'claude' ? await startFakeAnthropic({ replies }) : await startFakeOpenAI({ replies });
  let home: AgentHome | null = null;
  let term: AgentTerminal | null = null;
  try {
    if (cli === 'claude') {
      const h = createClaudeHome({ serverUrl: server.url });
      home = h;
      term = new AgentTerminal({ file: h.bin, cwd: h.cwd, env: { ...h.env, ...loadProfile('claude', 'bench').data.launch.env } });
    } else {
      const h = createCodexHome({ serverUrl: server.url });
      home = h;
      term = new AgentTerminal({ file: h.bin, args: h.args({ altScreen: false }), cwd: h.cwd, env: h.env });
    }
    const t = term;
    // Codex's last turn state after a reply is `state=done` (codexIdle wants the `state=idle` it starts with).
    const codexDone = () => codexComposer(t) !== undefined && t.osc7501.at(-1)?.data.startsWith('state=done') === true;
    const idle = () => (cli === 'claude' ? claudeIdle(t) : t.osc7501.length > 0 ? codexDone() || codexIdle(t) : codexIdle(t));
    await t.waitFor('the idle input box', idle, LAUNCH_MS);
    await submit(t, GOAL, { agent: cli, started: () => server.mainRequests().length >= 1 });
    await t.waitFor('the reply streamed', () => server.mainRequests()[0]?.endedAt !== undefined, LAUNCH_MS);
    await t.waitFor('idle after the reply', idle, LAUNCH_MS);
    const next = `${formatHeader(1, 'planner')}\n${STEP_1}`;
    await submit(t, next, { agent: cli, started: () => server.mainRequests().length >= 2, settleMs: 0, confirmMs: 500 });
    const [first, second] = server.mainRequests();
    return second!.at - first!.endedAt!;
  } finally {
    await term?.kill();
    if (home) {
      await reapLeftovers(home.home);
      home.cleanup();
    }
    await server.close();
  }
}
