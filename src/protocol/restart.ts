import { checkpointPath } from './checkpoint-layout.js';
import { handoffMessage, preambleFor } from './messages.js';
import { goalMessage, resumeNotice } from './prompts.js';
import type { NoticeMessage, Outgoing, RelayConfig, RelayEvent, RelayState, Step } from './relay-types.js';
import { peerOf, type Role } from './roles.js';

/** What the machine lends the restart rule (machine.ts imports this file, so it cannot import machine.ts). */
export type RestartRules = {
  /** The machine's `resume`. */
  readonly resume: (state: RelayState) => Step;
  /** The machine's send-now: the message becomes pending and is delivered. */
  readonly dispatch: (state: RelayState, message: Outgoing) => Step;
};

/**
 * What an agent restarted mid-turn is told: where the handoff it was working on is (its peer's last
 * checkpoint, delivered to it once and never typed again), or, a planner still on the goal, the goal.
 */
export function restartNotice(
  config: RelayConfig,
  state: RelayState,
  role: Role,
  preamble: string | null,
  cause: 'restart' | 'limit' = 'restart',
): NoticeMessage {
  const from = peerOf(role);
  const seq = state.seqs[from];
  const handoff = seq > 0 ? { round: state.round, from, path: `${config.runPath}/${checkpointPath(from, seq)}/HANDOFF.md` } : undefined;
  const text = resumeNotice(
    config.lang,
    {
      to: role,
      goal: state.goal ?? '',
      agentRestarted: cause === 'restart',
      limitReset: cause === 'limit',
      ...(handoff ? { handoff } : {}),
    },
    preamble,
  );
  const points = handoff ? { handoff: { lane: from, seq } } : {};
  return { kind: 'notice', to: role, from: 'relevo', round: handoff?.round ?? 0, body: text, text, cause, ...points };
}

/**
 * `role` runs again as a new process (same command and launch flags): it has seen nothing, so it is
 * introduced again. What was pending for it is sent again, rendered for a new agent (its role prompt
 * when inline, the goal first for a planner); when it died mid-turn it is told where its handoff is.
 * A pause with `agent_exited` for this role ends (a goal held for it goes then). Nothing already
 * delivered is delivered again.
 */
export function afterRestart(
  config: RelayConfig,
  state: RelayState,
  e: Extract<RelayEvent, { type: 'agent-restarted' }>,
  rules: RestartRules,
): Step {
  const { role } = e;
  const where = { ...(e.pid !== undefined ? { pid: e.pid } : {}), ...(e.pane !== undefined ? { pane: e.pane } : {}) };
  const restarted = { type: 'journal', entry: { type: 'agent_restarted', role, ...where } } as const;
  if (state.phase === 'done') return { state, effects: [restarted] };
  const running: RelayState = { ...state, exited: { ...state.exited, [role]: false } };
  // Before the goal: it runs again, and the goal given next goes to it as to any agent.
  if (state.phase === 'ready') return { state: running, effects: [restarted] };
  const fresh: RelayState = {
    ...running,
    restarted: { ...state.restarted, [role]: true },
    introduced: { ...state.introduced, [role]: false },
  };
  const p = fresh.pending;
  const mine = p !== null && p.to === role && !fresh.delivering;
  let pending: Outgoing | null = p;
  if (mine && p.kind === 'handoff') pending = handoffMessage(config, fresh, p.from, p.round, p.seq, p.body, p.note ?? null);
  else if (mine && p.kind === 'goal') pending = { ...p, text: goalMessage(p.body, config.lang, preambleFor(config, fresh, role)) };
  else if (p === null && fresh.turn === role) pending = restartNotice(config, fresh, role, preambleFor(config, fresh, role));
  const next: RelayState = { ...fresh, pending, turn: pending === null ? fresh.turn : null };

  if (next.phase === 'paused' && next.pause?.reason === 'agent_exited' && next.pause.role === role) {
    const resumed = rules.resume(next);
    return { state: resumed.state, effects: [restarted, ...resumed.effects] };
  }
  // Restarted while the relay runs (its exit's pause already ended): what it needs goes now.
  if (next.phase === 'running' && pending !== null && pending !== p && !next.delivering) {
    const sent = rules.dispatch(next, pending);
    return { state: sent.state, effects: [restarted, ...sent.effects] };
  }
  return { state: next, effects: [restarted] };
}
