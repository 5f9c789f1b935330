import { type Role, readHookPayload, reportFits } from '../../protocol/index.js';
import type { AgentPane } from '../../pty/agent.js';
import type { HookChannel } from '../replies/hook-channel.js';
import type { HookSlot } from '../replies/reply-reader.js';
import type { Journal } from '../store/journal.js';

/** Where a hook's report of a turn goes: the role's slot, its pane, and the early git anchor. */
export type HookReports = {
  readonly hooks: Readonly<Record<Role, HookSlot>>;
  readonly agents: Readonly<Record<Role, AgentPane>>;
  readonly reported: (role: Role) => void;
  readonly journal: Pick<Journal, 'append'>;
  readonly fault: (error: unknown) => void;
};

/**
 * Listens to the hook channel: a report that fits the role's current turn (what relevo sent, the
 * agent's conversation, the time) fills its slot; a rejected message is journaled with its reason.
 */
export function listenForReports(channel: HookChannel, to: HookReports): void {
  channel.onMessage(({ role, kind, payload, at }) => {
    const report = readHookPayload(kind, payload);
    const slot = to.hooks[role];
    if (report === null || !reportFits(report, slot.sent, slot.thread, { at, since: slot.since })) return;
    slot.report = report;
    slot.thread = report.thread ?? slot.thread;
    slot.arrived.fire();
    to.agents[role].turnReported(report.text != null);
    to.reported(role);
  });
  channel.onRejected((reason) => {
    try {
      to.journal.append({ type: 'hook_rejected', reason: reason.slice(0, 240) });
    } catch (error) {
      to.fault(error);
    }
  });
}
