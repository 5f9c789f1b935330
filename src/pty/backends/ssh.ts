/**
 * Another machine reached through the system `ssh` (so `~/.ssh/config`, ProxyJump and aliases
 * apply), every command through one shared master connection per host.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** A host reached through the system ssh: a destination (user@host or a ~/.ssh/config alias). */
export type SshHost = {
  readonly destination: string;
  /** The ssh program and its own options: RELEVO_SSH_COMMAND or ssh_command split into argv; default ['ssh']. */
  readonly command: readonly string[];
  /** Where the shared master connection's socket lives (ControlPath = <dir>/%C). */
  readonly controlDir: string;
};

/** ssh itself failed (exit 255): one line, ssh's own words, naming the host. */
export class SshError extends Error {}

/** The remote command ran and failed: the first line of its stderr. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A unix socket's path must fit sun_path; ssh adds `.` and 16 random characters while it creates it. */
const SOCKET_MAX = 100;
const SSH_SUFFIX = 17;
/** What `%C` expands to: a SHA-1 in hex. */
const HASH_LENGTH = 40;
const made = new Set<string>();

/** The directory of the master's socket: `controlDir`, or a short private one in /tmp when its path would be too long. */
export function controlDirFor(host: SshHost): string {
  const fits = Buffer.byteLength(host.controlDir) + 1 + HASH_LENGTH + SSH_SUFFIX <= SOCKET_MAX;
  const dir = fits ? host.controlDir : `/tmp/relevo-ssh-${process.getuid?.() ?? 'user'}`;
  if (made.has(dir)) return dir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fits) {
    // A shared /tmp: the directory must be ours alone, or another user could take the socket.
    const st = lstatSync(dir);
    const uid = process.getuid?.();
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0)
      throw new SshError(`${dir} is not a private directory of this user: cannot hold the ssh master's socket`);
  }
  made.add(dir);
  return dir;
}

/** The options every connection gets: the shared master, server-alive probes, never a prompt. */
function options(host: SshHost): string[] {
  return [
    ...['-o', 'ControlMaster=auto'],
    ...['-o', `ControlPath=${join(controlDirFor(host), '%C')}`],
    ...['-o', 'ControlPersist=600'],
    ...['-o', 'ServerAliveInterval=5'],
    ...['-o', 'ServerAliveCountMax=2'],
    ...['-o', 'BatchMode=yes'],
    // A host whose link is down answers nothing: give up connecting about as soon as a dead master is noticed.
    ...['-o', 'ConnectTimeout=10'],
  ];
}

function checked(host: SshHost): SshHost {
  if (host.destination === '' || host.destination.startsWith('-'))
    throw new SshError(`not an ssh destination: ${JSON.stringify(host.destination)}`);
  if (host.command.length === 0) throw new SshError('the ssh command is empty');
  return host;
}

/** One word for a POSIX shell: single-quoted, `'` as `'\''`. */
export const shellQuote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/** The one string the remote login shell parses back into `remote`. */
export const remoteCommand = (remote: readonly string[]): string => remote.map(shellQuote).join(' ');

/** The local argv that runs `remote` (an argv) on the host through the master connection. */
export function sshArgv(host: SshHost, remote: readonly string[], opts: { tty?: boolean } = {}): string[] {
  const h = checked(host);
  if (remote.length === 0) throw new SshError('no remote command');
  return [...h.command, ...options(h), opts.tty ? '-t' : '-T', '--', h.destination, remoteCommand(remote)];
}

/** ssh's own failure as one line: its last meaningful stderr line, prefixed with the destination unless ssh named a host. */
export function sshFailure(host: SshHost, stderr: string, fallback: string): SshError {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^(Warning:|debug\d?:)/.test(l));
  const line = lines.at(-1) ?? fallback;
  const hostPart = host.destination.replace(/^.*@/, '');
  const named = line.startsWith('ssh:') || line.includes(host.destination) || line.includes(hostPart);
  return new SshError(named ? line : `${host.destination}: ${line}`);
}

export type OnHostOptions = {
  /** Ends a command that has not finished by then (ssh's failure, an SshError). Default: none. */
  readonly timeoutMs?: number;
};

/**
 * Runs `remote` on the host; resolves with its stdout as it is. Exit 255 (ssh's own failure) throws
 * SshError; another exit throws RemoteError with the command's first stderr line.
 */
export async function onHost(host: SshHost, remote: readonly string[], input?: string, opts: OnHostOptions = {}): Promise<string> {
  const [file, ...args] = sshArgv(host, remote);
  const r = await execa(file!, args, {
    reject: false,
    stripFinalNewline: false,
    ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}),
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
  });
  const stderr = String(r.stderr ?? '');
  if (r.timedOut) throw sshFailure(host, '', `no answer in ${Math.round((opts.timeoutMs ?? 0) / 1000)} s`);
  if (r.exitCode === undefined) {
    if ((r as { code?: string }).code === 'ENOENT') throw new SshError(`${file} is not installed (or not on PATH)`);
    throw sshFailure(host, stderr, `ssh ended by ${r.signal ?? 'a signal'}`);
  }
  if (r.exitCode === 255) throw sshFailure(host, stderr, 'ssh failed (exit 255)');
  if (r.exitCode !== 0) {
    const line = stderr.split(/\r?\n/).find((l) => l.trim() !== '');
    throw new RemoteError(line?.trim() ?? `${remote[0]} failed (exit ${r.exitCode})`, r.exitCode);
  }
  return String(r.stdout);
}

/** The GIT_SSH_COMMAND value that makes git use the same ssh program, options and master. */
export function gitSshCommand(host: SshHost): string {
  const h = checked(host);
  return [...h.command, ...options(h)].map(shellQuote).join(' ');
}

/** Ends the host's master connection (`ssh -O exit`), if there is one. */
export async function closeMaster(host: SshHost): Promise<void> {
  const h = checked(host);
  const [file, ...args] = [...h.command, ...options(h), '-O', 'exit', '--', h.destination];
  await execa(file!, args, { reject: false, stdin: 'ignore', timeout: 10_000 });
}

/** Whether the host answers: runs `id -un` through the master; resolves with the remote user's name. */
export async function checkHost(host: SshHost, timeoutMs = 30_000): Promise<string> {
  return (await onHost(host, ['id', '-un'], undefined, { timeoutMs })).trim();
}
