// Agent detection for the fake herdr: which agent runs in a pane (the PTY's foreground process)
// and what state its screen shows. Written from herdr.md §3; not herdr's manifests or engine.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/** herdr.md §3 "Which agent is running": argv0 / process name → agent kind. */
const ALIASES = new Map([
  ['claude', 'claude'],
  ['claude-code', 'claude'],
  ['codex', 'codex'],
]);
export const AGENT_KINDS = ['claude', 'codex'];

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** `/proc/<pid>/stat` fields after `(comm)`: state ppid pgrp session tty_nr tpgid … */
function statFields(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const close = stat.lastIndexOf(')');
  return { comm: stat.slice(stat.indexOf('(') + 1, close), rest: stat.slice(close + 2).split(' ') };
}

/**
 * The foreground process group leader of the terminal whose session leader is `shellPid`
 * (tpgid of the shell's controlling terminal), or null when the shell itself is in front.
 */
export function foregroundProcess(shellPid) {
  const stat = statFields(shellPid);
  if (stat === null) return null;
  const tpgid = Number(stat.rest[5]);
  if (!Number.isInteger(tpgid) || tpgid <= 0 || tpgid === shellPid) return null;
  const leader = statFields(tpgid);
  if (leader === null) return null;
  const argv = argvOf(tpgid);
  const environ = (read(`/proc/${tpgid}/environ`) ?? '').split('\0');
  const forced = environ.find((kv) => kv.startsWith('HERDR_AGENT='))?.slice('HERDR_AGENT='.length);
  return { pid: tpgid, name: leader.comm, argv, forced: forced || undefined };
}

function argvOf(pid) {
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0');
  if (argv.at(-1) === '') argv.pop();
  return argv;
}

/** herdr.md §1 `pane process-info`: every process of the PTY's foreground process group. */
export function foregroundGroup(shellPid) {
  const tpgid = Number(statFields(shellPid)?.rest[5]);
  if (!Number.isInteger(tpgid) || tpgid <= 0) return [];
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statFields(entry);
    if (stat === null || Number(stat.rest[2]) !== tpgid) continue;
    const argv = argvOf(entry);
    let cwd;
    try {
      cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {}
    out.push({ pid: Number(entry), name: stat.comm, argv, cmdline: argv.join(' '), ...(cwd ? { cwd } : {}) });
  }
  return out.sort((a, b) => a.pid - b.pid);
}

/**
 * The agent kind of a foreground process, or null.
 * - herdr.md §3: argv0 basename or process name through the alias table; `HERDR_AGENT` forces it.
 * - FAKE EXTENSION: an argv containing `sim-agent` (relevo-tui's simulator, which draws Claude
 *   Code's screen) counts as `claude`.
 */
export function agentKind(proc) {
  if (proc === null) return null;
  if (proc.forced !== undefined) return proc.forced;
  const argv0 = basename(proc.argv[0] ?? '');
  const kind = ALIASES.get(argv0) ?? ALIASES.get(proc.name);
  if (kind !== undefined) return kind;
  return proc.argv.includes('sim-agent') ? 'claude' : null;
}

const lower = (s) => s.toLowerCase();
const RULE_LINE = /^\s*─{8,}\s*$/;

/** Lines after the last line matching `re` (all lines when none matches). */
function after(lines, re) {
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i])) return lines.slice(i + 1);
  return lines;
}

/** herdr.md §3 "Claude Code patterns"; priority blocked > working > idle. */
function claudeState(lines, title, progress) {
  const all = lower(lines.join('\n'));
  const tail = lower(after(lines, RULE_LINE).join('\n'));
  const arrowHint = /↑|↓|arrow/.test(tail);
  const optionYes = lines.some((l) => /^\s*(❯\s*)?1\.\s*yes/i.test(l));
  const optionNo = lines.some((l) => /^\s*(❯\s*)?\d\.\s*no/i.test(l));
  if (
    (tail.includes('esc to cancel') && (tail.includes('enter to confirm') || (tail.includes('enter to select') && arrowHint))) ||
    (all.includes('do you want to proceed?') && optionYes && optionNo) ||
    all.includes('run a dynamic workflow?')
  )
    return 'blocked';
  if (/^[\u2800-\u28ff] /.test(title) || (all.includes('/btw') && all.includes('esc to close'))) return 'working';
  const menuHints = all.includes('enter to select') || all.includes('esc to cancel') || all.includes('to navigate');
  if (/^✳ /.test(title) || progress === '4;0' || (!menuHints && lines.some((l) => /^\s*❯/.test(l)))) return 'idle';
  return null;
}

const CODEX_SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

/** herdr.md §3 "Codex patterns"; strong blocked > working > weak blocked > idle. */
function codexState(lines, title) {
  const tail = lower(after(lines, /^\s*›/).join('\n'));
  if (
    title.includes('Action Required') ||
    ['press enter to confirm or esc to cancel', 'enter to submit answer', 'enter to submit all', 'allow command?'].some((s) =>
      tail.includes(s),
    )
  )
    return 'blocked';
  const bottom = lines.filter((l) => l.trim() !== '').slice(-3);
  if (CODEX_SPINNER.test(title) || bottom.some((l) => /^[•◦]\s+Working \([^)]*esc to interrupt\)/.test(l))) return 'working';
  if (tail.includes('[y/n]') || tail.includes('yes (y)')) return 'blocked';
  if (title !== '' && !CODEX_SPINNER.test(title)) return 'idle';
  return null;
}

/**
 * Screen state of a known agent: `{ state: working|blocked|idle, matched }`. With no matching
 * rule it is `idle` (herdr.md §3 `default_known_agent_idle_fallback`) and `matched` is false.
 * `lines` is the detection snapshot.
 */
export function screenState(kind, lines, title, progress) {
  const state = kind === 'codex' ? codexState(lines, title) : kind === 'claude' ? claudeState(lines, title, progress) : null;
  return { state: state ?? 'idle', matched: state !== null };
}
