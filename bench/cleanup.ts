/**
 * What every bench shares about ending well: one list of things to undo (processes, tmux servers,
 * temp dirs) that runs however the bench ends — returned, thrown, exited or interrupted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cleanups = new Set<() => void>();

/** Undoes everything still held, the latest first (a server before the directory its socket is in). */
function cleanupAll(): void {
  for (const c of [...cleanups].reverse()) c();
}
const onSignal = (signal: NodeJS.Signals) => {
  cleanupAll();
  process.exit(signal === 'SIGINT' ? 130 : 143);
};
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `undo` (synchronous) when the bench exits or is interrupted, unless it ran before; returns a
 * function that runs it now (once: later calls do nothing). An error from `undo` is what is already gone.
 */
export function onCleanup(undo: () => void): () => void {
  const once = () => {
    if (!cleanups.delete(once)) return;
    if (cleanups.size === 0) {
      for (const s of SIGNALS) process.off(s, onSignal);
      process.off('exit', cleanupAll);
    }
    try {
      undo();
    } catch {
      // cleaning up what is already gone
    }
  };
  if (cleanups.size === 0) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', cleanupAll);
  }
  cleanups.add(once);
  return once;
}

/** A temporary directory, removed on cleanup (or by `remove`). */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: onCleanup(() => rmSync(path, { recursive: true, force: true })) };
}
