/**
 * relevo-tui as people meet it, inside a private tmux server: started with `start`, driven with
 * `keys` (send-keys) and read with `capture` (capture-pane). A test file calls `freshTmuxServers()`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, expect } from 'vitest';
import { BIN, tempDir } from './cli.js';
import { eventually } from './until.js';

let serial = 0;
let SOCKET = `relevo-test-${process.pid}-0`;
/**
 * The server of the test that is running: a timed-out test's body runs on after vitest moves to the
 * next test, and its keys must go to its own (killed) server, not to the next one's.
 */
const attempt = new AsyncLocalStorage<string>();

/** The tmux server (`-L` name) of the current test. */
export const socket = (): string => attempt.getStore() ?? SOCKET;

/**
 * A fresh tmux server for every test: a server being killed can still hold the previous name's
 * socket, and a new-session on it then fails with "server exited unexpectedly".
 */
export function freshTmuxServers(): void {
  beforeEach(() => {
    SOCKET = `relevo-test-${process.pid}-${++serial}`;
    attempt.enterWith(SOCKET);
  });
  afterEach(async () => {
    await execa('tmux', ['-L', SOCKET, 'kill-server'], { reject: false });
  });
}

export const tmux = (...args: string[]) => execa('tmux', ['-L', socket(), ...args], { reject: false });
/** What the target (by default relevo's session: its current pane) shows. */
export const capture = async (target = 'relevo') => (await tmux('capture-pane', '-p', '-t', target)).stdout;
/** What relevo's session shows, with its escape sequences (capture-pane -e): colours, reverse video. */
export const styled = async () => (await tmux('capture-pane', '-p', '-e', '-t', 'relevo')).stdout;
export const keys = (...k: string[]) => tmux('send-keys', '-t', 'relevo', ...k);

/** The screen once `check` holds; throws with the last screen after `ms` (a generous limit, never an assertion on time). */
export function untilScreen(what: string, check: (screen: string) => boolean, ms = 30_000, target = 'relevo'): Promise<string> {
  return poll(what, () => capture(target), check, ms);
}

/** As `untilScreen`, on the screen with its escape sequences (`styled`). */
export function untilStyled(what: string, check: (screen: string) => boolean, ms = 30_000): Promise<string> {
  return poll(what, styled, check, ms);
}

function poll(what: string, read: () => Promise<string>, check: (screen: string) => boolean, ms: number): Promise<string> {
  let screen = '';
  const matched = async () => {
    screen = await read();
    return check(screen) ? screen : undefined;
  };
  return eventually(what, matched, ms, { everyMs: 200, show: () => `the screen was:\n${screen}` });
}

/** A `cols`×`rows` tmux session named relevo, in `cwd`, running the shell line `line` (the test fails if tmux cannot start it). */
export async function session(cols: number, rows: number, cwd: string, line: string): Promise<void> {
  const r = await tmux('new-session', '-d', '-s', 'relevo', '-x', String(cols), '-y', String(rows), '-c', cwd, line);
  expect(r.exitCode, r.stderr).toBe(0);
}

/** `relevo-tui` (with `--demo` unless `extra` says otherwise) in a `cols`×`rows` tmux session named relevo. */
export async function start(cols: number, rows: number, extra: string[] = [], env: string[] = [], cwd = tempDir()): Promise<void> {
  const command = quote([...(env.length > 0 ? ['env', ...env] : []), process.execPath, BIN, ...(extra.length > 0 ? extra : ['--demo'])]);
  await session(cols, rows, cwd, `${command}; echo "exited with $?"; sleep 60`);
}

/** The status band's line. */
export const band = (screen: string) => screen.split('\n').find((l) => l.startsWith('relevo · ')) ?? '';
