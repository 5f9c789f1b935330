// The simulated agent's event loop: input events in, frames out.
import type { Readable, Writable } from 'node:stream';

import { LiveDisplay } from './display.js';
import { cleared, edit, emptyInputBox, type InputBox } from './editor.js';
import { readText } from './files.js';
import { ESC_TIMEOUT_MS, type InputEvent, InputParser } from './input.js';
import { permissionAnswer, UsageLimit } from './limit.js';
import type { SimOptions } from './options.js';
import {
  bannerLines,
  DENIED_LINE,
  echoLines,
  INTERRUPTED_LINE,
  printedText,
  type RegionView,
  replyLines,
  SPINNER_INTERVAL_MS,
  STREAM_GAP_MS,
  streamChunks,
  workedLines,
} from './screen.js';
import {
  type Block,
  ignoresEnter,
  initialScriptState,
  planTurn,
  type ScriptState,
  type TurnOutcome,
  withReferencedFiles,
} from './script.js';
import { TurnTimers } from './timers.js';

export interface SimIO {
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: Writable & { columns?: number };
  stderr: { write(text: string): unknown };
  cwd: string;
  now?: () => number;
  /** Called with every message submitted, as typed or pasted (before any trimming). */
  record?: (message: string) => void;
  /** Called when a turn has been answered, with the reply text (like Claude Code's Stop hook). */
  onStop?: (reply: string) => void;
  /** Called when a turn that printed a `<handoff>` or `<done>` block has ended, with the block as printed. */
  printed?: (block: Block) => void;
}

type Mode = 'idle' | 'busy' | 'permission';

class SimAgent {
  private readonly parser = new InputParser();
  private readonly now: () => number;
  private mode: Mode = 'idle';
  private box: InputBox = emptyInputBox;
  private readonly queue: string[] = [];
  private script: ScriptState = initialScriptState;
  private turn: { outcome: TurnOutcome; startedAt: number } | null = null;
  private lastReply = '';
  /** The block the reply being printed ends with, if any. */
  private lastBlock: Block | null = null;
  private readonly timers = new TurnTimers();
  private spinner: NodeJS.Timeout | null = null;
  private escapeTimer: NodeJS.Timeout | null = null;
  private spinnerFrame = 0;
  private readonly limit = new UsageLimit();
  private readonly display: LiveDisplay;
  private rawMode = false;
  private finished = false;
  private resolveExit: (code: number) => void = () => {};
  readonly exitCode: Promise<number>;

  constructor(
    private readonly options: SimOptions,
    private readonly io: SimIO,
  ) {
    this.now = io.now ?? Date.now;
    this.display = new LiveDisplay(io.stdout, options);
    this.exitCode = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
  }

  start(): void {
    const { stdin, stdout } = this.io;
    if (stdin.isTTY && stdin.setRawMode) {
      stdin.setRawMode(true);
      this.rawMode = true;
    }
    stdin.on('data', this.onData);
    stdin.on('end', this.onEnd);
    stdout.on('resize', this.onResize);
    stdout.on('error', this.onOutputError);
    this.display.start();
    const { role, name, appendSystemPrompt } = this.options;
    this.draw(bannerLines({ role, name, cwd: this.io.cwd, appendSystemPrompt }));
    stdin.resume();
  }

  private view(): RegionView {
    if (this.mode === 'permission') return { kind: 'permission' };
    if (this.mode === 'busy') {
      const elapsedMs = this.turn === null ? 0 : this.now() - this.turn.startedAt;
      return { kind: 'busy', input: this.box.text, pasteId: this.box.pasteId, frame: this.spinnerFrame, elapsedMs };
    }
    return { kind: 'idle', input: this.box.text, pasteId: this.box.pasteId };
  }

  /** Redraw the live region, first writing `transcript` lines above it for good. */
  private draw(transcript: readonly string[] = []): void {
    this.display.draw(this.view(), this.mode === 'busy' ? this.spinnerFrame : null, transcript);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    if (this.escapeTimer !== null) clearTimeout(this.escapeTimer);
    this.escapeTimer = null;
    this.dispatch(this.parser.push(chunk));
    if (this.parser.pendingEscape && !this.finished) {
      this.escapeTimer = setTimeout(() => {
        this.escapeTimer = null;
        this.dispatch(this.parser.flush());
      }, ESC_TIMEOUT_MS);
    }
  };

  private dispatch(events: readonly InputEvent[]): void {
    for (const event of events) {
      if (this.finished) return;
      this.handle(event);
    }
  }

  private readonly onEnd = (): void => this.finish(0);

  private readonly onOutputError = (): void => {
    this.display.markBroken();
    this.finish(1);
  };

  private readonly onResize = (): void => {
    this.display.resize();
    this.draw();
  };

  private handle(event: InputEvent): void {
    if (this.mode === 'permission') {
      const answer = permissionAnswer(event);
      if (answer !== null) {
        this.answerPermission(answer);
        return;
      }
      if (event.type !== 'ctrl-c' && event.type !== 'ctrl-d') return;
    }
    const edited = edit(this.box, event);
    if (edited !== null) {
      this.box = edited;
      this.draw();
      return;
    }
    switch (event.type) {
      case 'enter':
        this.submit();
        return;
      case 'escape':
        if (this.mode === 'busy') this.interrupt();
        return;
      case 'ctrl-c':
        if (this.box.text === '') {
          this.finish(0);
          return;
        }
        this.box = cleared(this.box);
        this.draw();
        return;
      case 'ctrl-d':
        if (this.box.text === '') this.finish(0);
        return;
    }
  }

  private submit(): void {
    const message = this.box.text;
    if (message.trim() === '' || ignoresEnter(this.options, this.script)) return;
    this.box = cleared(this.box);
    this.io.record?.(message);
    if (this.mode === 'idle') {
      this.startTurn(message);
      return;
    }
    this.queue.push(message); // Claude Code queues messages sent while busy
    this.draw();
  }

  private startSpinner(): void {
    this.stopSpinner();
    this.spinner = setInterval(() => {
      this.spinnerFrame += 1;
      this.draw();
    }, SPINNER_INTERVAL_MS);
  }

  private stopSpinner(): void {
    if (this.spinner !== null) clearInterval(this.spinner);
    this.spinner = null;
  }

  private startTurn(message: string): void {
    const limited = this.limit.active(this.now());
    const outcome = planTurn(this.options, this.script, withReferencedFiles(message, readText), limited);
    this.turn = { outcome, startedAt: this.now() };
    this.mode = 'busy';
    this.spinnerFrame = 0;
    this.draw(echoLines(message.trim()));
    this.startSpinner();
    const { thinkMs } = this.options;
    if (outcome.kind === 'exit') {
      const notice = `sim-agent: exiting with code 1 (--misbehave exit:${outcome.turn})\n`;
      this.timers.after(Math.floor(thinkMs / 2), () => this.finish(1, notice));
      return;
    }
    this.timers.after(thinkMs, () => {
      if (outcome.kind === 'reply') return this.streamReply(outcome.reply, outcome.block, outcome.next);
      if (outcome.kind === 'limit') return this.endLimited(outcome.next);
      this.stopSpinner();
      this.mode = 'permission';
      this.draw();
    });
  }

  private answerPermission(allowed: boolean): void {
    const outcome = this.turn?.outcome;
    if (outcome?.kind !== 'permission') return;
    this.mode = 'busy';
    this.startSpinner();
    if (allowed) this.streamReply(outcome.reply, outcome.block, outcome.next);
    else this.streamReply(outcome.denied.reply, null, outcome.denied.next, [DENIED_LINE, '']);
  }

  private streamReply(reply: string, block: Block | null, next: ScriptState, before: readonly string[] = []): void {
    this.script = next;
    this.lastReply = reply;
    this.lastBlock = block === null ? null : { tag: block.tag, body: printedText(block.body) };
    const chunks = streamChunks([...before, ...replyLines(reply)]);
    chunks.forEach((chunk, i) => {
      const last = i === chunks.length - 1;
      const write = (): void => (last ? this.endTurn(chunk) : this.draw(chunk));
      if (i === 0) write();
      else this.timers.after(i * STREAM_GAP_MS, write);
    });
  }

  private endTurn(lastLines: readonly string[]): void {
    const startedAt = this.turn?.startedAt ?? this.now();
    this.stopSpinner();
    this.mode = 'idle';
    this.turn = null;
    this.draw([...lastLines, ...workedLines(this.now() - startedAt)]);
    this.io.onStop?.(this.lastReply);
    if (this.lastBlock !== null) this.io.printed?.(this.lastBlock);
    const queued = this.queue.shift();
    if (queued !== undefined) this.startTurn(queued);
  }

  /** The turn stops on the usage limit: no reply, the limit line, idle again (no Stop hook, as for an API error). */
  private endLimited(next: ScriptState): void {
    this.script = next;
    this.stopSpinner();
    this.mode = 'idle';
    this.turn = null;
    this.draw(this.limit.hit(this.now()));
  }

  /** Cancel whatever the current turn still had scheduled. */
  private cancelTurn(): void {
    this.timers.cancel();
    this.stopSpinner();
  }

  private interrupt(): void {
    this.cancelTurn();
    this.mode = 'idle';
    this.turn = null;
    // Like Claude Code, queued messages come back into the input box for editing.
    if (this.queue.length > 0) {
      const text = [...this.queue.splice(0), this.box.text].filter((part) => part !== '').join('\n');
      this.box = { ...this.box, text };
    }
    this.draw([INTERRUPTED_LINE, '']);
  }

  finish(code: number, notice = ''): void {
    if (this.finished) return;
    this.finished = true;
    this.cancelTurn();
    if (this.escapeTimer !== null) clearTimeout(this.escapeTimer);
    const { stdin, stdout } = this.io;
    stdin.off('data', this.onData);
    stdin.off('end', this.onEnd);
    stdout.off('resize', this.onResize);
    this.display.close();
    if (this.rawMode) stdin.setRawMode?.(false);
    stdin.pause();
    if (notice !== '') this.io.stderr.write(notice);
    this.resolveExit(code);
  }
}

/** Run the simulated agent on the given streams; resolves with its exit code. */
export function runAgent(options: SimOptions, io: SimIO): Promise<number> {
  const agent = new SimAgent(options, io);
  agent.start();
  return agent.exitCode;
}
