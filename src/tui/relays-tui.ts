import { newRelay, resumedRelays } from '../app/commands/relays.js';
import type { Options } from '../app/config/options.js';
import { guardProcess } from '../app/faults/fault.js';
import { mergeRelay, removeRelay } from '../app/relays/cleanup.js';
import { RelayError } from '../app/relays/git.js';
import { shareLimits } from '../app/relays/limits.js';
import { agentsStarted, StartGate } from '../app/relays/starting.js';
import type { RelayOpen } from '../app/run/setup.js';
import { stateDirPath } from '../app/store/state-dir.js';
import { splitKeys } from '../pty/keys.js';
import { DashboardScreen } from './dashboard/dashboard-screen.js';
import { type DashboardAction, type DashboardState, dashboardInput, initialDashboard } from './dashboard/dashboard-state.js';
import { needsYou, othersText } from './dashboard/rows.js';
import { firstStore } from './first-store.js';
import { editLine, emptyLine, type LineState } from './input/line-editor.js';
import { noColor } from './paint/no-color.js';
import { RowSource } from './relay-rows.js';
import { openRelayView, type RelayView, type RelayViewContext } from './relay-view.js';
import type { Store } from './state/store.js';
import { Compositor, firstLayout } from './view/compositor.js';

/** While the dashboard is on screen, its ages and git figures are read again this often. */
const DASHBOARD_EVERY_MS = 2_000;

export type RelaysContext = Omit<RelayViewContext, 'handOver'> & {
  readonly io: { readonly stdin: NodeJS.ReadStream };
};

/**
 * The relays of one relevo: each relay's view (relay-view.ts) and the dashboard over them all, one of
 * them on screen at a time, like tmux's windows and its choose-tree. Keys go to what is on screen.
 */
export class RelaysTui {
  readonly #ctx: RelaysContext;
  readonly #views: RelayView[] = [];
  readonly #unguards: (() => void)[] = [];
  #active: RelayView | null = null;
  #screen: DashboardScreen | null = null;
  #dash: DashboardState = initialDashboard;
  readonly #source: RowSource;
  /** The goal of a new relay, typed on the dashboard's last line (`c`). */
  #prompt: LineState | null = null;
  #notice: string | null = null;
  readonly #gate: StartGate;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** The relays already asked to stop (a second `stop` would journal a second line). */
  readonly #stopped = new WeakSet<RelayView>();

  constructor(ctx: RelaysContext) {
    this.#ctx = ctx;
    this.#gate = new StartGate(ctx.options.maxStarting);
    this.#source = new RowSource(stateDirPath(ctx.options.stateDir, process.cwd()), process.cwd());
  }

  /** The first relay, on the first frame's store and compositor (today's one-relay start). */
  async openFirst(store: Store, compositor: Compositor, size: { cols: number; rows: number }, relay: RelayOpen): Promise<RelayView> {
    const view = await this.#wire(store, compositor, size, relay, this.#ctx.options);
    this.#active = view;
    return view;
  }

  /** The person's bytes: to the relay on screen, else to the dashboard. */
  readonly onData = (data: string): void => {
    if (this.#active !== null) this.#active.onData(data);
    else this.#dashboardKeys(data);
  };

  resized(): void {
    if (this.#active !== null) this.#active.compositor.resized();
    else this.#paint();
  }

  /** While another program (the editor) has the terminal: nothing painted, no key read. */
  readonly handOver = async <T>(program: () => Promise<T>): Promise<T> => {
    const compositor = this.#active?.compositor;
    compositor?.suspend();
    this.#ctx.io.stdin.off('data', this.onData);
    this.#ctx.term.leave();
    try {
      return await program();
    } finally {
      this.#ctx.term.enter();
      this.#ctx.io.stdin.on('data', this.onData);
      if (compositor) compositor.resume();
      else this.#paint();
    }
  };

  /** The dashboard on screen: every relay of the repository, the ones on disk read again; `resumeAll`: each not done goes on here. */
  showDashboard(resumeAll = false): void {
    this.#active?.compositor.suspend();
    this.#active = null;
    this.#reload();
    this.#paint();
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.#reload(true), DASHBOARD_EVERY_MS);
    if (resumeAll) for (const run of this.#source.resumable()) void this.#attempt(run.name, () => this.#resume(run.name));
  }

  /** `view` on screen (the dashboard's timer stopped: nothing is read while it is hidden). */
  show(view: RelayView): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#active?.compositor.suspend();
    this.#active = view;
    this.#others();
    view.compositor.resume();
  }

  /** The dashboard's `c`, and C-] c in a relay's view: the goal of a new relay is asked on the dashboard. */
  create(): void {
    if (this.#active !== null) this.showDashboard();
    this.#prompt = emptyLine;
    this.#paint();
  }

  /** Every relay not stopped yet is asked to (a signal, quit): each is journaled paused with `detail`, resumable. */
  stopAll(detail?: string): void {
    for (const view of this.#views) {
      if (this.#stopped.has(view)) continue;
      this.#stopped.add(view);
      view.runner.dispatch({ type: 'stop', ...(detail !== undefined ? { detail } : {}) });
    }
  }

  /** 0 when every relay is done (or never got a goal), 3 when one waits to go on. */
  exitCode(): number {
    return this.#views.every((v) => v.runner.state.phase === 'done' || v.runner.state.phase === 'ready') ? 0 : 3;
  }

  /** Every relay's painting, agents and run ended; the lines that say how each ended. */
  async close(): Promise<string[]> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#screen?.dispose();
    const lines = await Promise.all(this.#views.map((v) => v.close()));
    for (const unguard of this.#unguards) unguard();
    for (const v of this.#views) v.store.dispose();
    return this.#views.length > 1 ? lines.map((l, i) => l.replace(/^relevo-tui: /, `relevo-tui: ${this.#views[i]!.name}: `)) : lines;
  }

  async #wire(store: Store, compositor: Compositor, size: { cols: number; rows: number }, relay: RelayOpen, options: Options) {
    const relays = { show: () => this.showDashboard(), create: () => this.create() };
    // Quit in a relay's view (which stopped that relay) ends relevo: the other relays stop too.
    const self: { view?: RelayView } = {};
    const finish = () => {
      if (self.view) this.#stopped.add(self.view);
      this.stopAll();
      this.#ctx.finish(this.exitCode());
    };
    const ctx: RelayViewContext = { ...this.#ctx, handOver: this.handOver, relays, finish };
    await this.#gate.enter();
    let view: RelayView;
    try {
      view = await openRelayView({ ...ctx, options }, { store, compositor, size }, relay);
    } finally {
      // Its agents count as starting until their screens say what they do.
      this.#gate.leave();
    }
    self.view = view;
    this.#views.push(view);
    // A usage limit is the account's: the other relays on the same CLI are held with it.
    const limits = shareLimits(view.runner, () => this.#views.map((v) => v.runner));
    this.#unguards.push(guardProcess(view.runner.fault), () => limits.dispose());
    view.runner.onChange(() => this.#changed());
    void agentsStarted(view.runner);
    return view;
  }

  /** A relay of this relevo opened in the background (suspended until shown). */
  async #open(relay: RelayOpen, options: Options): Promise<RelayView> {
    const { env, term } = this.#ctx;
    const store = firstStore(options, env, true);
    const compositor = new Compositor(term, store);
    compositor.suspend();
    const inner = firstLayout(term.cols, term.rows).panes.planner?.inner ?? { width: options.cols, height: options.rows };
    const view = await this.#wire(store, compositor, { cols: inner.width, rows: inner.height }, relay, options);
    view.begin();
    return view;
  }

  /** A relay changed: the dashboard (when shown) and the band's count of others waiting follow. */
  #changed(): void {
    if (this.#closed) return;
    if (this.#active === null) this.#paint();
    else this.#others();
  }

  #others(): void {
    const active = this.#active;
    if (active === null) return;
    const text = othersText(this.#source.rows(this.#views).filter((r) => r.name !== active.name && needsYou(r)).length) || null;
    if (active.store.state.others !== text) active.store.update({ others: text });
  }

  /** The relays on disk and every relay's git figures read again; `paint` repaints at once, and again once git answered. */
  #reload(paint = false): void {
    void this.#source.reload(this.#views).then(() => {
      if (!this.#closed && this.#active === null) this.#paint();
    });
    if (paint) this.#paint();
  }

  #paint(): void {
    if (this.#closed || this.#active !== null) return;
    const view = { rows: this.#source.rows(this.#views), state: this.#dash, now: Date.now(), prompt: this.#prompt, notice: this.#notice };
    this.#screen ??= new DashboardScreen(this.#ctx.term, view, { plain: noColor(this.#ctx.env) });
    this.#screen.show(view);
  }

  #dashboardKeys(data: string): void {
    this.#notice = null;
    if (this.#prompt !== null) {
      this.#promptKeys(data);
      return;
    }
    const { state, actions } = dashboardInput(this.#dash, this.#source.rows(this.#views), data);
    this.#dash = state;
    this.#paint();
    for (const action of actions) void this.#act(action);
  }

  #promptKeys(data: string): void {
    for (const key of splitKeys(data)) {
      if (this.#prompt === null) return;
      const r = editLine(this.#prompt, key, []);
      if ('state' in r) this.#prompt = r.state;
      else {
        this.#prompt = null;
        if ('submit' in r && r.submit.trim() !== '') void this.#create(r.submit.trim());
      }
    }
    this.#paint();
  }

  async #create(goal: string): Promise<void> {
    const options = { ...this.#ctx.options, goal, resume: false as const, branch: undefined };
    await this.#attempt(`new relay`, async () => this.show(await this.#open(await newRelay(options, this.#ctx.env), options)));
  }

  /** A dashboard action; a refusal or failure is the dashboard's notice, in one line. */
  async #act(action: DashboardAction): Promise<void> {
    if (action.kind === 'new') return this.create();
    if (action.kind === 'quit') {
      this.stopAll();
      return this.#ctx.finish(this.exitCode());
    }
    const view = this.#views.find((v) => v.name === action.name);
    const options = this.#ctx.options;
    switch (action.kind) {
      case 'open':
        if (view) return this.show(view);
        return this.#attempt(action.name, () => this.#resume(action.name, true));
      case 'pause':
        if (view) view.runner.dispatch({ type: 'pause' });
        return;
      case 'resume':
        if (view) view.runner.dispatch({ type: 'resume' });
        else await this.#attempt(action.name, () => this.#resume(action.name));
        return;
      case 'merge':
        if (view && view.runner.state.phase === 'running') return this.#say(`${action.name} is working: pause it first`);
        return this.#attempt(action.name, async () => {
          const merged = await mergeRelay(process.cwd(), action.name);
          this.#say(`merged ${action.name} into ${merged.baseRef}`);
        });
      case 'remove':
        return this.#attempt(action.name, async () => {
          if (view) {
            view.runner.dispatch({ type: 'stop' });
            this.#views.splice(this.#views.indexOf(view), 1);
            await view.close();
          }
          const removed = await removeRelay(process.cwd(), action.name, { copies: options.copy });
          this.#say(`removed ${action.name}${removed.branchDeleted ? '' : ` (branch ${action.name} kept)`}`);
        });
    }
  }

  /** A relay on disk picked up by this relevo (`show`: and put on screen). */
  async #resume(name: string, show = false): Promise<void> {
    const run = this.#source.onDisk(name);
    if (run === undefined) throw new RelayError(`no relay ${name}`);
    if (run.live !== null) throw new RelayError(`${name} runs in another relevo-tui (pid ${run.live})`);
    const resumed: Options = { ...this.#ctx.options, resume: run.dir.split('/').at(-1)! };
    const view = await this.#open(resumedRelays(resumed, this.#ctx.env), resumed);
    if (show) this.show(view);
  }

  async #attempt(what: string, work: () => Promise<void>): Promise<void> {
    await work().catch((error: unknown) => this.#say(`${what}: ${(error as Error).message.split('\n')[0]}`));
  }

  #say(text: string): void {
    this.#notice = text;
    this.#reload(true);
  }
}
