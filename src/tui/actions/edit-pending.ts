import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { splitCommand } from '../../app/config/command.js';
import type { RelayRunner } from '../../app/run/runner.js';
import type { Store } from '../state/store.js';
import type { Toaster } from '../state/toaster.js';

export type EditPendingDeps = {
  readonly store: Store;
  readonly runner: RelayRunner;
  readonly env: NodeJS.ProcessEnv;
  readonly toast: Toaster;
  /** Gives the terminal to another program while `program` runs, and takes it back (repainting) after. */
  readonly handOver: <T>(program: () => Promise<T>) => Promise<T>;
};

/**
 * The pending handoff in the person's editor ($VISUAL, $EDITOR, else vi), the TUI suspended
 * meanwhile; what they save replaces it (the header stays relevo's). Only while paused.
 */
export function pendingEditor({ store, runner, env, toast, handOver }: EditPendingDeps): () => Promise<void> {
  return async () => {
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
    const file = join(runner.store.runDir, `pending-round-${pending.round}-to-${pending.to}.md`);
    try {
      writeFileSync(file, `${pending.body}\n`);
    } catch (error) {
      toast(`cannot write the handoff for the editor: ${(error as Error).message.split('\n')[0]}`, 'error');
      return;
    }
    const result = await handOver(() => execa(editor[0]!, [...editor.slice(1), file], { stdio: 'inherit', reject: false }));
    if (result.failed) {
      toast(`the editor failed (${(result.shortMessage ?? 'failed').split('\n')[0]}): the handoff is unchanged`, 'error');
      return;
    }
    const before = runner.state.pending?.body;
    await runner.editPending(readFileSync(file, 'utf8'));
    toast(
      runner.state.pending?.body !== before
        ? `round ${pending.round} for the ${pending.to} edited; ${store.state.prefix} r sends it`
        : 'the pending handoff is unchanged',
    );
  };
}
