/** A host relay's worktree prepared on the host: the files copied over ssh, its setup run there, its output in the local run directory. */
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { RelayInfo } from '../../protocol/index.js';
import { type SshHost, sshArgv } from '../../pty/backends/ssh.js';

/** Writes stdin to the file `$1`, its directory made first (a constant script; the path is an argument). */
const WRITE = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
/** Runs `$2` with the person's shell in `$1` (their command line, from relevo.toml). */
const SETUP = 'cd -- "$1" || exit; exec sh -c "$2"';

/** The relay's variables, as the agents get them. */
const relayEnv = (relay: RelayInfo): string[] => [`RELEVO_RELAY=${relay.branch}`, ...(relay.port ? [`RELEVO_PORT=${relay.port}`] : [])];

/** A copy's failure in a few words: ssh's or the remote shell's last line, else its exit. */
function failure(r: { exitCode?: number; signal?: string; stderr?: unknown }, what: string): string {
  const said = String(r.stderr ?? '')
    .trim()
    .split('\n')
    .at(-1);
  return `${what} failed: ${said || (r.exitCode !== undefined ? `exit ${r.exitCode}` : `ended by ${r.signal ?? 'a failure'}`)}`;
}

/** Copies each of `copy` from the repository into the host's worktree; the first one missing or refused is the failure. */
export async function copyToHost(host: SshHost, root: string, relay: RelayInfo, copy: readonly string[]): Promise<string | null> {
  for (const file of copy) {
    const from = join(root, file);
    if (!existsSync(from) || !statSync(from).isFile()) return `copy: no file ${file} in ${root}`;
    const [cmd = 'ssh', ...args] = sshArgv(host, ['sh', '-c', WRITE, 'sh', `${relay.path}/${file}`]);
    const r = await execa(cmd, args, { input: readFileSync(from), reject: false });
    if (r.exitCode !== 0) return failure(r, `copy ${file} to ${host.destination}`);
  }
  return null;
}

/** Runs `setup` in the host's worktree, its output appended to `log`: null when it went well, else why not. */
export async function setupOnHost(host: SshHost, setup: string, relay: RelayInfo, log: string): Promise<string | null> {
  appendFileSync(log, `$ ${setup}   # on ${host.destination}\n`);
  const [cmd = 'ssh', ...args] = sshArgv(host, ['env', ...relayEnv(relay), 'sh', '-c', SETUP, 'sh', relay.path, setup]);
  const r = await execa(cmd, args, {
    stdin: 'ignore',
    stdout: { file: log, append: true },
    stderr: { file: log, append: true },
    reject: false,
  });
  if (r.exitCode === 0) return null;
  const said = readFileSync(log, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .at(-1);
  const why = r.exitCode !== undefined ? `exited ${r.exitCode}` : `ended by ${r.signal ?? 'a failure'}`;
  return `setup ${why}${said !== undefined && !said.startsWith(`$ ${setup}`) ? `: ${said}` : ''}`;
}
