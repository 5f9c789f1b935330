import { getSystemErrorMap } from 'node:util';
import type { RelayEvent, Role } from '../../protocol/index.js';
import { ConfigError } from './errors.js';

/** Why relevo paused itself: its state directory could not be written, or it failed in a way it did not foresee. */
export type FaultReason = FaultEvent['reason'];
export type FaultEvent = Extract<RelayEvent, { type: 'fault' }>;

const DETAIL_CHARS = 240;
const oneLine = (text: string) => (text.split('\n')[0] ?? '').trim().slice(0, DETAIL_CHARS);

/** An error from the operating system (it has a `code` such as `ENOSPC`). */
export function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/** A write to the run's state directory (journal, checkpoint, offer, ack) that failed. */
export class StateUnwritable extends Error {
  constructor(readonly errno: NodeJS.ErrnoException) {
    super(errno.message);
    this.name = 'StateUnwritable';
  }
}

/** Runs a state write; an error from the operating system comes back as `StateUnwritable`. */
export function stateWrite<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw isErrno(error) ? new StateUnwritable(error) : error;
  }
}

/** The relay event for an error: `state_unwritable` for a failed state write, else `internal_error`; one line. */
export function faultEvent(error: unknown, delivery?: Role): FaultEvent {
  const at = delivery !== undefined ? { delivery } : {};
  if (error instanceof StateUnwritable) return { type: 'fault', reason: 'state_unwritable', detail: oneLine(error.message), ...at };
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return { type: 'fault', reason: 'internal_error', detail: oneLine(text) || 'unknown error', ...at };
}

/** `EROFS: read-only file system`: the code and what it means, without the call and path. */
export function errnoCause(error: NodeJS.ErrnoException): string {
  const text = error.errno !== undefined ? getSystemErrorMap().get(error.errno)?.[1] : undefined;
  return text ? `${error.code}: ${text}` : oneLine(error.message);
}

/** At start: the state directory cannot be written (exit 2, one line). */
export class StateDirError extends ConfigError {
  constructor(
    readonly dir: string,
    cause: string,
  ) {
    super('state directory', cause);
  }

  override toString(): string {
    return `state directory ${this.dir} is not writable: ${this.message}`;
  }
}

/** A start-up error as `StateDirError` when it is a failed write under `stateDir`; any other error unchanged. */
export function startError(error: unknown, stateDir: string): unknown {
  const errno = error instanceof StateUnwritable ? error.errno : isErrno(error) ? error : null;
  if (errno === null || (error === errno && !(errno.path ?? '').startsWith(stateDir))) return error;
  return new StateDirError(stateDir, errnoCause(errno));
}

/**
 * The last resort while agents run: an exception or rejection nobody handled pauses the relay
 * (`internal_error`) instead of ending the process with the agents still running. Returns the undo.
 */
export function guardProcess(onError: (error: unknown) => void): () => void {
  const handler = (error: unknown) => onError(error);
  process.on('uncaughtException', handler);
  process.on('unhandledRejection', handler);
  return () => {
    process.off('uncaughtException', handler);
    process.off('unhandledRejection', handler);
  };
}
