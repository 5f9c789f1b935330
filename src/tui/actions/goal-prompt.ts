import type { RelayRunner } from '../../app/run/runner.js';
import { noteFor, noteRefusal, noteTarget, type RelayState, ROLES, type Role } from '../../protocol/index.js';
import { splitKeys } from '../../pty/keys.js';
import { editLine, type PromptCommand, readPromptLine } from '../input/line-editor.js';
import { fit } from '../paint/width.js';
import type { GoalHistory } from '../state/goal-history.js';
import type { Store } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';

export type GoalPromptDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly history: GoalHistory;
  readonly toast: Toaster;
  /** After `done`: starts the next run with the same agents on `goal`; false when it could not. */
  readonly nextGoal: (goal: string) => boolean;
  /** `/relevo resume`: what the resume key does (an exited agent is started again first). */
  readonly resume?: () => void;
};

/**
 * The goal prompt's keys (while `state.prompt` is open): each edits the line, ↑ ↓ browse the
 * history, Enter submits — a goal starts the run, `/relevo pause|resume` (the relevo protocol's commands) steer it — and
 * Esc closes the prompt. A refused line says why until the next key.
 */
/** The roles a `/relevo note cancel` applies to: the one named, or every one with a note waiting. */
function notedRoles(state: RelayState, to: Role | null): Role[] {
  return (to === null ? [...ROLES] : [to]).filter((role) => noteFor(state, role) !== null);
}

/** Why a note (or its cancel) cannot be taken now, or null. */
function noteProblem(state: RelayState, command: Extract<PromptCommand, { type: 'note' | 'cancel-note' }>): string | null {
  if (command.type === 'note') return noteRefusal(state, command.to ?? noteTarget(state), command.text);
  if (notedRoles(state, command.to).length > 0) return null;
  return command.to === null ? 'no note is waiting to be sent' : `no note is waiting for the ${command.to}`;
}

/** Why a goal cannot be taken now (a run has its goal until it is done), or null. */
function goalProblem(state: RelayState): string | null {
  if (state.phase === 'ready' || state.phase === 'done') return null;
  return `this run already has its goal (${fit((state.goal ?? '').replace(/\s+/g, ' '), 40)}): a next goal can be given after done`;
}

export function goalPromptKeys({ store, runner, history, toast, nextGoal, resume }: GoalPromptDeps): (data: string) => void {
  const submit = (text: string) => {
    const command = readPromptLine(text);
    if (command.type === 'error') return store.update({ promptError: command.message });
    // A note or a goal that cannot be taken keeps the line, and says why.
    const refused =
      command.type === 'note' || command.type === 'cancel-note'
        ? noteProblem(runner.state, command)
        : command.type === 'goal'
          ? goalProblem(runner.state)
          : null;
    if (refused !== null) {
      // A goal refused is remembered too: ↑ finds it again after the prompt is closed.
      if (command.type === 'goal') history.add(command.goal);
      return store.update({ promptError: refused });
    }
    store.update({ prompt: null });
    if (command.type === 'note') {
      const to = command.to ?? noteTarget(runner.state);
      return void runner
        .note(to, command.text)
        .then(() => toast(`note for the ${to} queued: it goes with the next handoff to it (/relevo note cancel ${to} takes it back)`))
        .catch(runner.fault);
    }
    if (command.type === 'cancel-note') {
      for (const to of notedRoles(runner.state, command.to)) {
        runner.dispatch({ type: 'cancel-note', to });
        toast(`note for the ${to} cancelled`);
      }
      return;
    }
    if (command.type === 'pause') return runner.dispatch({ type: 'pause' });
    if (command.type === 'resume') return resume ? resume() : runner.dispatch({ type: 'resume' });
    if (runner.state.phase === 'done') {
      history.add(command.goal);
      nextGoal(command.goal);
      return;
    }
    history.add(command.goal);
    runner.start(command.goal);
  };
  return (data) => {
    for (const key of splitKeys(data)) {
      const line = store.state.prompt;
      if (line === null) return;
      const result = editLine(line, key, history.goals);
      if (store.state.promptError !== null) store.update({ promptError: null });
      if ('submit' in result) submit(result.submit);
      else if ('cancel' in result) {
        store.update({ prompt: null });
        if (runner.state.phase === 'ready') toast(`no goal yet: ${store.state.prefix} g opens the goal prompt`, 'warn');
      } else store.update({ prompt: result.state });
    }
  };
}
