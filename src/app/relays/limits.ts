/** A usage limit is the account's, not one relay's: relays of one relevo whose agents run the same CLI are held with the one that hit it. */
import { type RelayEvent, type RelayState, ROLES } from '../../protocol/index.js';

type Relay = {
  readonly state: RelayState;
  readonly agents: Readonly<Record<'planner' | 'builder', { readonly profile: { readonly data: { readonly id: string } } }>>;
  dispatch(event: RelayEvent): void;
  onChange(listener: (state: RelayState) => void): { dispose(): void };
};

/**
 * Watches `relay`: when one of its agents hits its CLI's limit (paused `rate_limited`, the agent
 * named), every other relay in `others()` that runs that CLI and is running is held with the same
 * reason and reset time (the machine pauses it before its next delivery, and goes on at the reset).
 */
export function shareLimits(relay: Relay, others: () => readonly Relay[]): { dispose(): void } {
  let shared: RelayState['pause'] = null;
  return relay.onChange((state) => {
    const p = state.pause;
    if (state.phase !== 'paused' || p?.reason !== 'rate_limited' || p.role === undefined || p.profile === undefined) {
      shared = null;
      return;
    }
    if (shared === p) return;
    shared = p;
    const profile = p.profile;
    for (const other of others()) {
      if (other === relay || other.state.phase !== 'running') continue;
      if (!ROLES.some((role) => other.agents[role].profile.data.id === profile)) continue;
      other.dispatch({ type: 'rate-limited', profile, resetAt: p.resumeAt ?? null, ...(p.detail ? { detail: p.detail } : {}) });
    }
  });
}
