import {
  type AgentState,
  captureGroups,
  chromeStart,
  draftSource,
  type Explanation,
  type ReplySource,
  type Role,
  reconstructReply,
} from '../protocol/index.js';
import { type DeliveryResult, type DeliveryStage, type DeliveryTarget, deliver } from './deliver.js';
import { type Detection, detect } from './detect.js';
import { DraftHold, KeyDraft } from './draft.js';
import { Emitter } from './emitter.js';
import { explainDetection } from './explain.js';
import { withHistory } from './output-history.js';
import type { Pane } from './pane.js';
import { agentTerminal, type Profile } from './profile.js';
import type { Mark } from './screen.js';
import { TurnTracker } from './turn.js';

/** Re-evaluate at most this often while output streams. */
const EVALUATE_EVERY_MS = 30;

export type TurnEnd = {
  readonly reply: string;
  readonly source: ReplySource;
  readonly interrupted: boolean;
  /** Read from a screen where the agent hard-wraps lines. */
  readonly lossy: boolean;
};

/**
 * An agent CLI in a pane, read through its profile: its state (busy / idle / blocked),
 * the end of each turn with the reply it produced, and delivery of messages into it.
 */
export class AgentPane implements DeliveryTarget {
  readonly #tracker: TurnTracker;
  readonly #onTurnEnded = new Emitter<TurnEnd>();
  readonly #onBlocked = new Emitter<string>();
  readonly #onUnblocked = new Emitter<void>();
  /** The agent shows a usage limit in its turn: the rule, and its `reset` text when the screen gives one. */
  readonly #onLimited = new Emitter<Detection>();
  readonly #onState = new Emitter<AgentState | 'exited'>();
  readonly #onEvaluated = new Emitter<void>();
  readonly #onTurnBegan = new Emitter<{ readonly sent: string | null }>();
  readonly #onResized = new Emitter<void>();
  /** A size the agent's terminal was given while it drew a turn read from its screen: it gets it once the turn ends. */
  #waitingSize: { readonly cols: number; readonly rows: number } | null = null;
  /** A turn started: relevo submitted a message, or someone typed into the agent directly. */
  readonly onTurnBegan = this.#onTurnBegan.event;
  readonly onTurnEnded = this.#onTurnEnded.event;
  /** The agent's terminal took a size that waited for its turn to end (the view of it changes). */
  readonly onResized = this.#onResized.event;
  readonly onBlocked = this.#onBlocked.event;
  readonly onUnblocked = this.#onUnblocked.event;
  readonly onLimited = this.#onLimited.event;
  readonly onState = this.#onState.event;
  /** Fires after every evaluation of the screen (used by delivery to wait for changes). */
  readonly onEvaluated = this.#onEvaluated.event;
  readonly onExit: Pane['onExit'];
  #detection: Detection = { state: 'unknown', rule: null };
  #timer: NodeJS.Timeout | null = null;
  #disposed = false;
  #timerDue = 0;
  #turnStart: Mark | null = null;
  /** Where the chrome started the last time the agent was idle between turns. */
  #idleStart: Mark | null = null;
  #userTyped = false;
  /** The person's unsent keys, for a profile whose input box cannot be read. */
  readonly #keys = new KeyDraft();
  /** A delivery waiting for the person's draft to be sent or cleared. */
  readonly hold = new DraftHold();
  #sent: string | undefined;
  /** Output history offsets: where the turn began, and where the agent was last idle. */
  #logFrom = 0;
  #idleLogAt = 0;
  #settled = false;

  constructor(
    readonly role: Role,
    readonly pane: Pane,
    readonly profile: Profile,
  ) {
    const { quiet_ms, require_busy, evidence_quiet_ms } = profile.data.detect;
    this.#tracker = new TurnTracker(quiet_ms, require_busy, evidence_quiet_ms);
    this.onExit = pane.onExit;
    // After this update's other listeners (the painter shows an echo first).
    pane.onUpdate(() => queueMicrotask(() => this.#schedule(EVALUATE_EVERY_MS)));
    pane.onExit(() => {
      this.#clearTimer();
      this.#tracker.cancel();
      this.#onState.fire('exited');
    });
    this.#schedule(0);
  }

  get state(): AgentState | 'exited' {
    return this.pane.exited ? 'exited' : this.#detection.state;
  }

  get detection(): Detection {
    return this.#detection;
  }

  /** Every rule of the profile evaluated on the screen now, with the multiplexer's report when it outranks them. */
  explain(): Explanation {
    const screen = explainDetection(this.profile.rules, this.pane.screen.snapshot());
    const { state, rule } = withReported(screen, this.pane.reported ?? null);
    return rule === screen.rule
      ? screen
      : { ...screen, state, rule, fallback: `the multiplexer reports ${state}, over the screen's ${screen.state}` };
  }

  /**
   * The agent's terminal follows its pane, never below its CLI's minimum (a smaller pane is a window
   * onto it). An agent whose replies are read from its screen alone (no hook, no transcript) keeps
   * its size while a turn runs and takes the new one when the turn ends: a resize racing its redraws
   * would garble the reply on its screen (a CLI erases the rows it counted at the old width), and
   * what is relayed must never depend on the terminal's size.
   */
  resize(cols: number, rows: number): void {
    const size = agentTerminal(this.profile, cols, rows);
    if (this.#tracker.active && this.#screenOnly && (size.cols !== this.pane.screen.cols || size.rows !== this.pane.screen.rows)) {
      this.#waitingSize = size;
      return;
    }
    this.#waitingSize = null;
    this.pane.resize(size.cols, size.rows);
  }

  get #screenOnly(): boolean {
    return this.profile.data.hook === undefined && this.profile.data.transcript === undefined;
  }

  /** The size that waited for the turn, now the turn is over. */
  #takeWaitingSize(): void {
    const size = this.#waitingSize;
    if (size === null || this.pane.exited) return;
    this.#waitingSize = null;
    this.pane.resize(size.cols, size.rows);
    this.#onResized.fire();
  }

  get inTurn(): boolean {
    return this.#tracker.active;
  }

  /** The last turn ended as the tracker watched it, and none began since (see deliver.ts). */
  get settled(): boolean {
    return this.#settled;
  }

  /** The profile's input-line pattern captures what is typed, so the input box can be read. */
  get readsInput(): boolean {
    return captureGroups(this.profile.layout.prompt.source) > 0;
  }

  /** The person's unsent draft: the input line's text, or the keys they typed since their last submit (`deliver.draft`). */
  draft(): string {
    return draftSource(this.profile.data) === 'keys' ? this.#keys.text : (this.inputText() ?? '');
  }

  /** Text still in the agent's input box, or null when no input line is on screen. */
  inputText(): string | null {
    const lines = this.pane.screen.snapshot().viewport;
    for (let i = lines.length - 1; i >= 0; i--) {
      const m = this.profile.layout.prompt.exec(lines[i]!);
      if (!m) continue;
      const text = (m[1] ?? '').trim();
      return this.profile.emptyInput?.test(text) ? '' : text;
    }
    return null;
  }

  /** Keystrokes from the person at the keyboard, passed through as they are: a turn they start is watched too. */
  type(data: string): void {
    this.pane.write(data);
    this.#userTyped = true;
    this.#keys.keys(data);
  }

  /** A paste from the person at the keyboard: bracketed when the agent asked for it (the pane decides). */
  typePaste(text: string): void {
    this.#userTyped = true;
    this.#keys.paste(text);
    this.pane.paste(text, this.profile.data.deliver.newline);
  }

  /** Types `text` into the agent and submits it (see deliver.ts); the turn it starts is then watched. */
  deliver(text: string, readyTimeoutMs: number, onStage?: (stage: DeliveryStage) => void, again = false): Promise<DeliveryResult> {
    return deliver(this, text, readyTimeoutMs, onStage, again);
  }

  /** Called by delivery right before typing (the turn's output starts at the agent's chrome), or at `takenAt`, the row of a message the agent took before relevo looked. */
  beginTurn(sent: string, takenAt?: number): void {
    const row = takenAt ?? this.#chromeRow(this.pane.screen.snapshot().viewport);
    this.#startTurn(sent, this.pane.screen.markRow(row), undefined, takenAt !== undefined);
  }

  /** Row where the agent's chrome (input box and what is stacked on it) starts, else the cursor row. */
  #chromeRow(lines: readonly string[]): number {
    const at = chromeStart(lines, this.profile.layout);
    return at < 0 ? this.pane.screen.cursorRow : at;
  }

  #startTurn(sent: string | undefined, from: Mark, logFrom = this.pane.history?.offset ?? 0, taken = false): void {
    this.#userTyped = false;
    this.#logFrom = logFrom;
    this.#turnStart?.dispose();
    this.#turnStart = from;
    this.#sent = sent;
    this.#settled = false;
    this.#tracker.begin(this.pane.screen.version, taken);
    this.#onTurnBegan.fire({ sent: sent ?? null });
  }

  /**
   * The agent's own end-of-turn hook reported for the turn being watched: the turn ends as soon as
   * the screen is idle and has kept still for the profile's `evidence_quiet_ms`, or at once when the
   * report holds the reply's text and the profile's hook `ends_turn`.
   */
  turnReported(withText = false): void {
    if (!this.#tracker.active) return;
    this.#tracker.evidence(withText && this.profile.data.hook?.ends_turn === true);
    this.#schedule(0);
  }

  /** Delivery gave up: no turn is running. */
  cancelTurn(): void {
    this.#tracker.cancel();
    this.#takeWaitingSize();
  }

  /** Current screen evaluated now (used after writes by delivery). */
  evaluate(): void {
    this.#clearTimer();
    if (this.pane.exited) return;
    const previous = this.#detection.state;
    const snapshot = this.pane.screen.snapshot();
    this.#detection = withReported(detect(this.profile.rules, snapshot), this.pane.reported ?? null);
    const state = this.#detection.state;
    if (state !== previous) this.#onState.fire(state);
    if (!this.#tracker.active) {
      // Someone typed into the agent: watch that turn too, from where the screen was idle. (Busy with
      // nobody typing is the agent's start-up or housekeeping, not a turn.)
      if ((state === 'busy' || state === 'blocked') && this.#userTyped && this.#idleStart !== null) {
        this.#startTurn(undefined, this.#idleStart, this.#idleLogAt);
        this.#idleStart = null;
      } else if (state === 'idle') {
        this.#idleStart?.dispose();
        this.#idleStart = this.pane.screen.markRow(this.#chromeRow(snapshot.viewport));
        this.#idleLogAt = this.pane.history?.offset ?? 0;
      }
    }
    const quiet = this.pane.quietFor();
    const saysDone = this.profile.rules.find((r) => r.id === this.#detection.rule)?.endsTurn ?? false;
    const { signal, recheckIn } = this.#tracker.observe(this.#detection.state, this.pane.screen.version, quiet, saysDone);
    if (signal === 'blocked') this.#onBlocked.fire(this.#detection.rule ?? 'blocked');
    if (signal === 'limited') this.#onLimited.fire(this.#detection);
    if (signal === 'unblocked') this.#onUnblocked.fire();
    if (signal === 'ended') this.#endTurn();
    if (recheckIn !== null) this.#schedule(Math.max(recheckIn, 1));
    this.#onEvaluated.fire();
  }

  /**
   * The turn's reply from the pane's recent output (Herdr's recent-unwrapped: wrapped lines already
   * joined), read from the last echo of what relevo typed; null when that echo is not in it.
   */
  replyFromRecent(text: string): TurnEnd | null {
    const first = this.#sent
      ?.split('\n')
      .find((l) => l.trim() !== '')
      ?.trim();
    if (first === undefined) return null;
    const rows = text.split('\n');
    let start = -1;
    for (let i = rows.length - 1; i >= 0 && start < 0; i--) if (rows[i]!.includes(first)) start = i;
    if (start < 0) return null;
    const { text: reply, interrupted } = reconstructReply(
      rows.slice(start).map((t) => ({ text: t, wrapped: false })),
      this.profile.layout,
      this.#sent,
    );
    return { reply, source: 'screen', interrupted, lossy: this.profile.data.reply.hard_wrap };
  }

  #endTurn(): void {
    this.#settled = true;
    const from = this.#turnStart?.line ?? -1;
    const rows = this.pane.screen.rowsFrom(Math.max(from, 0));
    const shown = reconstructReply(rows, this.profile.layout, this.#sent);
    const { text, interrupted } = withHistory(shown, this.pane.history, this.#logFrom, this.profile.layout, this.#sent);
    this.#takeWaitingSize();
    this.#onTurnEnded.fire({ reply: text, source: 'screen', interrupted, lossy: this.profile.data.reply.hard_wrap });
  }

  /** An evaluation in `ms`, unless one is due sooner (a screen change during a long quiet wait is looked at soon). */
  #schedule(ms: number): void {
    if (this.#disposed) return;
    const due = Date.now() + ms;
    if (this.#timer !== null && this.#timerDue <= due) return;
    this.#clearTimer();
    this.#timerDue = due;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.evaluate();
    }, ms);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  dispose(): void {
    this.#disposed = true;
    this.#clearTimer();
    this.#turnStart?.dispose();
    this.#idleStart?.dispose();
    for (const e of [this.#onTurnEnded, this.#onBlocked, this.#onUnblocked, this.#onLimited, this.#onState, this.#onEvaluated]) e.dispose();
    this.#onResized.dispose();
    this.#onTurnBegan.dispose();
    this.hold.dispose();
  }
}

/**
 * The screen rules' verdict together with the multiplexer's own (Herdr's agent_status): either
 * seeing a prompt waiting on the person makes it blocked, either seeing work makes it busy.
 */
export function withReported(screen: Detection, reported: AgentState | null): Detection {
  if (reported === null || reported === 'unknown' || reported === screen.state) return screen;
  const rank: Record<AgentState, number> = { limited: 4, blocked: 3, busy: 2, idle: 1, unknown: 0 };
  return rank[reported] > rank[screen.state] ? { ...screen, state: reported, rule: `multiplexer:${reported}` } : screen;
}
