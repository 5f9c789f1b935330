import type { Options } from '../app/config/options.js';
import { guardProcess } from '../app/faults/fault.js';
import { livesOn } from '../app/run/leftovers.js';
import { agentPanes, openRun } from '../app/run/setup.js';
import { untestedNote } from '../app/config/versions.js';
import { Attention } from '../app/run/attention.js';
import { DEMO_GOAL } from '../app/config/options.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { splitCommand } from '../app/config/command.js';
import { basename, join, resolve } from 'node:path';
import { editLine, emptyLine, readPromptLine } from './line-editor.js';
import { splitKeys } from '../pty/keys.js';
import { peerOf, ROLES, type Role } from '../protocol/index.js';
import Chrome from './components/Chrome.js';
import Help from './components/Help.js';
import { chromeLines, paneFrame } from './frame.js';
import { prefixName } from '../app/config/prefix.js';
import { KeyRouter, type Command } from './keys.js';
import { layout, type Layout } from './layout.js';
import { OffscreenInk } from './offscreen.js';
import { PanePainter } from './painter.js';
import { Store, type ToastLevel, type TuiState } from './store.js';
import { faultWatcher, toastFor, toastOverlay, toastRect } from './toasts.js';
import { RealTerminal, type TerminalIo } from './terminal.js';

const CHROME_ROWS = 2;
const TOAST_MS = 5000;

/** `relevo-tui` without `--headless`: both agents live on one screen, relevo's state always visible. */
export async function runTui(options: Options, version: string, env: NodeJS.ProcessEnv, io: TerminalIo): Promise<number> {
  const resuming = options.resume !== false;
  const goal = resuming ? null : (options.goal ?? (options.demo ? DEMO_GOAL : null));
  const term = new RealTerminal(io);
  const prefix = options.prefix;
  const cwd = process.cwd();
  let view: Layout = layout(term.cols, term.rows, CHROME_ROWS, 'planner', false);
  const firstInner = view.panes.planner?.inner ?? { width: options.cols, height: options.rows };
  const { runner, journal, dir, unlock, tmuxSocket } = await openRun(options, version, env, { cols: firstInner.width, rows: firstInner.height });
  const agents = runner.agents;

  // The band names each agent; one outside its profile's tested range says so (`codex 0.180.0?`).
  const name = (role: Role) => {
    const cli = runner.spec(role).cli;
    const untested = untestedNote(role, runner.spec(role)) !== null;
    return `${agents[role].profile.data.id}${untested ? ` ${cli?.status === 'found' ? cli.version : 'version'}?` : ''}`;
  };
  const store = new Store({
    relay: runner.state,
    agents: { planner: { name: name('planner'), state: 'unknown' }, builder: { name: name('builder'), state: 'unknown' } },
    focus: 'planner',
    memory: runner.memoryBlocked ? 'memory: blocked' : null,
    zoom: false,
    toasts: [],
    overlay: 'none',
    prompt: goal === null && !resuming ? emptyLine : null,
    promptError: null,
    scroll: null,
    armed: false,
    confirmQuit: false,
    prefix: prefixName(prefix),
  });

  term.enter();
  const cursor = () => painters[store.state.focus]?.cursorSequence(store.state.overlay === 'none') ?? '';
  /** The toast stack over the panes' corner, drawn after every pane frame so it stays on top. */
  const toasts = () => {
    const s = store.state;
    if (s.overlay !== 'none' || s.toasts.length === 0) return '';
    const box = view.panes[s.focus];
    const c = box ? runner.agents[s.focus].pane.screen.cursor() : null;
    const at = box && c ? { row: box.inner.top + c.row, col: box.inner.left + c.col } : null;
    return toastOverlay(s.toasts, toastRect(s.toasts.length, term.cols, view.chrome.top, at));
  };
  /** While an editor has the terminal, relevo paints nothing. */
  let suspended = false;
  const sink = { write: (s: string) => (suspended ? undefined : term.write(s + cursor())) };
  // Panes are not painted under an overlay; closing it repaints them whole.
  const paneSink = { write: (s: string) => (store.state.overlay === 'none' && !suspended ? term.write(s) : undefined) };
  const painters: Partial<Record<Role, PanePainter>> = {};
  /** The pane titles as last painted, to repaint the frames only when one changes. */
  let framesTitle = '';
  let shownToasts = 0;
  const chrome = new OffscreenInk(<Chrome state={store.state} width={view.chrome.width} />, view.chrome.width);
  const helpWidth = () => Math.min(90, term.cols);
  const help = new OffscreenInk(<Help prefix={store.state.prefix} />, helpWidth());
  const paintChrome = () => sink.write(chromeLines(view.chrome, chrome.lines));
  chrome.onFrame(() => paintChrome());

  const stateName = { busy: 'working', idle: 'idle', blocked: 'blocked', exited: 'exited', unknown: 'starting' } as const;
  const title = (role: Role, s: TuiState) => `${role} · ${s.agents[role].name} · ${stateName[s.agents[role].state]}${s.focus === role ? ' · focus' : ''}`;
  const paintFrames = () => {
    framesTitle = ROLES.map((r) => title(r, store.state)).join('|');
    for (const role of ROLES) {
      const box = view.panes[role];
      if (box && !suspended) term.write(paneFrame(box.frame, title(role, store.state), store.state.focus === role));
    }
  };
  const paintHelp = () => {
    const width = helpWidth();
    const top = Math.max(0, Math.floor((view.chrome.top - help.lines.length) / 2));
    const left = Math.max(0, Math.floor((term.cols - width) / 2));
    sink.write(chromeLines({ top, left, width, height: help.lines.length }, help.lines));
  };

  /** Lays everything out again: the PTYs follow their boxes, and the whole screen is repainted. */
  const relayout = () => {
    view = layout(term.cols, term.rows, CHROME_ROWS, store.state.focus, store.state.zoom);
    if (!suspended) term.write('\x1b[0m\x1b[2J');
    for (const role of ROLES) {
      const box = view.panes[role];
      const agent = runner.agents[role];
      if (!box) {
        painters[role]?.dispose();
        delete painters[role];
        continue;
      }
      agent.pane.resize(box.inner.width, box.inner.height);
      if (painters[role]) painters[role].resize(box.inner);
      // The focused pane's cursor goes inside each frame's synchronized-output bracket.
      else painters[role] = new PanePainter(paneSink, agent.pane.screen, box.inner, { trailer: () => toasts() + cursor() });
      painters[role].invalidate();
    }
    paintFrames();
    chrome.resize(view.chrome.width);
    paintChrome();
    if (store.state.overlay === 'help') paintHelp();
  };

  // Views follow the store.
  store.onChange((s) => {
    chrome.rerender(<Chrome state={s} width={view.chrome.width} />);
    if (s.toasts.length < shownToasts) for (const role of ROLES) painters[role]?.invalidate();
    else if (s.toasts.length > shownToasts) sink.write(toasts());
    shownToasts = s.toasts.length;
    const titles = ROLES.map((r) => title(r, s)).join('|');
    if (titles !== framesTitle && s.overlay === 'none') {
      framesTitle = titles;
      paintFrames();
    }
  });
  // A fault's pause is shown from the state: it may not be in the journal (which could not be written).
  const faults = faultWatcher(store.state.prefix, (text) => (toast(text, 'error'), term.notify(`relevo: ${text}`)));
  runner.onChange((relay) => (store.update({ relay }), faults(relay.pause)));
  const attention = new Attention(runner, journal, options.stallAfterMs);
  attention.onChange((notes) => store.update({ notes }));
  for (const role of ROLES) {
    const agent = runner.agents[role];
    agent.onState((state) => store.update((s) => ({ agents: { ...s.agents, [role]: { ...s.agents[role], state } } })));
    agent.pane.onUpdate(() => painters[role]?.schedule());
  }
  let toastId = 0;
  journal.onAppend((line) => {
    const toast = toastFor(line);
    if (!toast) return;
    const id = ++toastId;
    store.update((s) => ({ toasts: [...s.toasts.slice(-4), { id, text: toast.text, level: toast.level }] }));
    setTimeout(() => store.update((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), TOAST_MS).unref();
    if (toast.notify) term.notify(`relevo: ${toast.text}`);
  });

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolveExit) => (finish = resolveExit));

  const toast = (text: string, level: ToastLevel = 'info') => {
    const id = ++toastId;
    store.update((s) => ({ toasts: [...s.toasts.slice(-4), { id, text, level }] }));
    setTimeout(() => store.update((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })), TOAST_MS).unref();
  };

  // Shown once, at start: an agent CLI outside its tested range (the journal has it too).
  for (const role of ROLES) {
    const note = untestedNote(role, runner.spec(role));
    if (note !== null) toast(`untested: ${note}`, 'warn');
  }

  const run = (command: Command) => {
    switch (command) {
      case 'focus':
        store.update((s) => ({ focus: peerOf(s.focus), scroll: null }));
        if (store.state.zoom || view.arrangement === 'zoomed') relayout();
        else sink.write('');
        return;
      case 'zoom':
        store.update((s) => ({ zoom: !s.zoom }));
        relayout();
        return;
      case 'pause':
        runner.dispatch({ type: 'pause' });
        return;
      case 'resume':
        if (runner.state.phase !== 'paused') toast('the relay is not paused');
        runner.dispatch({ type: 'resume' });
        return;
      case 'help':
        store.update({ overlay: 'help' });
        paintHelp();
        return;
      case 'quit': {
        const active = runner.state.phase === 'running' || runner.state.phase === 'ready';
        if (active && !store.state.confirmQuit) {
          store.update({ confirmQuit: true });
          return;
        }
        // A run left mid-way is journaled as paused by the user, so nothing is lost.
        if (active) runner.dispatch({ type: 'pause' });
        finish(runner.state.phase === 'done' ? 0 : 3);
        return;
      }
      case 'scroll':
        store.update({ scroll: runner.agents[store.state.focus].pane.screen.scrolledBack });
        return;
      case 'goal':
        store.update({ prompt: emptyLine });
        return;
      case 'step': {
        const on = !runner.state.step;
        runner.dispatch({ type: 'set-step', on });
        toast(on ? `step mode on: relevo pauses before each relay; ${store.state.prefix} r sends, ${store.state.prefix} e edits first` : 'step mode off');
        return;
      }
      case 'pending':
        editPending().catch(runner.fault);
        return;
    }
  };

  /** Scroll mode keys: arrows and pages move the focused pane's view; Esc or q go back to the live screen. */
  const scrollKey = (data: string) => {
    const role = store.state.focus;
    const screen = runner.agents[role].pane.screen;
    const page = Math.max(1, (view.panes[role]?.inner.height ?? 2) - 1);
    const moves: Record<string, number> = { '\x1b[A': -1, '\x1b[B': 1, '\x1bOA': -1, '\x1bOB': 1, '\x1b[5~': -page, '\x1b[6~': page, k: -1, j: 1 };
    for (const key of data.match(/\x1b\[[0-9;]*[~A-Za-z]|\x1bO[A-Z]|\x1b|[^\x1b]/g) ?? []) {
      if (key === '\x1b' || key === 'q') {
        screen.scrollViewToBottom();
        store.update({ scroll: null });
        break;
      }
      const move = moves[key];
      if (move !== undefined) screen.scrollView(move);
    }
    if (store.state.scroll !== null) store.update({ scroll: screen.scrolledBack });
    painters[role]?.schedule();
  };

  /** Keys go to the focused agent; a whole paste (KeyRouter keeps it until it ends) goes bracketed only to an agent that asked for it (its pane knows). */
  const forward = (data: string) => runner.agents[store.state.focus].type(data.replace(/\x1b\[20[01]~/g, ''));

  /**
   * The pending handoff in the person's editor ($VISUAL, $EDITOR, else vi), the TUI suspended
   * meanwhile; what they save replaces it (the header stays relevo's). Only while paused.
   */
  const editPending = async () => {
    const pending = runner.state.pending;
    if (pending === null || runner.state.phase !== 'paused' || runner.state.delivering) {
      toast('nothing to edit: a pending handoff can be edited while the relay is paused (step mode pauses before each one)', 'warn');
      return;
    }
    let editor: string[];
    try {
      editor = splitCommand(env.VISUAL || env.EDITOR || 'vi', 'EDITOR');
    } catch (error) {
      toast(`cannot run the editor: ${(error as Error).message}`, 'error');
      return;
    }
    const file = join(dir, `pending-round-${pending.round}-to-${pending.to}.md`);
    try {
      writeFileSync(file, `${pending.body}\n`);
    } catch (error) {
      toast(`cannot write the handoff for the editor: ${(error as Error).message.split('\n')[0]}`, 'error');
      return;
    }
    suspended = true;
    io.stdin.off('data', onData);
    term.leave();
    const result = await execa(editor[0]!, [...editor.slice(1), file], { stdio: 'inherit', reject: false });
    term.enter();
    io.stdin.on('data', onData);
    suspended = false;
    relayout();
    if (result.failed) {
      toast(`the editor failed (${(result.shortMessage ?? 'failed').split('\n')[0]}): the handoff is unchanged`, 'error');
      return;
    }
    const before = runner.state.pending?.body;
    await runner.editPending(readFileSync(file, 'utf8'));
    toast(runner.state.pending?.body !== before ? `round ${pending.round} for the ${pending.to} edited; ${store.state.prefix} r sends it` : 'the pending handoff is unchanged');
  };

  // The goal prompt: a goal, or the seed's /relevo goal|pause|resume, with a history kept in the state dir.
  const historyFile = join(resolve(cwd, options.stateDir), 'goal-history.json');
  let history: string[] = [];
  try {
    history = (JSON.parse(readFileSync(historyFile, 'utf8')) as unknown[]).filter((g): g is string => typeof g === 'string');
  } catch {
    /* no history yet */
  }
  const submitGoal = (text: string) => {
    const command = readPromptLine(text);
    if (command.type === 'error') return store.update({ promptError: command.message });
    store.update({ prompt: null });
    if (command.type === 'pause') return runner.dispatch({ type: 'pause' });
    if (command.type === 'resume') return runner.dispatch({ type: 'resume' });
    if (runner.state.phase !== 'ready') return toast(`this run already has its goal: ${runner.state.goal ?? ''}`, 'warn');
    history = [...history.filter((g) => g !== command.goal), command.goal].slice(-100);
    try {
      writeFileSync(historyFile, JSON.stringify(history, null, 1));
    } catch {
      /* the history is a convenience */
    }
    runner.start(command.goal);
  };
  const promptKeys = (data: string) => {
    for (const key of splitKeys(data)) {
      const line = store.state.prompt;
      if (line === null) return;
      const result = editLine(line, key, history);
      if (store.state.promptError !== null) store.update({ promptError: null });
      if ('submit' in result) submitGoal(result.submit);
      else if ('cancel' in result) {
        store.update({ prompt: null });
        if (runner.state.phase === 'ready') toast(`no goal yet: ${store.state.prefix} g opens the goal prompt`, 'warn');
      } else store.update({ prompt: result.state });
    }
  };

  const keys = new KeyRouter(prefix);
  const onData = (data: string) => {
    if (store.state.overlay === 'help') {
      store.update({ overlay: 'none' });
      relayout();
      return;
    }
    if (store.state.scroll !== null) {
      scrollKey(data);
      return;
    }
    if (store.state.prompt !== null) {
      promptKeys(data);
      return;
    }
    for (const action of keys.feed(data)) {
      if (store.state.confirmQuit && !(action.type === 'command' && action.command === 'quit')) store.update({ confirmQuit: false });
      if (action.type === 'forward') forward(action.data);
      else if (action.type === 'paste') runner.agents[store.state.focus].typePaste(action.text);
      else if (action.type === 'command') run(action.command);
      else toast(`${store.state.prefix} ${JSON.stringify(action.key)} is not bound: ${store.state.prefix} ? lists the keys`, 'warn');
    }
    if (keys.armed !== store.state.armed) store.update({ armed: keys.armed });
  };
  io.stdin.on('data', onData);
  const onResize = () => relayout();
  io.stdout.on('resize', onResize);
  // A signal, or a terminal that went away (writes fail), pauses the relay and ends the agents.
  // Once: a write to a terminal that is gone fails again on each repaint the pause causes.
  let ended = false;
  const onSignal = (signal: string) => {
    if (ended) return;
    ended = true;
    runner.dispatch({ type: 'pause', detail: signal });
    finish(runner.state.phase === 'done' ? 0 : 3);
  };
  const onWriteError = (error: NodeJS.ErrnoException) => onSignal(`terminal gone (${error.code ?? error.message})`);
  io.stdout.on('error', onWriteError);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const unguard = guardProcess(runner.fault);
  const restore = () => term.leave();
  process.once('exit', restore);

  relayout();
  if (resuming) runner.resumeRun();
  else if (goal !== null) runner.start(goal);
  const code = await finished;
  ended = true;

  io.stdin.off('data', onData);
  io.stdout.off('resize', onResize);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  for (const role of ROLES) painters[role]?.dispose();
  chrome.dispose();
  help.dispose();
  attention.dispose();
  await runner.stop();
  unguard();
  journal.close();
  unlock();
  store.dispose();
  term.leave();
  process.off('exit', restore);
  const resume = `${runner.state.phase === 'done' ? '' : `; go on with: relevo-tui --resume ${basename(dir)}`}${livesOn(agentPanes(runner), tmuxSocket)}`;
  io.stdout.write(`relevo-tui: ${runner.state.phase === 'done' ? `done: ${runner.state.summary ?? ''}` : `stopped (${runner.state.phase}${runner.state.pause ? `: ${runner.state.pause.reason}` : ''})`} — journal: ${journal.path}${resume}\n`);
  return code;
}
