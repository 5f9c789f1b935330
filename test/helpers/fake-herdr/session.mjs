// The fake herdr server's state (workspaces, tabs, panes, agents) and its socket methods.
// Every method follows herdr.md §1/§2 (see the section noted next to it).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { AGENT_KINDS, foregroundGroup } from './detect.mjs';
import { encodeKeys } from './keys.mjs';
import { cwdOf, MAX_READ_LINES, Pane } from './pane.mjs';

export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const STATUSES = ['idle', 'working', 'blocked', 'done', 'unknown'];
const SOURCES = ['visible', 'recent', 'recent_unwrapped', 'detection'];
const AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/; // herdr.md §1 "Start an agent"
const DEFAULT_READ_LINES = 80; // herdr.md §1 "Reading output": default 80 rows
const PROMPT_ENTER_DELAY_MS = 300; // herdr.md §1 `agent prompt`: Enter 300 ms after the text
const PROMPT_STALL_MS = 5000; // herdr.md §1 `agent prompt --wait`: a change within 5 s
/** Rollup for workspaces and tabs: the most urgent status of their panes (fake's choice). */
const URGENCY = ['blocked', 'done', 'working', 'idle', 'unknown'];

const paste = (pane, text) => (pane.bracketedPaste ? `\x1b[200~${text}\x1b[201~` : text);
const quote = (arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rollup(panes) {
  const statuses = new Set(panes.map((p) => p.status));
  return URGENCY.find((s) => statuses.has(s)) ?? 'unknown';
}

/** Drops undefined/empty optional fields (herdr.md §6.4: omit empty optionals, never null). */
function compact(obj) {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== false));
}

function want(cond, message) {
  if (!cond) throw new ApiError('invalid_request', message);
}

export class Session {
  constructor({ socket, bin, cwd, cols, rows }) {
    Object.assign(this, { socket, bin, cwd, cols, rows });
    this.workspaces = new Map(); // id → { id, number, label, nextTab, nextPane, activeTabId }
    this.tabs = new Map(); // id → { id, workspaceId, number, label }
    this.panes = new Map(); // id → Pane
    this.focusedPaneId = undefined;
    this.nextWorkspace = 1;
    this.nextTerminal = 0x1000;
    this.listeners = new Set(); // event subscribers: (event) => void
  }

  // --- records (herdr.md §1 "Listing") ---

  paneInfo(p) {
    const fg = p.foreground();
    return {
      pane_id: p.paneId,
      terminal_id: p.terminalId,
      workspace_id: p.workspaceId,
      tab_id: p.tabId,
      focused: p.paneId === this.focusedPaneId,
      agent_status: p.status,
      revision: p.revision,
      ...compact({
        cwd: p.cwd,
        foreground_cwd: fg === null ? undefined : cwdOf(fg.pid),
        agent: p.kind ?? undefined,
        title: p.title,
        terminal_title: p.title,
      }),
    };
  }

  agentInfo(p) {
    return {
      ...this.paneInfo(p),
      ...compact({ name: p.agentName, interactive_ready: p.kind !== null && p.interactiveReady, launch_pending: p.launchPending }),
      state_change_seq: p.stateChangeSeq,
    };
  }

  workspaceInfo(w) {
    const tabs = [...this.tabs.values()].filter((t) => t.workspaceId === w.id);
    const panes = [...this.panes.values()].filter((p) => p.workspaceId === w.id);
    return {
      workspace_id: w.id,
      number: [...this.workspaces.keys()].indexOf(w.id) + 1,
      label: w.label,
      focused: this.focused()?.workspaceId === w.id,
      pane_count: panes.length,
      tab_count: tabs.length,
      active_tab_id: w.activeTabId,
      agent_status: rollup(panes),
    };
  }

  tabInfo(t) {
    const panes = [...this.panes.values()].filter((p) => p.tabId === t.id);
    const siblings = [...this.tabs.values()].filter((x) => x.workspaceId === t.workspaceId);
    return {
      tab_id: t.id,
      workspace_id: t.workspaceId,
      number: siblings.indexOf(t) + 1,
      label: t.label,
      focused: this.focused()?.tabId === t.id,
      pane_count: panes.length,
      agent_status: rollup(panes),
    };
  }

  focused() {
    return this.focusedPaneId === undefined ? undefined : this.panes.get(this.focusedPaneId);
  }

  // --- lookups ---

  pane(id) {
    const p = typeof id === 'string' ? this.panes.get(id) : undefined;
    if (p === undefined) throw new ApiError('pane_not_found', `pane ${id} not found`);
    return p;
  }

  workspace(id) {
    const w = this.workspaces.get(id);
    if (w === undefined) throw new ApiError('workspace_not_found', `workspace ${id} not found`);
    return w;
  }

  /** An agent target: an agent name, else a pane ID. */
  target(target) {
    for (const p of this.panes.values()) if (p.agentName !== undefined && p.agentName === target) return p;
    const p = this.panes.get(target);
    if (p === undefined) throw new ApiError('agent_not_found', `agent ${target} not found`);
    return p;
  }

  running(target) {
    const p = this.target(target);
    if (p.kind === null) throw new ApiError('agent_not_running', `no agent is running in pane ${p.paneId}`);
    return p;
  }

  // --- lifecycle ---

  createWorkspace({ cwd, label, env, focus }) {
    const n = this.nextWorkspace++;
    const w = { id: `w${n}`, label: label || basename(cwd ?? this.cwd) || `${n}`, nextTab: 1, nextPane: 1, activeTabId: '' };
    this.workspaces.set(w.id, w);
    return { workspace: w, ...this.createTab(w, { cwd, label: undefined, env, focus }) };
  }

  createTab(w, { cwd, label, env, focus }) {
    const n = w.nextTab++;
    const tab = { id: `${w.id}:t${n}`, workspaceId: w.id, label: label || `${n}` };
    this.tabs.set(tab.id, tab);
    if (w.activeTabId === '') w.activeTabId = tab.id;
    const pane = this.spawn(tab, { cwd, env });
    if (focus || this.focusedPaneId === undefined) this.focus(pane);
    return { tab, pane };
  }

  /** A new pane running the shell (herdr.md §2 "Pane environment"). */
  spawn(tab, { cwd, env }) {
    const w = this.workspaces.get(tab.workspaceId);
    const paneId = `${w.id}:p${w.nextPane++}`; // herdr.md §1 "IDs": never reused
    if (cwd !== undefined) {
      let dir = false;
      try {
        dir = statSync(cwd).isDirectory();
      } catch {}
      want(dir, `cwd ${cwd} is not a directory`);
    }
    const pane = new Pane({
      paneId,
      terminalId: `term_${(this.nextTerminal++).toString(16)}`,
      workspaceId: w.id,
      tabId: tab.id,
      cwd: cwd ?? this.cwd,
      cols: this.cols,
      rows: this.rows,
      argv: [process.env.SHELL || '/bin/sh'],
      env: {
        ...process.env,
        TERM: 'xterm-256color',
        ...env,
        HERDR_ENV: '1',
        HERDR_PANE_ID: paneId,
        HERDR_TAB_ID: tab.id,
        HERDR_WORKSPACE_ID: w.id,
        HERDR_SOCKET_PATH: this.socket,
        HERDR_BIN_PATH: this.bin,
      },
    });
    this.panes.set(paneId, pane);
    let kind = null;
    pane.on('status', (status) => {
      if (pane.kind !== null && kind === null) this.emit('pane_agent_detected', { pane_id: paneId, agent: pane.kind });
      kind = pane.kind;
      this.emitScoped('pane.agent_status_changed', pane, status);
    });
    pane.on('exit', () => {
      if (!this.panes.has(paneId)) return;
      this.emit('pane_exited', { pane_id: paneId, workspace_id: w.id });
      this.remove(pane);
    });
    return pane;
  }

  focus(pane) {
    this.focusedPaneId = pane.paneId;
    this.workspaces.get(pane.workspaceId).activeTabId = pane.tabId;
    pane.markSeen(); // herdr.md §3: focusing is what marks `done` as seen
  }

  /** Removes a pane; an emptied tab and workspace go too (herdr.md §1 "Closing"). */
  remove(pane) {
    this.panes.delete(pane.paneId);
    pane.close();
    this.emit('pane_closed', { pane_id: pane.paneId, workspace_id: pane.workspaceId });
    const left = [...this.panes.values()];
    if (!left.some((p) => p.tabId === pane.tabId)) {
      this.tabs.delete(pane.tabId);
      const w = this.workspaces.get(pane.workspaceId);
      const tabs = [...this.tabs.values()].filter((t) => t.workspaceId === w.id);
      if (tabs.length === 0) this.workspaces.delete(w.id);
      else if (w.activeTabId === pane.tabId) w.activeTabId = tabs[0].id;
    }
    if (this.focusedPaneId === pane.paneId) {
      const next = left.find((p) => p.tabId === pane.tabId) ?? left.find((p) => p.workspaceId === pane.workspaceId) ?? left[0];
      this.focusedPaneId = undefined;
      if (next !== undefined) this.focus(next);
    }
  }

  shutdown() {
    for (const p of this.panes.values()) p.close();
    this.panes.clear();
  }

  // --- events (herdr.md §2 "Events") ---

  emit(type, data) {
    for (const l of this.listeners) l({ event: type, data: { type, ...data } });
  }

  emitScoped(event, pane, status) {
    const data = { pane_id: pane.paneId, agent_status: status, ...compact({ agent: pane.kind ?? undefined }) };
    for (const l of this.listeners) l({ event, data });
  }

  // --- waiting ---

  /** Resolves with `check()`'s first non-undefined value, re-checked on pane events and every 50 ms. */
  until(pane, check, { timeoutMs, signal, timeoutError }) {
    return new Promise((resolve, reject) => {
      const timers = [];
      let over = false;
      const done = (fn, value) => {
        if (over) return;
        over = true;
        pane.off('status', test);
        pane.off('output', test);
        pane.off('exit', gone);
        signal?.removeEventListener('abort', aborted);
        for (const t of timers) {
          clearTimeout(t);
          clearInterval(t);
        }
        fn(value);
      };
      const test = () => {
        if (over) return;
        if (!this.panes.has(pane.paneId)) return done(reject, new ApiError('pane_not_found', `pane ${pane.paneId} not found`));
        try {
          const value = check();
          if (value !== undefined) done(resolve, value);
        } catch (error) {
          done(reject, error);
        }
      };
      const gone = () => setImmediate(test); // a closed pane ends the wait with pane_not_found
      const aborted = () => done(reject, new ApiError('cancelled', 'client went away'));
      pane.on('status', test);
      pane.on('output', test);
      pane.on('exit', gone);
      signal?.addEventListener('abort', aborted);
      timers.push(setInterval(test, 50));
      if (timeoutMs !== undefined) timers.push(setTimeout(() => done(reject, timeoutError), timeoutMs));
      test();
    });
  }

  statuses(until) {
    if (until === undefined || (Array.isArray(until) && until.length === 0)) return ['idle', 'done', 'blocked'];
    want(Array.isArray(until) && until.every((s) => STATUSES.includes(s)), `until must be a list of ${STATUSES.join('|')}`);
    return until;
  }

  /** herdr.md §1 "Waiting": returns at once when the status already matches. */
  waitStatus(pane, until, timeoutMs, signal) {
    return this.until(pane, () => (until.includes(pane.status) ? pane : undefined), {
      timeoutMs,
      signal,
      timeoutError: new ApiError('timeout', 'timed out waiting for agent status'),
    });
  }

  readParams(params) {
    const source = params.source ?? 'recent';
    want(SOURCES.includes(source), `source must be one of ${SOURCES.join('|')}`);
    const lines = params.lines ?? DEFAULT_READ_LINES;
    want(Number.isInteger(lines) && lines >= 0, 'lines must be a non-negative integer');
    const format = params.format ?? 'text';
    want(format === 'text' || format === 'ansi', 'format must be text or ansi');
    return { source, lines: Math.min(lines, MAX_READ_LINES), format };
  }

  async read(pane, params) {
    const { source, lines, format } = this.readParams(params);
    await pane.settled();
    const { text, truncated } = pane.read(source, lines, format === 'ansi');
    return {
      pane_id: pane.paneId,
      workspace_id: pane.workspaceId,
      tab_id: pane.tabId,
      source,
      format,
      text,
      revision: pane.revision,
      truncated,
    };
  }

  timeout(ms) {
    want(ms === undefined || (Number.isInteger(ms) && ms >= 0), 'timeout_ms must be a non-negative integer');
    return ms;
  }
}

/** Socket methods: (session, params, signal) → result. herdr.md §2 "Relevant methods". */
export const METHODS = {
  'workspace.list': (s) => ({ type: 'workspace_list', workspaces: [...s.workspaces.values()].map((w) => s.workspaceInfo(w)) }),
  'workspace.create': (s, p) => {
    const { workspace, tab, pane } = s.createWorkspace({ cwd: p.cwd, label: p.label, env: envOf(p.env), focus: p.focus === true });
    return { type: 'workspace_created', workspace: s.workspaceInfo(workspace), tab: s.tabInfo(tab), root_pane: s.paneInfo(pane) };
  },
  'tab.list': (s, p) => {
    if (p.workspace_id !== undefined) s.workspace(p.workspace_id);
    const tabs = [...s.tabs.values()].filter((t) => p.workspace_id === undefined || t.workspaceId === p.workspace_id);
    return { type: 'tab_list', tabs: tabs.map((t) => s.tabInfo(t)) };
  },
  'tab.create': (s, p) => {
    const w = s.workspace(p.workspace_id ?? s.focused()?.workspaceId ?? [...s.workspaces.keys()][0]);
    const { tab, pane } = s.createTab(w, { cwd: p.cwd, label: p.label, env: envOf(p.env), focus: p.focus === true });
    return { type: 'tab_created', tab: s.tabInfo(tab), root_pane: s.paneInfo(pane) };
  },
  'pane.list': (s, p) => {
    if (p.workspace_id !== undefined) s.workspace(p.workspace_id);
    const panes = [...s.panes.values()].filter((x) => p.workspace_id === undefined || x.workspaceId === p.workspace_id);
    return { type: 'pane_list', panes: panes.map((x) => s.paneInfo(x)) };
  },
  'pane.get': (s, p) => ({ type: 'pane_info', pane: s.paneInfo(s.pane(p.pane_id)) }),
  'pane.split': (s, p) => {
    // herdr.md §1 "Split": no target = the UI-focused pane; focus unchanged unless asked.
    want(p.direction === 'right' || p.direction === 'down', 'direction must be right or down');
    want(p.ratio === undefined || (typeof p.ratio === 'number' && p.ratio > 0 && p.ratio < 1), 'ratio must be between 0 and 1');
    const target = s.pane(p.target_pane_id ?? s.focusedPaneId);
    const pane = s.spawn(s.tabs.get(target.tabId), { cwd: p.cwd ?? target.cwd, env: envOf(p.env) });
    if (p.focus === true) s.focus(pane);
    return { type: 'pane_info', pane: s.paneInfo(pane) };
  },
  'pane.close': (s, p) => {
    s.remove(s.pane(p.pane_id));
    return { type: 'ok' };
  },
  'pane.focus': (s, p) => {
    const pane = s.pane(p.pane_id);
    s.focus(pane);
    return { type: 'pane_info', pane: s.paneInfo(pane) };
  },
  'pane.process_info': (s, p) => {
    const pane = s.pane(p.pane_id);
    return { type: 'pane_process_info', pane_id: pane.paneId, foreground_processes: foregroundGroup(pane.pid) };
  },
  'pane.read': async (s, p) => ({ type: 'pane_read', read: await s.read(s.pane(p.pane_id), p) }),
  // herdr.md §1 "Sending text and keys": raw bytes, no paste wrapping, no Enter.
  'pane.send_text': (s, p) => {
    const pane = s.pane(p.pane_id);
    want(typeof p.text === 'string', 'text must be a string');
    pane.write(p.text);
    return { type: 'ok' };
  },
  'pane.send_keys': (s, p) => {
    const pane = s.pane(p.pane_id);
    pane.write(keyBytes(pane, p.keys));
    return { type: 'ok' };
  },
  // herdr.md §1 `pane run`: text paste-wrapped if the app enabled it, keys in the same write.
  'pane.send_input': (s, p) => {
    const pane = s.pane(p.pane_id);
    want(p.text === undefined || typeof p.text === 'string', 'text must be a string');
    const keys = keyBytes(pane, p.keys ?? []);
    pane.write((p.text ? paste(pane, p.text) : '') + keys);
    return { type: 'ok' };
  },
  'pane.wait_for_output': async (s, p, signal) => {
    const pane = s.pane(p.pane_id);
    const { source, lines } = s.readParams({ ...p, lines: p.lines ?? MAX_READ_LINES });
    const match = p.match ?? {};
    want(match.type === 'substring' || match.type === 'regex', 'match.type must be substring or regex');
    want(typeof match.value === 'string', 'match.value must be a string');
    let test = (line) => line.includes(match.value);
    if (match.type === 'regex') {
      let re;
      try {
        re = new RegExp(match.value);
      } catch (error) {
        throw new ApiError('invalid_regex', `invalid regex: ${error.message}`);
      }
      test = (line) => re.test(line);
    }
    const matched = await s.until(pane, () => pane.read(source, lines, false).text.split('\n').findLast(test), {
      timeoutMs: s.timeout(p.timeout_ms),
      signal,
      timeoutError: new ApiError('timeout', 'timed out waiting for output'),
    });
    return {
      type: 'output_matched',
      pane_id: pane.paneId,
      revision: pane.revision,
      matched_line: matched,
      read: await s.read(pane, { source, lines }),
    };
  },
  'agent.list': (s) => ({
    type: 'agent_list',
    agents: [...s.panes.values()].filter((p) => p.kind !== null || p.launchPending).map((p) => s.agentInfo(p)),
  }),
  'agent.get': (s, p) => ({ type: 'agent_info', agent: s.agentInfo(s.running(p.target)) }),
  'agent.focus': (s, p) => {
    const pane = s.running(p.target);
    s.focus(pane);
    return { type: 'agent_info', agent: s.agentInfo(pane) };
  },
  'agent.read': async (s, p) => ({ type: 'pane_read', read: await s.read(s.running(p.target), p) }),
  'agent.start': async (s, p, signal) => {
    // herdr.md §1 "Start an agent".
    want(typeof p.name === 'string' && AGENT_NAME.test(p.name), 'agent name must match [a-z][a-z0-9_-]{0,31}');
    want(AGENT_KINDS.includes(p.kind), `kind must be one of ${AGENT_KINDS.join('|')}`);
    const args = p.args ?? [];
    want(Array.isArray(args) && args.every((a) => typeof a === 'string'), 'args must be a list of strings');
    const timeoutMs = p.timeout_ms ?? 30_000;
    want(Number.isInteger(timeoutMs) && timeoutMs > 3000 && timeoutMs <= 300_000, 'timeout_ms must be in (3000, 300000]');
    const pane = s.pane(p.pane_id);
    for (const other of s.panes.values())
      if (other !== pane && other.agentName === p.name && (other.kind !== null || other.launchPending))
        throw new ApiError('agent_name_taken', `agent name ${p.name} is taken`);
    if (pane.kind !== null || pane.launchPending || pane.foreground() !== null)
      throw new ApiError('agent_pane_unavailable', `pane ${pane.paneId} is not at an idle shell prompt`);
    const argv = [p.kind, ...args];
    pane.agentName = p.name;
    pane.launchPending = true;
    pane.write(`${argv.map(quote).join(' ')}\r`);
    let launched = false;
    try {
      await s.until(
        pane,
        () => {
          const fg = pane.foreground();
          if (fg !== null) launched = true;
          else if (launched) throw new ApiError('agent_start_failed', `${p.kind} exited before it was ready`);
          return pane.kind !== null && pane.interactiveReady ? pane : undefined;
        },
        { timeoutMs, signal, timeoutError: new ApiError('agent_start_failed', `${p.kind} was not ready within ${timeoutMs} ms`) },
      );
    } finally {
      pane.launchPending = false;
    }
    return { type: 'agent_started', agent: s.agentInfo(pane), argv };
  },
  'agent.prompt': async (s, p, signal) => {
    // herdr.md §1 `agent prompt`: paste-wrapped text, Enter 300 ms later.
    const pane = s.target(p.target);
    if (pane.kind === null) throw new ApiError('agent_not_ready', `agent ${p.target} is not ready`);
    if (typeof p.text !== 'string' || p.text.trim() === '') throw new ApiError('empty_agent_prompt', 'prompt text is empty');
    const wait = p.wait;
    const until = wait ? s.statuses(wait.until) : undefined;
    const timeoutMs = wait ? s.timeout(wait.timeout_ms) : undefined;
    const wasWorking = pane.status === 'working';
    const seq = pane.stateChangeSeq;
    pane.write(paste(pane, p.text));
    await sleep(PROMPT_ENTER_DELAY_MS);
    pane.write('\r');
    if (wait) {
      if (!wasWorking)
        await s.until(pane, () => (pane.stateChangeSeq > seq ? true : undefined), {
          timeoutMs: PROMPT_STALL_MS,
          signal,
          timeoutError: new ApiError('agent_prompt_stalled', 'agent state did not change within 5000 ms'),
        });
      await s.waitStatus(pane, until, timeoutMs, signal);
    }
    return { type: 'agent_prompted', agent: s.agentInfo(pane) };
  },
  'agent.wait': async (s, p, signal) => {
    const pane = s.target(p.target);
    await s.waitStatus(pane, s.statuses(p.until), s.timeout(p.timeout_ms), signal);
    return { type: 'agent_info', agent: s.agentInfo(pane) };
  },
  'session.snapshot': (s) => ({
    type: 'session_snapshot',
    workspaces: METHODS['workspace.list'](s).workspaces,
    tabs: METHODS['tab.list'](s, {}).tabs,
    panes: METHODS['pane.list'](s, {}).panes,
    layouts: [], // the fake keeps no pane geometry
    agents: METHODS['agent.list'](s).agents,
    ...compact({
      focused_workspace_id: s.focused()?.workspaceId,
      focused_tab_id: s.focused()?.tabId,
      focused_pane_id: s.focusedPaneId,
    }),
  }),
};

function keyBytes(pane, keys) {
  want(Array.isArray(keys), 'keys must be a list');
  const { bytes, bad } = encodeKeys(keys, pane.appCursor);
  if (bad !== undefined) throw new ApiError('invalid_key', `invalid key: ${bad}`);
  return bytes;
}

/** `env` as `{K: V}` or `["K=V", …]`. */
function envOf(env) {
  if (env === undefined) return {};
  if (Array.isArray(env)) {
    const out = {};
    for (const kv of env) {
      const i = String(kv).indexOf('=');
      want(i > 0, `env entry ${kv} is not K=V`);
      out[kv.slice(0, i)] = kv.slice(i + 1);
    }
    return out;
  }
  want(typeof env === 'object' && env !== null, 'env must be an object');
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}
