import type { RelayRunner } from '../app/run/runner.js';
import { splitKeys } from '../pty/keys.js';
import type { GoalHistory } from './goal-history.js';
import { editLine, readPromptLine } from './line-editor.js';
import type { Store } from './store.js';
import type { Toaster } from './toaster.js';

export type GoalPromptDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly history: GoalHistory;
  readonly toast: Toaster;
};

/**
 * The goal prompt's keys (while `state.prompt` is open): each edits the line, ↑ ↓ browse the
 * history, Enter submits — a goal starts the run, `/relevo pause|resume` (the relevo protocol's commands) steer it — and
 * Esc closes the prompt. A refused line says why until the next key.
 */
export function goalPromptKeys({ store, runner, history, toast }: GoalPromptDeps): (data: string) => void {
  const submit = (text: string) => {
    const command = readPromptLine(text);
    if (command.type === 'error') return store.update({ promptError: command.message });
    store.update({ prompt: null });
    if (command.type === 'pause') return runner.dispatch({ type: 'pause' });
    if (command.type === 'resume') return runner.dispatch({ type: 'resume' });
    if (runner.state.phase !== 'ready') return toast(`this run already has its goal: ${runner.state.goal ?? ''}`, 'warn');
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
