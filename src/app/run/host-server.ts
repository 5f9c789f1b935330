/** relevo's tmux server on a host that is ending (killed, or its last session gone) as the agents are started on it. */
import { setTimeout as sleep } from 'node:timers/promises';
import { onHost } from '../../pty/backends/ssh.js';
import { isServerGone, TmuxError, type TmuxLaunch, type TmuxServer } from '../../pty/backends/tmux.js';
import { tmuxStarting } from '../../pty/backends/tmux-control.js';

/**
 * Ends every process of the user's on the host that runs tmux with `-L socket`: a killed server
 * waits for each of its clients to go before it exits, refusing new ones meanwhile, and a client
 * whose ssh channel is stalled never goes. Only called once the server has refused clients for seconds.
 */
const CLEAR_SCRIPT = [
  'for pid in $(ps -u "$(id -u)" -o pid= -o args= | while read -r pid args; do',
  '  case "$args" in "tmux "*|*"/tmux "*) case " $args " in *" -L $1 "*) echo "$pid";; esac;; esac',
  'done); do kill -9 "$pid" 2>/dev/null; done; true',
].join('\n');

/** One agent in a new detached session of the host's server (started if it is gone, so it outlives ssh): its pane id. */
export async function launchOne(server: TmuxServer, name: string, l: TmuxLaunch): Promise<string> {
  const env = Object.entries(l.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const size = ['-x', String(l.cols), '-y', String(l.rows)];
  const words = l.argv.map((a) => a.replace(/;$/, '\\;'));
  const args = ['new-session', '-d', '-s', name, ...size, '-P', '-F', '#{pane_id}', '-c', l.cwd, ...env, '--', ...words];
  return (await tmuxStarting(server, args)).trim();
}

/**
 * `make` (agents started on the host's server), made again while the server is ending: a server
 * ending takes no new client, and a new one starts once it is gone. `undo` takes away what a failed
 * `make` left. After a few seconds of refusals the server waits on a client that will never go (its
 * sessions are gone already): what is left of it is ended.
 */
export async function onLiveServer<T>(server: TmuxServer, make: () => Promise<T>, undo?: () => Promise<unknown>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await make();
    } catch (error) {
      if (!(error instanceof TmuxError) || !isServerGone(error.message) || attempt >= 6) throw error;
      await undo?.().catch(() => undefined);
      if (attempt === 3 && server.host && server.socket)
        await onHost(server.host, ['sh', '-c', CLEAR_SCRIPT, 'sh', server.socket], undefined, { timeoutMs: 30_000 });
      await sleep(500 * attempt);
    }
  }
}
