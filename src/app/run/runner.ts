import { randomBytes } from 'node:crypto';
import {
  DEFAULT_DELIVERY,
  initialState,
  readHookPayload,
  reportFits,
  ROLES,
  step,
  type DeliveryPolicy,
  type Effect,
  type GitAnchor,
  type Lang,
  type Outgoing,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Role,
} from '../../protocol/index.js';
import { AgentPane, type TurnEnd } from '../../pty/agent.js';
import { Emitter } from '../../pty/emitter.js';
import type { Pane } from '../../pty/pane.js';
import { localPanes, type PaneOpener, type PaneRequest } from './panes.js';
import { CheckpointStore, sha256 } from '../store/checkpoints.js';
import { failpoint } from '../faults/failpoint.js';
import { faultEvent } from '../faults/fault.js';
import { gitAnchor } from '../store/git.js';
import { HookChannel } from '../replies/hook-channel.js';
import { doneMemory, roundMemory, type Memory } from '../store/memory.js';
import type { Journal } from '../store/journal.js';
import { launchFor, type AgentSpec } from '../config/launch.js';
import { RelayLoop } from './relay-loop.js';
import { newSlot, readReply, type HookSlot } from '../replies/reply-reader.js';
import { StateWrites } from '../store/state-writes.js';
import { untestedEntry } from '../config/versions.js';

export type RunnerOptions = {
  readonly runId: string;
  readonly version: string;
  readonly maxRounds: number;
  readonly lang: Lang;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols: number;
  readonly rows: number;
  readonly blockedTimeoutMs: number;
  readonly readyTimeoutMs: number;
  readonly agents: Readonly<Record<Role, AgentSpec>>;
  readonly journal: Journal;
  /** The run's directory, and the same as the agents reach it from `cwd` (for file delivery). */
  readonly runDir: string;
  readonly runPath: string;
  readonly delivery?: DeliveryPolicy;
  /** mnemosyne, with `--memory`. */
  readonly memory?: Memory | null;
  /** A run picked up with `--resume`: its restored state (paused; `resumeRun()` goes on). */
  readonly restored?: RelayState;
  /** Where the agents run (default: relevo's own pseudo-terminals). */
  readonly panes?: PaneOpener;
  /** Journaled, so `--resume` finds tmux panes again. */
  readonly tmuxSocket?: string | null;
};

export type { AgentSpec } from '../config/launch.js';

export { sha256 } from '../store/checkpoints.js';

type ConfigInputs = Pick<RunnerOptions, 'maxRounds' | 'lang' | 'agents' | 'delivery' | 'runPath' | 'panes'>;

/** The machine's settings for a run; the role prompt goes inline to an agent launched without a flag for it. */
export function relayConfig(o: ConfigInputs): RelayConfig {
  const inline = (role: Role) => o.panes?.attached === true || o.agents[role].profile.data.launch.role_prompt_args === undefined;
  return {
    maxRounds: o.maxRounds,
    lang: o.lang,
    inlineRolePrompt: { planner: inline('planner'), builder: inline('builder') },
    delivery: o.delivery ?? DEFAULT_DELIVERY,
    runPath: o.runPath,
  };
}

/**
 * Wires the pure relay machine to two agent panes and the journal: performs the machine's
 * effects, feeds it what the panes report, and times how long an agent may stay blocked.
 */
export class RelayRunner {
  readonly config: RelayConfig;
  readonly agents: Readonly<Record<Role, AgentPane>>;
  readonly #onChange = new Emitter<RelayState>();
  readonly onChange = this.#onChange.event;
  readonly #blockedTimers = new Map<Role, NodeJS.Timeout>();
  /** Per role: hook reports of the current turn, what relevo typed for it, the agent's conversation id. */
  readonly #hooks: Record<Role, HookSlot> = { planner: newSlot(), builder: newSlot() };
  #state: RelayState;
  #stopping = false;
  readonly store: CheckpointStore;
  readonly #writes: StateWrites;
  /** A turn that ended before the ack of the handoff it answers was written. */
  readonly #held = new Map<Role, RelayEvent>();
  readonly #loop: RelayLoop;
  /** The workspace's git anchor, taken right before each turn's handoff is checkpointed. */
  #anchor: GitAnchor | null = null;
  /** mnemosyne stores still running: waited for on stop. */
  readonly #memoryWrites = new Set<Promise<void>>();
  #journalClosed = false;

  /** Opens the hook channel when a profile has a hook (and relevo launches the agent), then the agents' panes. */
  static async create(options: RunnerOptions): Promise<RelayRunner> {
    const opener = options.panes ?? localPanes;
    const needsHook = !opener.attached && ROLES.some((role) => options.agents[role].profile.data.hook !== undefined);
    const channel = needsHook ? await HookChannel.open() : null;
    const request = (role: Role): PaneRequest => {
      const spec = options.agents[role];
      const launch = launchFor(role, spec, options.lang, channel);
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
      const extraEnv = { ...launch.env, RELEVO_RUN_ID: options.runId };
      Object.assign(env, extraEnv, { TERM: 'xterm-256color' });
      return { argv: launch.argv, env, extraEnv, cwd: options.cwd, cols: options.cols, rows: options.rows, osc: spec.profile.data.screen.osc };
    };
    let panes: Record<Role, Pane>;
    try {
      panes = await opener.open({ planner: request('planner'), builder: request('builder') });
    } catch (error) {
      await channel?.close();
      throw error;
    }
    try {
      return new RelayRunner(options, channel, panes);
    } catch (error) {
      // The run could not be journaled: the agents just started are stopped again.
      await Promise.all(ROLES.map((role) => panes[role].kill()));
      for (const role of ROLES) panes[role].dispose();
      await channel?.close();
      throw error;
    }
  }

  private constructor(
    private readonly options: RunnerOptions,
    private readonly channel: HookChannel | null,
    panes: Record<Role, Pane>,
  ) {
    this.config = relayConfig(options);
    this.store = new CheckpointStore(options.runDir, options.runId);
    this.#writes = new StateWrites(this.store, options.journal);
    this.#loop = this.#relayLoop();
    const agentInfo = (role: Role) => {
      const { argv, profile, cli } = options.agents[role];
      return {
        command: [...argv],
        profile: profile.data.id,
        ...(panes[role].owned ? {} : { pane: panes[role].where }),
        ...(cli?.status === 'found' ? { cli_version: cli.version } : {}),
      };
    };
    const socket = channel ? { hook_socket: channel.socketPath } : {};
    if (options.restored) {
      this.#state = options.restored;
      const p = options.restored.pending;
      options.journal.append({
        type: 'run_resumed',
        version: options.version,
        planner: agentInfo('planner'),
        builder: agentInfo('builder'),
        ...(p ? { pending_kind: p.kind, pending_to: p.to, pending_round: p.round } : {}),
        ...socket,
      });
    } else {
      this.#state = initialState(this.config);
      // The link nonce: it stays in the journal, never in what an agent sees.
      options.journal.append({
        type: 'run_started',
        run_id: options.runId,
        version: options.version,
        nonce: randomBytes(16).toString('hex'),
        cwd: options.cwd,
        max_rounds: options.maxRounds,
        lang: options.lang,
        planner: agentInfo('planner'),
        builder: agentInfo('builder'),
        ...socket,
        ...(options.tmuxSocket ? { tmux_socket: options.tmuxSocket } : {}),
      });
    }
    for (const role of ROLES) {
      const entry = untestedEntry(role, options.agents[role]);
      if (entry) options.journal.append(entry);
    }
    const memory = options.memory;
    if (memory) {
      const st = memory.status;
      options.journal.append(st.state === 'ready' ? { type: 'memory', state: 'ready', bank: st.bank } : { type: 'memory', state: 'blocked', detail: st.detail.slice(0, 240) });
    }
    this.agents = {
      planner: new AgentPane('planner', panes.planner, options.agents.planner.profile),
      builder: new AgentPane('builder', panes.builder, options.agents.builder.profile),
    };
    for (const role of ROLES) this.#watch(role, this.agents[role]);
    channel?.onMessage(({ role, kind, payload, at }) => {
      const report = readHookPayload(kind, payload);
      const slot = this.#hooks[role];
      if (report === null || !reportFits(report, slot.sent, slot.thread, { at, since: slot.since })) return;
      slot.report = report;
      slot.thread = report.thread ?? slot.thread;
      slot.arrived.fire();
    });
    channel?.onRejected((reason) => {
      try {
        options.journal.append({ type: 'hook_rejected', reason: reason.slice(0, 240) });
      } catch (error) {
        this.fault(error);
      }
    });
  }

  get state(): RelayState {
    return this.#state;
  }

  /** The role's agent as this run started it: command, profile, CLI release. */
  spec(role: Role): AgentSpec {
    return this.options.agents[role];
  }

  /** `--memory` was asked for and mnemosyne is not installed: the relay goes on without it. */
  get memoryBlocked(): boolean {
    return this.options.memory?.status.state === 'blocked';
  }

  #watch(role: Role, agent: AgentPane): void {
    agent.onTurnBegan(({ sent }) => {
      Object.assign(this.#hooks[role], { report: null, since: Date.now(), sent });
    });
    agent.onTurnEnded((end) => {
      failpoint('turn-end');
      // The workspace's anchor is taken while the reply is read (git status can be slow in a big repository).
      const anchor = gitAnchor(this.options.cwd);
      this.#readReply(role, end)
        .then(async (reply) => {
          this.#anchor = await anchor;
          failpoint('reply');
          const ended = { type: 'turn-ended', role, ...reply } as const;
          // The answer to a handoff whose ack failed waits for that ack (on resume).
          if (this.#writes.awaitingAck(role)) this.#held.set(role, ended);
          else this.dispatch(ended);
        })
        .catch(this.fault);
    });
    agent.onBlocked((detail) => {
      this.dispatch({ type: 'agent-blocked', role, detail });
      this.#clearBlocked(role);
      this.#blockedTimers.set(
        role,
        setTimeout(() => this.dispatch({ type: 'blocked-timeout', role }), this.options.blockedTimeoutMs),
      );
    });
    agent.onUnblocked(() => {
      this.#clearBlocked(role);
      this.dispatch({ type: 'agent-unblocked', role });
    });
    agent.onExit(({ exitCode, signal }) => {
      this.#clearBlocked(role);
      if (!this.#stopping) this.dispatch({ type: 'agent-exited', role, exitCode, ...(signal ? { signal } : {}) });
    });
  }

  #clearBlocked(role: Role): void {
    const timer = this.#blockedTimers.get(role);
    if (timer !== undefined) clearTimeout(timer);
    this.#blockedTimers.delete(role);
  }

  /** Hands the goal to the planner: the run begins. */
  start(goal: string): void {
    this.dispatch({ type: 'start', goal });
  }

  /** A resumed run goes on: its pending handoff (or a notice to the agent whose turn it was) is sent. */
  resumeRun(): void {
    this.dispatch({ type: 'resume' });
  }

  /** A person's edit of the pending handoff: checkpointed anew, anchored to the workspace as it is now. */
  async editPending(body: string): Promise<void> {
    this.#anchor = await gitAnchor(this.options.cwd);
    this.dispatch({ type: 'edit-pending', body });
  }

  /** Hands an event to the relay; one raised while another is handled waits for it (run-to-completion). */
  dispatch(event: RelayEvent): void {
    if (this.#stopping) return;
    this.#loop.push(event);
  }

  /** An error nobody foresaw (or a failed state write): the relay pauses with its reason; the agents keep running. */
  readonly fault = (error: unknown): void => this.dispatch(faultEvent(error));

  #relayLoop(): RelayLoop {
    return new RelayLoop({
      step: (event) => {
        if (this.#stopping) return [];
        const { state, effects } = step(this.config, this.#state, event);
        this.#state = state;
        return effects;
      },
      perform: (effect) => this.#perform(effect),
      deferred: (effect) => this.#writes.defer(effect.message, this.#anchor, effect.supersedes),
      settled: () => this.#onChange.fire(this.#state),
    });
  }

  /** False while the pending handoff's checkpoint could not be written (it lives in memory only). */
  get pendingSaved(): boolean {
    return this.#writes.saved(this.#state.pending);
  }

  #perform(effect: Effect): void {
    switch (effect.type) {
      case 'journal':
        this.options.journal.append(effect.entry);
        if (effect.entry.type === 'done') this.#remember(doneMemory(this.options.runId, effect.entry.summary));
        return;
      case 'checkpoint':
        return this.#writes.checkpoint(effect.message, this.#anchor, effect.supersedes);
      case 'deliver': {
        const to = effect.message.to;
        this.#deliver(effect.message).catch((error: unknown) => this.dispatch(faultEvent(error, to)));
        return;
      }
    }
  }

  /** Stores `text` in mnemosyne (with `--memory`), journaling the outcome; the relay never waits on it. */
  #remember(text: string, round?: number): void {
    const memory = this.options.memory;
    if (!memory || memory.status.state !== 'ready') return;
    const write = memory
      .store(text)
      .then((r) => {
        if (this.#journalClosed) return;
        const at = round !== undefined ? { round } : {};
        this.options.journal.append(
          r.ok ? { type: 'memory', state: 'stored', ...at, ...(r.id ? { id: r.id.slice(0, 240) } : {}) } : { type: 'memory', state: 'failed', ...at, detail: r.detail.slice(0, 240) },
        );
      })
      .catch(this.fault);
    this.#memoryWrites.add(write);
    void write.finally(() => this.#memoryWrites.delete(write));
  }

  #readReply(role: Role, screen: TurnEnd): Promise<TurnEnd> {
    const { env, cwd } = this.options;
    return readReply({ agent: this.agents[role], slot: this.#hooks[role], hooked: this.channel !== null, env, cwd, stopping: () => this.#stopping }, screen);
  }

  #readCheckpoint(lane: Role, seq: number): ReturnType<CheckpointStore['read']> | null {
    try {
      return this.store.read(lane, seq);
    } catch {
      return null;
    }
  }

  /**
   * Offer (a handoff's `offer.json`, reused when offered before), type, confirm, then ack: the
   * receiver owns the handoff only once `ack.json` exists. A refused ack pauses; the sender keeps it.
   * A checkpoint not written before is written first; a handoff confirmed before its ack failed is not typed again.
   */
  async #deliver(message: Outgoing): Promise<void> {
    const lane = message.from as Role;
    const checkpointed = message.kind === 'handoff' && message.seq !== undefined;
    let transferId: string | undefined;
    if (checkpointed) {
      this.#writes.ensure(message);
      // Never type a checkpoint whose body no longer matches its sha256.
      const found = this.#readCheckpoint(lane, message.seq!);
      if (found === null || !found.digestOk || found.body !== message.body) {
        return this.dispatch({ type: 'ack-refused', to: message.to, detail: `digest mismatch: ${lane}/checkpoints/${message.seq} changed after it was written` });
      }
      const { offer, resend } = this.#writes.offer(lane, message.seq!);
      transferId = offer.transfer_id;
      this.options.journal.append({
        type: 'offered',
        lane,
        checkpoint_seq: message.seq!,
        round: message.round,
        to: message.to,
        transfer_id: offer.transfer_id,
        ...(resend ? { resend: true } : {}),
      });
      failpoint('offer');
    }
    const stages = (stage: string) => failpoint(stage);
    const typed = checkpointed ? this.#writes.confirmed(message) : null;
    const result = typed !== null ? { ok: true as const, attempts: typed } : await this.agents[message.to].deliver(message.text, this.options.readyTimeoutMs, stages);
    if (!result.ok) return this.dispatch({ type: 'delivery-failed', to: message.to, detail: result.detail });
    failpoint('confirmed');
    if (checkpointed) {
      const acked = this.#writes.ack(message, result.attempts, this.#state.stale !== null);
      if (!acked.ok) return this.dispatch({ type: 'ack-refused', to: message.to, detail: acked.detail });
      failpoint('ack');
    }
    this.dispatch({ type: 'delivered', to: message.to, sha256: sha256(message.body), attempts: result.attempts, ...(transferId ? { transferId } : {}) });
    const held = this.#held.get(message.to);
    this.#held.delete(message.to);
    if (held) this.dispatch(held);
    if (checkpointed) this.#remember(roundMemory(this.options.runId, message.round, lane, message.to, message.body), message.round);
    failpoint('delivered');
  }

  /** Resolves once the run is done or paused. */
  settled(): Promise<RelayState> {
    return new Promise((resolve) => {
      const check = (s: RelayState) => {
        if (s.phase !== 'done' && s.phase !== 'paused') return false;
        resolve(s);
        return true;
      };
      if (check(this.#state)) return;
      const sub = this.onChange((s) => {
        if (check(s)) sub.dispose();
      });
    });
  }

  /** Ends both agents and frees everything. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const role of ROLES) this.#clearBlocked(role);
    await Promise.all(ROLES.map((role) => this.agents[role].pane.kill()));
    for (const role of ROLES) {
      this.agents[role].dispose();
      this.agents[role].pane.dispose();
    }
    this.#onChange.dispose();
    await Promise.all(this.#memoryWrites);
    this.#journalClosed = true;
    await this.channel?.close();
  }
}
