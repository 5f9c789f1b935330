/** The dashboard's rows, from the relays this relevo runs (their live state) and those only on disk (their journals). */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { listRelays, type RelayRun, resumable } from '../app/commands/relays.js';
import { findRelay, type RelayStatus, relayStatus } from '../app/relays/worktrees.js';
import { peerOf, type RelayState, ROLES } from '../protocol/index.js';
import { orderRows, type RelayPhase, type RelayRow } from './dashboard/rows.js';
import type { RelayView } from './relay-view.js';

export type GitFigures = Pick<RelayRow, 'base' | 'added' | 'removed' | 'ahead' | 'behind' | 'dirty'>;
const NO_GIT: GitFigures = { base: null, added: null, removed: null, ahead: null, behind: null, dirty: null };

const firstLine = (text: string | null): string | null =>
  text
    ?.split('\n')
    .find((l) => l.trim() !== '')
    ?.trim() ?? null;

/** A live relay's phase: starting until its agents show what they do, working while it relays, idle before its goal. */
function livePhase(state: RelayState, agents: readonly string[]): RelayPhase {
  if (state.phase === 'done') return 'done';
  if (state.phase === 'paused') return 'paused';
  if (agents.some((a) => a === 'unknown')) return 'starting';
  return state.phase === 'running' ? 'working' : 'idle';
}

/** A done relay whose branch and worktree hold nothing its base lacks is merged (or had nothing to merge): it needs the person no more. */
export function settled(phase: RelayPhase, git: GitFigures): RelayPhase {
  return phase === 'done' && git.base !== null && git.ahead === 0 && git.dirty === false ? 'merged' : phase;
}

/** The row of a relay this relevo runs: its state as the runner and the agents' screens say now. */
export function liveRow(view: RelayView, git: GitFigures | undefined): RelayRow {
  const state = view.runner.state;
  const agents = ROLES.map((role) => view.runner.agents[role].state);
  const blocked = agents.includes('blocked');
  const waiting = view.waiting();
  // The last handoff is the one whose receiver works now (or, between turns, the last one sent either way).
  const last = state.turn !== null ? state.lastReceived[peerOf(state.turn)] : (state.lastReceived.builder ?? state.lastReceived.planner);
  const figures = git ?? NO_GIT;
  return {
    name: view.name,
    runId: view.runId,
    phase: settled(livePhase(state, agents), figures),
    reason: state.pause?.reason ?? null,
    attention: blocked ? 'blocked' : waiting,
    round: state.round,
    maxRounds: state.budget,
    turn: state.phase === 'done' ? null : state.turn,
    lastHandoff: firstLine(last),
    ...figures,
    changedAt: view.changedAt(),
    live: true,
    host: view.relay?.host ?? null,
    unreachable: view.unreachable(),
  };
}

/** The row of a relay only on disk (or run by another relevo): what its journal says. */
export function diskRow(run: RelayRun, git: GitFigures | undefined): RelayRow {
  const s = run.summary;
  const figures = git ?? NO_GIT;
  const state: RelayPhase =
    s.state === 'done'
      ? 'done'
      : s.state === 'running'
        ? 'working'
        : s.state === 'no_goal' || s.state === 'unreadable'
          ? 'ended'
          : 'paused';
  const phase = settled(state, figures);
  let changedAt = 0;
  try {
    changedAt = statSync(join(run.dir, 'events.jsonl')).mtimeMs;
  } catch {
    // A lost journal: the row has no age to show but its start.
  }
  return {
    name: run.name,
    runId: run.dir.split('/').at(-1) ?? run.name,
    phase,
    reason: s.state === 'interrupted' ? 'interrupted' : (s.reason ?? null),
    attention: null,
    round: s.rounds,
    maxRounds: s.max_rounds ?? 0,
    turn: null,
    lastHandoff: null,
    ...figures,
    changedAt,
    live: false,
    host: s.host ?? null,
    // Another relevo runs it and its journal says the host is out of reach: when the next look is due is that relevo's to know.
    unreachable: s.state === 'running' && s.unreachable !== undefined ? { host: s.unreachable, retryAt: null } : null,
  };
}

/** A relay's figures against its base from git (null for the ones git cannot tell now). */
export async function gitFigures(relay: { root: string; branch: string; path: string | null; baseRef: string }): Promise<GitFigures> {
  try {
    const s: RelayStatus = await relayStatus(relay);
    const dirty = s.uncommitted.length + s.untracked.length > 0;
    return { base: relay.baseRef, added: s.added, removed: s.removed, ahead: s.ahead, behind: s.behind, dirty };
  } catch {
    return { ...NO_GIT, base: relay.baseRef };
  }
}

/** The rows' sources: the relays of this relevo, those on disk, and each one's git figures (read when asked, kept between). */
export class RowSource {
  #disk: RelayRun[] = [];
  readonly #git = new Map<string, GitFigures>();

  constructor(
    readonly stateDir: string,
    readonly cwd: string,
  ) {}

  /** Every relay's row, needs-you first: the live ones as they are now, the others as their journals say. */
  rows(views: readonly RelayView[]): RelayRow[] {
    const live = views.map((v) => liveRow(v, this.#git.get(v.name)));
    const names = new Set(live.map((r) => r.name));
    const disk = this.#disk.filter((r) => !names.has(r.name)).map((r) => diskRow(r, this.#git.get(r.name)));
    return orderRows([...live, ...disk]);
  }

  /** The relays on disk `--resume --all` goes on with. */
  resumable(): RelayRun[] {
    return this.#disk.filter(resumable);
  }

  onDisk(name: string): RelayRun | undefined {
    return this.#disk.find((r) => r.name === name);
  }

  /** The relays on disk read again now; resolves once every relay's git figures are read again too. */
  async reload(views: readonly RelayView[]): Promise<void> {
    this.#disk = listRelays(this.stateDir);
    const names = [...views.flatMap((v) => (v.relay ? [v.relay.branch] : [])), ...this.#disk.map((r) => r.name)];
    await Promise.all(
      [...new Set(names)].map(async (name) => {
        try {
          this.#git.set(name, await gitFigures(await findRelay(this.cwd, name)));
        } catch {
          // A branch gone (removed meanwhile): its row shows no figures.
        }
      }),
    );
  }
}
