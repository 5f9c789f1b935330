/**
 * Drives the hostile fake agent (test/helpers/hostile-agent.mjs) in a real pseudo-terminal through
 * relevo's own pane and agent code, with a generic-style profile, and hands its turn to the relay
 * machine (test/helpers/relay-step.ts): what the machine would type to the peer is what the test checks.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadProfile } from '../../src/app/config/profiles.js';
import { AgentPane, type TurnEnd } from '../../src/pty/agent.js';
import { LocalPane } from '../../src/pty/pane.js';
import { editedProfile } from '../helpers/profiles.js';

export const AGENT = fileURLToPath(new URL('../helpers/hostile-agent.mjs', import.meta.url));
export const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/faults/${name}`, import.meta.url));

/** The shipped generic profile, with a shorter quiet window and a prompt pattern without groups (a file). */
export const PROFILE = editedProfile('generic', (t) =>
  t.replace('quiet_ms = 1500', 'quiet_ms = 500').replace(/\[reply\]\nprompt = '.*'/, () => "[reply]\nprompt = '^[\\w.@:~/ -]*[$#%>] ?$'"),
);

type Payload = { readonly print: ReadonlyArray<string | { readonly repeat: string; readonly times: number }> };

/** Everything a payload prints, as one text: the reply as a hook or a transcript would report it. */
export function payloadText(name: string): string {
  const payload = JSON.parse(readFileSync(fixture(name), 'utf8')) as Payload;
  return payload.print.map((p) => (typeof p === 'string' ? p : p.repeat.repeat(p.times))).join('');
}

function env(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Sends `message` to a hostile agent answering with `payload` (a file in test/fixtures/faults); its turn's end. */
export async function hostileTurn(payload: string, message = 'Go on with the next step.'): Promise<TurnEnd> {
  const profile = loadProfile(PROFILE, 'test');
  const pane = new LocalPane({ argv: [process.execPath, AGENT, fixture(payload)], cwd: tmpdir(), env: env(), cols: 100, rows: 24 });
  const agent = new AgentPane('planner', pane, profile);
  try {
    const ended = new Promise<TurnEnd>((resolve) => agent.onTurnEnded(resolve));
    const delivered = await agent.deliver(message, 15_000);
    if (!delivered.ok) throw new Error(`delivery failed: ${delivered.detail}`);
    return await ended;
  } finally {
    await pane.kill(500);
    agent.dispose();
    pane.dispose();
  }
}
