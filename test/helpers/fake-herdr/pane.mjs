// One fake herdr pane: a real PTY (node-pty) whose output feeds a headless xterm, plus the
// agent detection and `done`/seen bookkeeping of herdr.md §3.

import { EventEmitter } from 'node:events';
import { readlinkSync } from 'node:fs';
import pty from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { agentKind, foregroundProcess, screenState } from './detect.mjs';

const { Terminal } = xterm;
export const MAX_READ_LINES = 1000; // herdr.md §1 "Reading output": --lines capped at 1000
const POLL_MS = 200; // process changes without output (agent started or exited)
const SETTLE_MS = 30; // detection runs at most this long after output

/** Trailing spaces (U+0020 only: a no-break space is content, e.g. after Claude's ❯). */
const trimEnd = (s) => s.replace(/ +$/, '');

export function cwdOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

export class Pane extends EventEmitter {
  /**
   * @param {{ paneId: string, terminalId: string, workspaceId: string, tabId: string,
   *   cwd: string, env: Record<string,string>, argv: string[], cols: number, rows: number }} o
   */
  constructor(o) {
    super();
    this.setMaxListeners(0);
    Object.assign(this, { paneId: o.paneId, terminalId: o.terminalId, workspaceId: o.workspaceId, tabId: o.tabId });
    this.revision = 0;
    this.startCwd = o.cwd;
    this.title = '';
    this.progress = '';
    this.kind = null; // detected agent kind
    this.state = 'unknown'; // screen state: unknown|idle|working|blocked
    this.unseen = false; // herdr.md §3: `done` is idle the user has not seen yet
    this.stateChangeSeq = 0;
    this.interactiveReady = false;
    this.launchPending = false;
    this.agentName = undefined;
    this.exited = false;
    this.term = new Terminal({ cols: o.cols, rows: o.rows, scrollback: 10_000, allowProposedApi: true });
    this.term.onTitleChange((t) => (this.title = t)); // OSC 0 and OSC 2
    this.term.parser.registerOscHandler(9, (data) => {
      if (data.startsWith('4;')) this.progress = data; // ConEmu progress, herdr.md §3 "OSC progress"
      return false;
    });
    this.pty = pty.spawn(o.argv[0], o.argv.slice(1), {
      name: 'xterm-256color',
      cols: o.cols,
      rows: o.rows,
      cwd: o.cwd,
      env: o.env,
    });
    this.pid = this.pty.pid;
    this.pty.onData((data) => {
      if (this.closed) return;
      this.revision++;
      this.term.write(data, () => {
        this.#schedule(SETTLE_MS);
        this.emit('output');
      });
    });
    this.pty.onExit(() => {
      this.exited = true;
      clearInterval(this.poll);
      clearTimeout(this.timer);
      this.emit('exit');
    });
    this.poll = setInterval(() => this.detect(), POLL_MS);
  }

  #schedule(ms) {
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.detect();
      }, ms);
    }
  }

  /** Resolves once everything received so far has been parsed. */
  settled() {
    return new Promise((resolve) => this.term.write('', resolve));
  }

  get bracketedPaste() {
    return this.term.modes.bracketedPasteMode;
  }

  get appCursor() {
    return this.term.modes.applicationCursorKeysMode;
  }

  /** The shell's cwd; the one it was started in until it has printed (and so surely chdir'd). */
  get cwd() {
    return (this.revision > 0 ? cwdOf(this.pid) : undefined) ?? this.startCwd;
  }

  foreground() {
    return this.exited ? null : foregroundProcess(this.pid);
  }

  /** herdr.md §3/§6.5: the status the API reports. */
  get status() {
    if (this.kind === null) return 'unknown';
    return this.state === 'idle' && this.unseen ? 'done' : this.state;
  }

  /** Re-detects the agent and its state; emits `status` on a change. */
  detect() {
    if (this.exited || this.closed) return;
    const kind = agentKind(this.foreground());
    const before = this.status;
    if (kind === null) {
      this.kind = null;
      this.state = 'unknown';
      this.unseen = false;
      this.interactiveReady = false;
    } else {
      const { state, matched } = screenState(
        kind,
        this.#rows('detection').map((r) => r.text),
        this.title,
        this.progress,
      );
      if (this.kind !== null && this.state === 'working' && state === 'idle') this.unseen = true;
      if (state === 'working') this.unseen = false;
      // Ready for input once the agent's own screen shows it waiting (not the idle fallback).
      if (matched && state !== 'working') this.interactiveReady = true;
      this.kind = kind;
      this.state = state;
    }
    if (this.status !== before) {
      this.stateChangeSeq++;
      this.emit('status', this.status);
    }
  }

  /** herdr.md §3: focusing a pane marks its `done` as seen. */
  markSeen() {
    if (this.unseen) {
      this.unseen = false;
      this.stateChangeSeq++;
      this.emit('status', this.status);
    }
  }

  write(data) {
    if (!this.exited) this.pty.write(data);
  }

  /** Rows `[from, to)` of the buffer as `{ text, wrapped, line }`, trailing spaces trimmed. */
  #slice(from, to) {
    const buf = this.term.buffer.active;
    const rows = [];
    for (let i = Math.max(0, from); i < to; i++) {
      const line = buf.getLine(i);
      if (line === undefined) continue;
      rows.push({ text: trimEnd(line.translateToString(true)), wrapped: line.isWrapped, line });
    }
    return rows;
  }

  /** herdr.md §1 "Sources": the rows each read source covers. */
  #rows(source) {
    const buf = this.term.buffer.active;
    const rows = this.term.rows;
    if (source === 'visible') return this.#slice(buf.viewportY, buf.viewportY + rows);
    if (source === 'detection') return this.#slice(buf.baseY, buf.baseY + rows);
    const all = this.#slice(0, buf.baseY + rows);
    while (all.length > 0 && all.at(-1).text === '') all.pop(); // nothing below the output yet
    return all;
  }

  /**
   * Text of `source` (`visible|recent|recent_unwrapped|detection`), the last `lines` rows,
   * as plain text or with SGR (`ansi`). `recent_unwrapped` joins soft-wrapped rows.
   */
  read(source, lines, ansi) {
    const rows = this.#rows(source === 'recent_unwrapped' ? 'recent' : source);
    const render = (r, keepTrailing) =>
      ansi ? sgrRow(r.line, this.term, keepTrailing) : keepTrailing ? r.line.translateToString(false) : r.text;
    let out;
    if (source === 'recent_unwrapped') {
      out = [];
      rows.forEach((r, i) => {
        const continues = rows[i + 1]?.wrapped ?? false;
        const text = render(r, continues);
        if (r.wrapped && out.length > 0) out[out.length - 1] += text;
        else out.push(text);
      });
      if (!ansi) out = out.map(trimEnd);
    } else out = rows.map((r) => render(r, false));
    const n = Math.min(lines, MAX_READ_LINES);
    const truncated = out.length > n;
    if (truncated) out = out.slice(out.length - n);
    return { text: out.join('\n'), truncated };
  }

  /** Hangs up the PTY: SIGHUP to its foreground group and its shell, then closes it. */
  close() {
    clearInterval(this.poll);
    clearTimeout(this.timer);
    if (!this.exited) {
      const fg = foregroundProcess(this.pid);
      for (const pid of [fg?.pid, this.pid]) {
        if (pid === undefined) continue;
        try {
          process.kill(-pid, 'SIGHUP');
        } catch {
          // already gone
        }
      }
      try {
        this.pty.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
    this.term.dispose();
    this.closed = true;
    this.emit('exit'); // wakes waiters at once
  }
}

/** One row with SGR sequences where the rendition changes (format `ansi`). */
function sgrRow(line, term, keepTrailing) {
  const cell = term.buffer.active.getNullCell();
  let end = line.length;
  if (!keepTrailing) {
    while (end > 0) {
      line.getCell(end - 1, cell);
      if ((cell.getChars() !== '' && cell.getChars() !== ' ') || cell.getWidth() === 0) break;
      end--;
    }
  }
  let out = '';
  let prev = '0';
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    if (cell.getWidth() === 0) continue;
    const sgr = sgrOf(cell);
    if (sgr !== prev) out += `\x1b[${sgr}m`;
    prev = sgr;
    out += cell.getChars() || ' ';
  }
  return prev === '0' ? out : `${out}\x1b[0m`;
}

function color(mode, value, base) {
  if (mode === 'rgb') return `${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`;
  if (value < 8) return String(base + value);
  if (value < 16) return String(base + 60 + value - 8);
  return `${base + 8};5;${value}`;
}

function sgrOf(cell) {
  if (cell.isAttributeDefault()) return '0';
  const codes = ['0'];
  if (cell.isBold()) codes.push('1');
  if (cell.isDim()) codes.push('2');
  if (cell.isItalic()) codes.push('3');
  if (cell.isUnderline()) codes.push('4');
  if (cell.isInverse()) codes.push('7');
  if (cell.isStrikethrough()) codes.push('9');
  if (!cell.isFgDefault()) codes.push(color(cell.isFgRGB() ? 'rgb' : 'p', cell.getFgColor(), 30));
  if (!cell.isBgDefault()) codes.push(color(cell.isBgRGB() ? 'rgb' : 'p', cell.getBgColor(), 40));
  return codes.join(';');
}
