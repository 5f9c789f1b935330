/**
 * `relevo-tui` run the way people meet it: in a pane of a real tmux server of its own (session
 * `relevo`), driven with send-keys and read with capture-pane.
 */
import { execa } from 'execa';
import { quote } from 'shell-quote';
import { afterEach, beforeEach, expect } from 'vitest';
import { BIN, tempDir } from './cli.js';

/**
 * A fresh tmux server for every test (registers the hooks that make and kill it): a server being
 * killed can still hold the previous name's socket, and a new-session on it then fails with
 * "server exited unexpectedly".
 */
export function tuiInTmux(prefix = 'relevo-test') {
  let serial = 0;
  let socket = `${prefix}-${process.pid}-0`;
  beforeEach(() => {
    socket = `${prefix}-${process.pid}-${++serial}`;
  });
  const tmux = (...args: string[]) => execa('tmux', ['-L', socket, ...args], { reject: false });
  afterEach(async () => {
    await tmux('kill-server');
  });
  /** What the target (by default relevo's session: its current pane) shows. */
  const capture = async (target = 'relevo') => (await tmux('capture-pane', '-p', '-t', target)).stdout;
  const keys = (...k: string[]) => tmux('send-keys', '-t', 'relevo', ...k);

  async function until(what: string, check: (screen: string) => boolean, ms = 30_000, target = 'relevo'): Promise<string> {
    const deadline = Date.now() + ms;
    let screen = '';
    while (Date.now() < deadline) {
      screen = await capture(target);
      if (check(screen)) return screen;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
  }

  /** relevo-tui (`extra` flags, else `--demo`) in session `relevo` of a `cols`×`rows` window; the shell says how it exited. */
  async function start(cols: number, rows: number, extra: string[] = [], env: string[] = [], cwd = tempDir()): Promise<void> {
    const command = quote([...(env.length > 0 ? ['env', ...env] : []), process.execPath, BIN, ...(extra.length > 0 ? extra : ['--demo'])]);
    const r = await tmux(
      'new-session',
      '-d',
      '-s',
      'relevo',
      '-x',
      String(cols),
      '-y',
      String(rows),
      '-c',
      cwd,
      `${command}; echo "exited with $?"; sleep 60`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
  }

  return {
    /** This test's server: `tmux -L <socket>`. */
    socket: () => socket,
    tmux,
    capture,
    keys,
    until,
    start,
  };
}

/** relevo's status band in a captured screen. */
export const band = (screen: string) => screen.split('\n').find((l) => l.startsWith('relevo · ')) ?? '';
