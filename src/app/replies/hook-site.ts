import { quote } from 'shell-quote';
import type { HookKind, Role } from '../../protocol/index.js';

/**
 * Where agents' end-of-turn hooks report, as launch.ts installs them: relevo's own hook channel
 * (hook-channel.ts), or a spool file on the host the agents run on (host-spool.ts).
 */
export type HookSite = {
  /** The agents run on another machine: the hook program is the relevo-tui on its PATH. */
  readonly onHost: boolean;
  /** What a pane's environment needs for its agent's hook to report (token, role, where). */
  env(role: Role): Record<string, string>;
  /** A shell command (no Node start) that stores the hook's JSON, read on stdin or as `$1` (`from: 'arg'`). */
  store(role: Role, kind: HookKind, from: 'stdin' | 'arg'): string;
  /** Writes a private file (settings layer, plugin) where the agent runs; returns its path there. */
  file(name: string, content: string): string;
};

/**
 * A hook command that needs no Node start: the shell writes the hook's JSON (on stdin, or its first
 * argument with `from: 'arg'`, as Codex's notify passes it) into the role's spool directory of the
 * hook channel and renames it into place once whole (`<pid>.<kind>.json`), where relevo picks it up.
 * Like `relevo-tui hook`, it never fails the agent.
 */
export function spoolCommand(spool: string, kind: HookKind, from: 'stdin' | 'arg' = 'stdin'): string {
  const file = `${quote([spool])}/$$`;
  const write = from === 'stdin' ? 'cat' : `printf '%s' "$1"`;
  return `{ ${write} > ${file}.part && mv ${file}.part ${file}.${kind}.json; } 2>/dev/null; exit 0`;
}

/**
 * The same for a hook on a host: one line `{"token":…,"kind":…,"at":…,"b64":…}` appended to the
 * role's spool file (the JSON base64-encoded, so it is one line whatever it holds; `at` the host's
 * clock in seconds), written whole to a part file first and appended in one write; the token is
 * the pane's RELEVO_HOOK_TOKEN.
 */
export function appendCommand(file: string, kind: HookKind, from: 'stdin' | 'arg' = 'stdin'): string {
  const part = `${quote([file])}.$$.part`;
  const write = from === 'stdin' ? 'cat' : `printf '%s' "$1"`;
  const head = `printf '{"token":"%s","kind":"${kind}","at":%s,"b64":"' "$RELEVO_HOOK_TOKEN" "$(date +%s)"`;
  const line = `${head}; ${write} | base64 | tr -d '\\n'; printf '"}\\n'`;
  return `{ { ${line}; } > ${part} && cat ${part} >> ${quote([file])}; rm -f ${part}; } 2>/dev/null; exit 0`;
}
