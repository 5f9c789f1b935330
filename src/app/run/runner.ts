import {
  type Effect,
  type GitAnchor,
  initialState,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  ROLES,
  type Role,
  step,
} from '../../protocol/index.js';
import { AgentPane, type TurnEnd } from '../../pty/agent.js';
import { Emitter } from '../../pty/emitter.js';
import type { Pane } from '../../pty/pane.js';
import type { AgentSpec } from '../config/launch.js';
import { agentEnv } from '../config/profiles.js';
import { failpoint } from '../faults/failpoint.js';
import { faultEvent } from '../faults/fault.js';
import { type HookSlot, newSlot, readReply } from '../replies/reply-reader.js';
import type { CheckpointStore } from '../store/checkpoints.js';
import { gitAnchor } from '../store/git.js';
import { doneMemory } from '../store/memory.js';
import { type Restart, restartAgent } from './agent-restart.js';
import { AgentWatch } from './agent-watch.js';
import { EarlyAnchors } from './early-anchor.js';
import { listenForReports } from './hook-reports.js';
import { LimitClock } from './limit-clock.js';
import { MemoryWrites } from './memory-writes.js';
import { localPanes, type PaneOpener, type PaneRequest } from './panes.js';
import { RelayLoop } from './relay-loop.js';
import { paneRequest, type RunFiles, runFiles, whenSettled } from './run-files.js';
import { openHooks, type RunHooks } from './run-hooks.js';
import { type RunnerOptions, relived } from './run-options.js';
import { journalRunStart } from './run-start.js';

export type { AgentSpec } from '../config/launch.js';
export { sha256 } from '../store/checkpoints.js';
export { type RunnerOptions, relayConfig } from './run-options.js';

/**
 * Wires the pure relay machine to two agent panes and the journal: performs the machine's effects
 * (journal lines, checkpoints, transfers), feeds it what the panes report, and reads each turn's reply.
 */
export class RelayRunner {
  /** One record, shared with the transfers and the TUI: a restarted agent replaces its entry. */
  readonly #agents: Record<Role, AgentPane>;
  readonly #onAgentRestarted = new Emitter<Role>();
  /** An exited agent runs again: `agents[role]` is a new AgentPane (views subscribe to it). */
  readonly onAgentRestarted = this.#onAgentRestarted.event;
  readonly #onChange = new Emitter<RelayState>();
  readonly onChange = this.#onChange.event;
  /** Per role: hook reports of the current turn, what relevo typed for it, the agent's conversation id. */
  readonly #hooks: Record<Role, HookSlot> = { planner: newSlot(), builder: newSlot() };
  readonly #early = new EarlyAnchors();
  #state: RelayState;
  #stopping = false;
  #options: RunnerOptions;
  /** The current run's settings, checkpoints and transfers: a next run after `done` gets its own. */
  #run: RunFiles;
  readonly #loop: RelayLoop;
  readonly #watch: AgentWatch;
  readonly #memory: MemoryWrites;
  /** Goes on at a `rate_limited` pause's reset time. */
  readonly #limits: LimitClock;
  /** The workspace's git anchor, taken right before each turn's handoff is checkpointed. */
  #anchor: GitAnchor | null = null;

  /** Opens the hooks when a profile has one (relevo launches the agent, or a host relay kept them: run-hooks.ts), then the agents' panes. */
  static async create(options: RunnerOptions): Promise<RelayRunner> {
    const opener = options.panes ?? localPanes;
    const hooks = await openHooks(options, opener);
    const site = hooks?.site ?? null;
    let panes: Record<Role, Pane>;
    const requests = { planner: paneRequest('planner', options, site), builder: paneRequest('builder', options, site) };
    try {
      await hooks?.ready();
      panes = await opener.open(requests);
    } catch (error) {
      await hooks?.close();
      throw error;
    }
    try {
      const runner = new RelayRunner(relived(options, opener), hooks, panes, opener, requests);
      hooks?.start();
      return runner;
    } catch (error) {
      // The run could not be journaled: the agents just started are stopped again.
      await Promise.all(ROLES.map((role) => panes[role].kill()));
      for (const role of ROLES) panes[role].dispose();
      await hooks?.close();
      throw error;
    }
  }

  private constructor(
    options: RunnerOptions,
    private readonly hooks: RunHooks | null,
    panes: Record<Role, Pane>,
    private readonly opener: PaneOpener,
    private readonly requests: Readonly<Record<Role, PaneRequest>>,
  ) {
    this.#options = options;
    this.#memory = new MemoryWrites(options.memory, options.journal, this.fault);
    this.#agents = {
      planner: new AgentPane('planner', panes.planner, options.agents.planner.profile),
      builder: new AgentPane('builder', panes.builder, options.agents.builder.profile),
    };
    this.#run = this.#runFiles(options);
    this.#loop = this.#relayLoop();
    this.#state = options.restored ?? initialState(this.config);
    journalRunStart(options, panes, hooks?.channel.socketPath ?? null);
    this.#watch = new AgentWatch({
      dispatch: (event) => this.dispatch(event),
      turnBegan: (role, sent) => Object.assign(this.#hooks[role], { report: null, since: Date.now(), sent }),
      turnEnded: (role, screen) => this.#turnEnded(role, screen),
      stopping: () => this.#stopping,
      blockedTimeoutMs: options.blockedTimeoutMs,
    });
    for (const role of ROLES) this.#watch.watch(role, this.agents[role]);
    this.#limits = new LimitClock(this.#state, this.onChange, (event) => this.dispatch(event));
    if (hooks !== null) {
      const reported = (role: Role) => this.#early.reported(role, this.#options.cwd);
      listenForReports(hooks.channel, { hooks: this.#hooks, agents: this.#agents, reported, journal: options.journal, fault: this.fault });
    }
  }

  get state(): RelayState {
    return this.#state;
  }

  get config(): RelayConfig {
    return this.#run.config;
  }

  get store(): CheckpointStore {
    return this.#run.store;
  }

  #runFiles(options: RunnerOptions): RunFiles {
    return runFiles(options, {
      agents: this.#agents,
      memory: this.#memory,
      dispatch: (event) => this.dispatch(event),
      stale: () => this.#state.stale !== null,
    });
  }

  /**
   * The next run after `done`, with the same agents and their conversations: a new run id and
   * directory (the journal has moved there), rounds from 1; journaled as following the run before.
   */
  follow(next: Pick<RunnerOptions, 'runId' | 'runDir' | 'runPath'>, panes: Readonly<Record<Role, Pane>>): void {
    if (this.#state.phase !== 'done') throw new Error(`the run is ${this.#state.phase}, not done`);
    const { restored: _, relive: __, ...rest } = this.#options;
    const options = { ...rest, ...next };
    journalRunStart(options, panes, this.hooks?.channel.socketPath ?? null, this.#options.runId);
    this.hooks?.moved(options.runDir);
    this.#options = options;
    this.#run = this.#runFiles(options);
    // The agents keep their conversations: they know their roles already. One that exited is still to be started again.
    const exited = { planner: this.agents.planner.pane.exited !== null, builder: this.agents.builder.pane.exited !== null };
    this.#state = { ...initialState(this.config), introduced: this.#state.introduced, exited };
    this.#onChange.fire(this.#state);
  }

  get agents(): Readonly<Record<Role, AgentPane>> {
    return this.#agents;
  }

  /** Whether an exited agent can be started again from here (relevo's own terminals, a host's tmux). */
  get restartable(): boolean {
    return this.opener.reopen !== undefined;
  }

  /** Starts an exited agent again with the same command and launch flags (see agent-restart.ts). */
  async restartAgent(role: Role): Promise<Restart> {
    if (this.#stopping) return { ok: false, why: 'running' };
    const { opener, requests } = this;
    const profiles = { planner: this.spec('planner').profile, builder: this.spec('builder').profile };
    const replaced = (r: Role) => this.#onAgentRestarted.fire(r);
    const context = { agents: this.#agents, opener, requests, profiles, watch: this.#watch, hooks: this.#hooks, replaced };
    return restartAgent({ ...context, runDir: this.#options.runDir, dispatch: (e) => this.dispatch(e), fault: this.fault }, role);
  }

  /** The role's agent as this run started it: command, profile, CLI release. */
  spec(role: Role): AgentSpec {
    return this.#options.agents[role];
  }

  /** `--memory` was asked for and mnemosyne is not installed: the relay goes on without it. */
  get memoryBlocked(): boolean {
    return this.#memory.blocked;
  }

  /** The screen saw a turn end: its reply is read (hook, transcript, screen) while the workspace is anchored (early-anchor.ts), then relayed. */
  #turnEnded(role: Role, screen: TurnEnd): void {
    failpoint('turn-end');
    const { env, cwd } = this.#options;
    const anchor = this.#early.take(role, cwd, this.#hooks[role].since);
    const reading = {
      agent: this.agents[role],
      slot: this.#hooks[role],
      hooked: this.hooks !== null,
      transcripts: this.opener.host === undefined,
      env: agentEnv(env, this.spec(role).argv),
      cwd,
      stopping: () => this.#stopping,
    };
    readReply(reading, screen)
      .then(async (reply) => {
        this.#anchor = await anchor;
        failpoint('reply');
        this.#run.transfers.turnEnded({ type: 'turn-ended', role, ...reply });
      })
      .catch(this.fault);
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
    this.#anchor = await gitAnchor(this.#options.cwd);
    this.dispatch({ type: 'edit-pending', body });
  }

  /** A person's note for `to`: joined to a waiting handoff it is checkpointed anew, so the workspace is anchored now. */
  async note(to: Role, text: string): Promise<void> {
    this.#anchor = await gitAnchor(this.#options.cwd);
    this.dispatch({ type: 'note', to, text });
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
      deferred: (effect) => this.#run.writes.defer(effect.message, this.#anchor, effect.supersedes),
      settled: () => this.#onChange.fire(this.#state),
    });
  }

  /** False while the pending handoff's checkpoint could not be written (it lives in memory only). */
  get pendingSaved(): boolean {
    return this.#run.writes.saved(this.#state.pending);
  }

  #perform(effect: Effect): void {
    switch (effect.type) {
      case 'journal':
        this.#run.writes.record(effect.entry);
        if (effect.entry.type === 'done') this.#memory.remember(doneMemory(this.#options.runId, effect.entry.summary));
        return;
      case 'checkpoint':
        this.#run.writes.checkpoint(effect.message, this.#anchor, effect.supersedes);
        return;
      case 'deliver':
        this.#run.transfers.deliver(effect.message);
        return;
    }
  }

  /** Resolves once the run is done or paused. */
  settled(): Promise<RelayState> {
    return whenSettled(this.#state, this.onChange);
  }

  /** Ends both agents and frees everything. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#limits.dispose();
    for (const role of ROLES) this.#watch.stop(role);
    await Promise.all(ROLES.map((role) => this.agents[role].pane.kill()));
    for (const role of ROLES) {
      this.agents[role].dispose();
      this.agents[role].pane.dispose();
    }
    this.#onChange.dispose();
    this.#onAgentRestarted.dispose();
    await this.#memory.close();
    await this.hooks?.close();
  }
}
