import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  initialState,
  readHookPayload,
  reportFits,
  ROLES,
  step,
  type Effect,
  type HookReport,
  type Lang,
  type Outgoing,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Role,
} from '../protocol/index.js';
import { AgentPane, type TurnEnd } from '../pty/agent.js';
import { Emitter } from '../pty/emitter.js';
import { Pane } from '../pty/pane.js';
import { HookChannel } from './hook-channel.js';
import type { Journal } from './journal.js';
import { readTranscriptReply } from './transcript.js';
import { launchFor, type AgentSpec } from './launch.js';

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
};

export type { AgentSpec } from './launch.js';

const TRANSCRIPT_POLL_MS = 100;

type HookSlot = { report: HookReport | null; arrived: Emitter<void>; since: number; sent: string | null; thread: string | null };
const newSlot = (): HookSlot => ({ report: null, arrived: new Emitter(), since: 0, sent: null, thread: null });

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

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

  /** Opens the hook channel when a profile has a hook, then launches both agents. */
  static async create(options: RunnerOptions): Promise<RelayRunner> {
    const needsHook = ROLES.some((role) => options.agents[role].profile.data.hook !== undefined);
    return new RelayRunner(options, needsHook ? await HookChannel.open() : null);
  }

  private constructor(
    private readonly options: RunnerOptions,
    private readonly channel: HookChannel | null,
  ) {
    const inline = (role: Role) => options.agents[role].profile.data.launch.role_prompt_args === undefined;
    this.config = {
      maxRounds: options.maxRounds,
      lang: options.lang,
      inlineRolePrompt: { planner: inline('planner'), builder: inline('builder') },
    };
    this.#state = initialState(this.config);
    const nonce = randomBytes(16).toString('hex');
    options.journal.append({
      type: 'run_started',
      run_id: options.runId,
      version: options.version,
      nonce,
      cwd: options.cwd,
      max_rounds: options.maxRounds,
      lang: options.lang,
      planner: { command: [...options.agents.planner.argv], profile: options.agents.planner.profile.data.id },
      builder: { command: [...options.agents.builder.argv], profile: options.agents.builder.profile.data.id },
      ...(channel ? { hook_socket: channel.socketPath } : {}),
    });
    const spawn = (role: Role): AgentPane => {
      const spec = options.agents[role];
      const launch = launchFor(role, spec, options.lang, channel);
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
      Object.assign(env, launch.env, { TERM: 'xterm-256color', RELEVO_RUN_ID: options.runId });
      const pane = new Pane({
        argv: launch.argv,
        cwd: options.cwd,
        env,
        cols: options.cols,
        rows: options.rows,
        osc: spec.profile.data.screen.osc,
      });
      return new AgentPane(role, pane, spec.profile);
    };
    this.agents = { planner: spawn('planner'), builder: spawn('builder') };
    for (const role of ROLES) this.#watch(role, this.agents[role]);
    channel?.onMessage(({ role, kind, payload }) => {
      const report = readHookPayload(kind, payload);
      const slot = this.#hooks[role];
      if (report === null || !reportFits(report, slot.sent, slot.thread)) return;
      slot.report = report;
      slot.thread = report.thread ?? slot.thread;
      slot.arrived.fire();
    });
    channel?.onRejected((reason) => options.journal.append({ type: 'hook_rejected', reason: reason.slice(0, 240) }));
  }

  get state(): RelayState {
    return this.#state;
  }

  #watch(role: Role, agent: AgentPane): void {
    agent.onTurnBegan(({ sent }) => {
      Object.assign(this.#hooks[role], { report: null, since: Date.now(), sent });
    });
    agent.onTurnEnded((end) => {
      void this.#readReply(role, end).then((reply) => this.dispatch({ type: 'turn-ended', role, ...reply }));
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

  dispatch(event: RelayEvent): void {
    if (this.#stopping) return;
    const { state, effects } = step(this.config, this.#state, event);
    this.#state = state;
    for (const effect of effects) this.#perform(effect);
    this.#onChange.fire(state);
  }

  #perform(effect: Effect): void {
    switch (effect.type) {
      case 'journal':
        this.options.journal.append(effect.entry);
        return;
      case 'deliver':
        void this.#deliver(effect.message);
        return;
    }
  }

  /**
   * The turn's reply from the most exact source: the agent's own end-of-turn hook (waited for a
   * moment when the profile has one), then its transcript, then the screen. An interrupted turn
   * stays as the screen saw it: its partial reply is never relayed.
   */
  async #readReply(role: Role, screen: TurnEnd): Promise<TurnEnd> {
    const { hook, transcript } = this.agents[role].profile.data;
    if (screen.interrupted) return screen;
    const slot = this.#hooks[role];
    if (hook !== undefined && this.channel !== null && slot.report === null) await this.#waitHook(role, hook.grace_ms);
    const report = slot.report;
    slot.report = null;
    if (report?.text != null) return { reply: report.text, source: 'hook', interrupted: false, lossy: false };
    if (transcript !== undefined) {
      const query = { env: this.options.env, cwd: this.options.cwd, since: slot.since, path: report?.transcriptPath ?? null };
      const deadline = Date.now() + transcript.wait_ms;
      for (;;) {
        const text = await readTranscriptReply(transcript.kind, query);
        if (text !== null) return { reply: text, source: 'transcript', interrupted: false, lossy: false };
        if (Date.now() >= deadline || this.#stopping) break;
        await sleep(TRANSCRIPT_POLL_MS);
      }
    }
    return screen;
  }

  #waitHook(role: Role, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      };
      const timer = setTimeout(done, ms);
      const sub = this.#hooks[role].arrived.event(done);
    });
  }

  async #deliver(message: Outgoing): Promise<void> {
    const result = await this.agents[message.to].deliver(message.text, this.options.readyTimeoutMs);
    if (result.ok) this.dispatch({ type: 'delivered', to: message.to, sha256: sha256(message.body), attempts: result.attempts });
    else this.dispatch({ type: 'delivery-failed', to: message.to, detail: result.detail });
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
    await this.channel?.close();
  }
}
