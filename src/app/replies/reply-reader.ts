import { setTimeout as sleep } from 'node:timers/promises';
import type { HookReport } from '../../protocol/index.js';
import type { AgentPane, TurnEnd } from '../../pty/agent.js';
import { Emitter } from '../../pty/emitter.js';
import { failpoint } from '../faults/failpoint.js';
import { readTranscriptReply } from './transcript.js';

const TRANSCRIPT_POLL_MS = 100;

/** Per role: hook reports of the current turn, what relevo typed for it, the agent's conversation id. */
export type HookSlot = { report: HookReport | null; arrived: Emitter<void>; since: number; sent: string | null; thread: string | null };
export const newSlot = (): HookSlot => ({ report: null, arrived: new Emitter(), since: 0, sent: null, thread: null });

/** What reading one agent's reply needs. */
export type ReplySource = {
  readonly agent: AgentPane;
  readonly slot: HookSlot;
  /** The hook channel is open (relevo launched the agent with its hook). */
  readonly hooked: boolean;
  /** false: the agent's transcript is on another machine (a host relay); its reply is the hook's, else the screen's. */
  readonly transcripts?: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly stopping: () => boolean;
};

/**
 * The turn's reply from the most exact source: the agent's own end-of-turn hook (waited for a
 * moment when the profile has one), then its transcript, then the screen. An interrupted turn
 * stays as the screen saw it: its partial reply is never relayed.
 */
export async function readReply(from: ReplySource, screen: TurnEnd): Promise<TurnEnd> {
  failpoint('read-reply');
  const { agent, slot } = from;
  const { hook, transcript } = agent.profile.data;
  if (screen.interrupted) return screen;
  if (hook !== undefined && from.hooked && slot.report === null) await waitHook(slot, hook.grace_ms);
  const report = slot.report;
  slot.report = null;
  if (report?.text != null) return { reply: report.text, source: 'hook', interrupted: false, lossy: false };
  if (transcript !== undefined && from.transcripts !== false) {
    const cwd = agent.pane.cwd ?? from.cwd;
    const query = { env: from.env, cwd, since: slot.since, path: report?.transcriptPath ?? null };
    const deadline = Date.now() + transcript.wait_ms;
    for (;;) {
      const text = await readTranscriptReply(transcript.kind, query);
      if (text !== null) return { reply: text, source: 'transcript', interrupted: false, lossy: false };
      if (Date.now() >= deadline || from.stopping()) break;
      await sleep(TRANSCRIPT_POLL_MS);
    }
  }
  // A multiplexer that keeps the pane's output with wrapped lines joined (Herdr) beats the mirror.
  const recent = await (agent.pane.readRecent?.() ?? null)?.catch(() => null);
  const fromRecent = recent ? agent.replyFromRecent(recent) : null;
  if (fromRecent !== null && !fromRecent.interrupted) return fromRecent;
  return screen;
}

/** Resolves when the hook reports, or after `ms`. */
function waitHook(slot: HookSlot, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const sub = slot.arrived.event(done);
  });
}
