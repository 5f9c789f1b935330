import type { JournalLine, PauseReason } from '../../protocol/index.js';
import { formatDuration } from '../../protocol/index.js';
import type { ToastLevel } from './store.js';

const FAULTS = new Set<PauseReason>(['state_unwritable', 'internal_error']);

type Pause = { readonly reason: PauseReason; readonly detail?: string } | null;

/** A pause relevo made for its own fault (a state write failed, an unforeseen error), as a toast; else null. */
export function faultToast(pause: Pause, prefix: string): string | null {
  if (pause === null || !FAULTS.has(pause.reason)) return null;
  const fix = pause.reason === 'state_unwritable' ? 'free space or fix the state directory, then' : 'then';
  return `paused: ${pause.reason}${pause.detail ? `: ${pause.detail}` : ''} — ${fix} ${prefix} r resumes`;
}

/** Feed it each relay state's pause: `show` hears each new fault pause once. */
export function faultWatcher(prefix: string, show: (text: string) => void): (pause: Pause) => void {
  let last: Pause = null;
  return (pause) => {
    const text = pause !== last ? faultToast(pause, prefix) : null;
    last = pause;
    if (text !== null) show(text);
  };
}

/** What the person can do about a pause. */
function pausedHint(reason: PauseReason, prefix: string): string {
  if (reason === 'agent_exited') return `${prefix} r starts it again`;
  if (reason === 'rate_limited') return `relevo goes on at the reset, or ${prefix} r now`;
  // Resuming checks the checkpoint again: a restored file goes on, an edit replaces it with a new checkpoint.
  if (reason === 'checkpoint_mismatch') return `restore the file or edit the handoff (${prefix} e), then ${prefix} r`;
  return `${prefix} r resumes`;
}

/** A notice delivered: the agent was told where its handoff is (or, with none yet, its goal), and why. */
function noticeToast(line: Extract<JournalLine, { type: 'delivered' }>): string {
  // Older journals name no cause: their notices all followed a resume.
  const why = line.cause === 'restart' ? 'it had exited and was started again' : 'resumed run';
  return line.round === 0 ? `the ${line.to} was given its goal again (${why})` : `the ${line.to} was told where its handoff is (${why})`;
}

/** What the journal means to the person watching: a toast, and for some the bell. */
export function toastFor(line: JournalLine, prefix = 'C-]'): { text: string; level: ToastLevel; notify?: boolean } | null {
  switch (line.type) {
    case 'delivered':
      if (line.kind === 'goal') return { text: 'goal sent to the planner', level: 'info' };
      if (line.kind === 'notice') return { text: noticeToast(line), level: 'info' };
      return { text: `round ${line.round} delivered to the ${line.to}${line.via === 'file' ? ' as a file' : ''}`, level: 'info' };
    case 'lookalike':
      return { text: `look-alike header from the ${line.role} discarded: ${line.line}`, level: 'warn' };
    case 'paused':
      if (FAULTS.has(line.reason)) return null; // shown from the relay state: see faultToast
      return {
        text: `paused: ${line.reason}${line.role ? ` (${line.role})` : ''}${line.detail ? `: ${line.detail}` : ''} — ${pausedHint(line.reason, prefix)}`,
        level: line.reason === 'delivery_failed' || line.reason === 'checkpoint_mismatch' ? 'error' : 'warn',
        notify: true,
      };
    case 'blocked':
      return { text: `the ${line.role} is waiting on a prompt: answer it in its pane`, level: 'warn', notify: true };
    case 'agent_exited':
      return {
        // True before the goal too (nothing given yet) as after it (what it was given is checkpointed).
        text: `the ${line.role} exited (code ${line.exit_code}); nothing is lost: ${prefix} r starts it again`,
        level: 'error',
      };
    case 'agent_restarted':
      return { text: `the ${line.role} started again${line.pid !== undefined ? ` (pid ${line.pid})` : ''}`, level: 'info' };
    case 'done':
      return { text: `done: ${line.summary.split('\n')[0]} — ${prefix} g gives the same agents a next goal`, level: 'done', notify: true };
    case 'stale':
      return {
        text: `STALE: the workspace moved since checkpoint ${line.lane}/${line.checkpoint_seq} (${line.diff_stat.at(-1)?.trim() ?? 'HEAD moved'}); the agent is told`,
        level: 'warn',
        notify: true,
      };
    case 'run_started':
      return line.follows !== undefined
        ? { text: `run ${line.run_id} follows run ${line.follows}: the same agents, rounds from 1`, level: 'info' }
        : null;
    case 'run_resumed':
      return {
        text: line.pending_kind ? `run resumed: the ${line.pending_kind} for the ${line.pending_to} goes first` : 'run resumed',
        level: 'info',
      };
    case 'memory':
      if (line.state === 'blocked') return { text: `memory: blocked — ${line.detail ?? 'mnemosyne is missing'}`, level: 'warn' };
      if (line.state === 'failed') return { text: `memory: not stored — ${line.detail ?? ''}`, level: 'warn' };
      return null;
    case 'delivery_held':
      return {
        text: `round ${line.round} waits for your draft in the ${line.role}'s input box: send it or clear it`,
        level: 'warn',
        notify: true,
      };
    case 'stalled':
      return {
        text: `the ${line.role} ${line.why === 'busy' ? 'has been busy' : 'has flapped busy/idle'} for ${formatDuration(line.for_ms)} with no turn end: look at its pane`,
        level: 'warn',
        notify: true,
      };
    case 'unreachable':
      return {
        text: `unreachable: ${line.host} (${line.detail}); the agents keep working there, relevo looks again and goes on`,
        level: 'warn',
        notify: true,
      };
    case 'reachable':
      return { text: `${line.host} answers again (out of reach for ${formatDuration(line.for_ms)})`, level: 'info' };
    case 'hook_rejected':
      return { text: `hook message refused: ${line.reason}`, level: 'warn' };
    default:
      return null;
  }
}
