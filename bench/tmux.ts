/**
 * The bench's tmux: a private server per measurement — its socket in a temporary directory of its
 * own, no config file unless one is given — killed and its socket removed (tmux 3.3 leaves the file
 * behind after kill-server) when the measurement ends or the bench does.
 */
import { join } from 'node:path';
import { execa, execaSync } from 'execa';
import { onCleanup, tempDir } from './cleanup.js';

export class TmuxServer {
  readonly #dir = tempDir('relevo-bench-tmux-');
  readonly socket = join(this.#dir.path, 'tmux.sock');
  readonly #kill = onCleanup(() => {
    execaSync('tmux', ['-S', this.socket, 'kill-server'], { reject: false });
    this.#dir.remove();
  });

  /** The argv of a client that starts the server with a session attached (for a Program). */
  newSession(session: string, command: readonly string[], ...options: string[]): string[] {
    return ['tmux', '-S', this.socket, '-f', '/dev/null', 'new-session', '-s', session, ...options, '--', ...command];
  }

  /** A tmux command against this server. */
  run(...args: string[]) {
    return execa('tmux', ['-S', this.socket, ...args], { reject: false });
  }

  /** The server's process id. */
  async pid(): Promise<number> {
    const r = await this.run('display-message', '-p', '#{pid}');
    const pid = Number(r.stdout.trim());
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`tmux: no server pid (${r.stderr.trim() || r.stdout.trim()})`);
    return pid;
  }

  /** Kills the server and removes its socket (once). */
  kill(): void {
    this.#kill();
  }
}

/** `tmux 3.3a` when tmux 3.x (or later) can be run here, else null: the baselines need it. */
export async function tmuxVersion(): Promise<string | null> {
  const r = await execa('tmux', ['-V'], { reject: false });
  return r.exitCode === 0 && /tmux (next-)?[3-9]/.test(r.stdout) ? r.stdout.trim() : null;
}
