/**
 * A test host reached by ssh: a real OpenSSH server in a network namespace of its own (a veth pair,
 * a /30 of its own), with a throwaway host key and user key, its own home (a mount namespace puts a
 * temporary directory over the user's home) and its own tmux socket directory. Where namespaces
 * cannot be made, sshd listens on 127.0.0.1 instead and `netns` is null (no link to cut).
 * No vitest here: the tests (ssh-host.ts) and the bench's remote hop both start it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { BIN, PACKAGE_ROOT } from '../../src/app/config/paths.js';
import { until } from './until.js';

export type TestHost = {
  /** The host's alias in `sshConfig`. */
  readonly destination: string;
  /** Where its sshd listens (the namespace's address, or 127.0.0.1). */
  readonly address: string;
  readonly port: number;
  /** `['ssh', '-F', sshConfig]`: what RELEVO_SSH_COMMAND or `ssh_command` names. */
  readonly sshCommand: readonly string[];
  readonly sshConfig: string;
  /** The host user's home, as a local path (the host sees it as the user's own home). */
  readonly home: string;
  /** The host's `TMUX_TMPDIR`, as a local path. */
  readonly tmuxDir: string;
  /** The PATH its sessions get (sshd's SetEnv). */
  readonly path: string;
  /** The network namespace, or null when sshd listens on 127.0.0.1. */
  readonly netns: string | null;
  /** Runs `argv` as the host's sessions run (its namespaces, home, PATH); resolves with stdout. */
  exec(argv: readonly string[]): Promise<string>;
  /** Takes the host's link down (packets dropped) and up again. */
  cut(): Promise<void>;
  restore(): Promise<void>;
  /** Adds `ms` of delay each way on the link (`tc netem`). */
  delay(ms: number): Promise<void>;
  /** Ends sshd and every process of the host, removes the namespace and the host's directory. */
  stop(): Promise<void>;
};

export type TestHostOptions = {
  /** Local 127.0.0.1 ports the host reaches at its own 127.0.0.1 (RemoteForward), e.g. fake model servers. */
  readonly forwards?: readonly number[];
  /** Programs the host's PATH lacks (e.g. tmux): its PATH is then the wrapper's directory and one of links to every other program. */
  readonly hidden?: readonly string[];
};

/** A directory of links to every program of the system's PATH but the `hidden` ones. */
function linksWithout(dir: string, hidden: readonly string[]): string {
  mkdirSync(dir, { mode: 0o700 });
  for (const from of ['/usr/local/bin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/sbin', '/sbin']) {
    const names = existsSync(from) ? readdirSync(from) : [];
    for (const name of names) {
      if (hidden.includes(name) || existsSync(join(dir, name))) continue;
      symlinkSync(join(from, name), join(dir, name));
    }
  }
  return dir;
}

/** The reason namespaces cannot be made here, or null when they can. */
export async function netnsUnavailable(): Promise<string | null> {
  const name = `rvprobe-${randomBytes(3).toString('hex')}`;
  const made = await execa('ip', ['netns', 'add', name], { reject: false });
  if (made.exitCode !== 0) return `ip netns add failed: ${String(made.stderr).trim() || made.exitCode}`;
  await execa('ip', ['netns', 'del', name], { reject: false });
  return null;
}

const SSHD = '/usr/sbin/sshd';
/** Starts sshd in a mount namespace where the user's home is the host's own (the project stays visible). */
const START = ['set -e', 'if [ -n "$3" ]; then mount --bind "$3" "$4"; fi', 'mount --rbind "$1" "$5"', `exec ${SSHD} -D -e -f "$2"`].join(
  '\n',
);

export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  if (!existsSync(SSHD)) throw new Error(`${SSHD} is missing: install openssh-server (.ci/run does)`);
  const dir = mkdtempSync(join(tmpdir(), 'relevo-host-'));
  const home = join(dir, 'home');
  const tmuxDir = join(dir, 'tmux');
  for (const d of [join(home, '.ssh'), join(dir, 'bin'), tmuxDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'id')]);
  writeFileSync(join(home, '.ssh', 'authorized_keys'), readFileSync(join(dir, 'id.pub')));
  writeFileSync(join(dir, 'bin', 'relevo-tui'), `#!/bin/sh\nexec ${process.execPath} ${BIN} "$@"\n`, { mode: 0o755 });

  const netns = (await netnsUnavailable()) === null ? `rvh-${randomBytes(3).toString('hex')}` : null;
  const id = netns?.slice(4) ?? '';
  const [a, b] = [200 + (randomBytes(1)[0]! % 50), randomBytes(1)[0]! % 250];
  const address = netns ? `10.${a}.${b}.2` : '127.0.0.1';
  const port = netns ? 22 : 20_000 + (randomBytes(2).readUInt16BE() % 20_000);
  const [outer, inner] = [`rvl-${id}`, `rvi-${id}`];
  const inNs = (argv: readonly string[]) => (netns ? ['ip', 'netns', 'exec', netns, ...argv] : [...argv]);
  const run = async (argv: readonly string[]) => {
    const [cmd = '', ...args] = argv;
    return String((await execa(cmd, args)).stdout);
  };
  if (netns) {
    await run(['ip', 'netns', 'add', netns]);
    await run(['ip', 'link', 'add', outer, 'type', 'veth', 'peer', 'name', inner]);
    await run(['ip', 'link', 'set', inner, 'netns', netns]);
    await run(['ip', 'addr', 'add', `10.${a}.${b}.1/30`, 'dev', outer]);
    await run(['ip', 'link', 'set', outer, 'up']);
    await run(inNs(['ip', 'addr', 'add', `${address}/30`, 'dev', inner]));
    await run(inNs(['ip', 'link', 'set', inner, 'up']));
    await run(inNs(['ip', 'link', 'set', 'lo', 'up']));
  }

  const system = options.hidden === undefined ? '/usr/local/bin:/usr/bin:/bin' : linksWithout(join(dir, 'sys'), options.hidden);
  const hostPath = `${join(dir, 'bin')}:${system}`;
  const sshdConfig = join(dir, 'sshd_config');
  writeFileSync(
    sshdConfig,
    [
      `ListenAddress ${address}`,
      `Port ${port}`,
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(home, '.ssh', 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'MaxSessions 50',
      'MaxStartups 50',
      `SetEnv PATH=${hostPath} TMUX_TMPDIR=${tmuxDir}`,
      '',
    ].join('\n'),
  );
  const sshConfig = join(dir, 'ssh_config');
  const destination = 'relevo-test-host';
  writeFileSync(
    sshConfig,
    [
      `Host ${destination}`,
      `  HostName ${address}`,
      `  Port ${port}`,
      '  User root',
      `  IdentityFile ${join(dir, 'id')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      '  StrictHostKeyChecking no',
      '  LogLevel ERROR',
      ...(options.forwards ?? []).map((p) => `  RemoteForward 127.0.0.1:${p} 127.0.0.1:${p}`),
      '',
    ].join('\n'),
  );

  // The user's home as the host sees it: the project stays visible where it lives under it.
  const userHome = homedir();
  const project = PACKAGE_ROOT.replace(/\/$/, '');
  const under = project.startsWith(`${userHome}/`) ? relative(userHome, project) : '';
  if (under !== '') mkdirSync(join(home, under), { recursive: true });
  mkdirSync('/run/sshd', { recursive: true });
  const start = ['unshare', '-m', '--propagation', 'private', 'sh', '-c', START, 'sh', home, sshdConfig];
  const [cmd = '', ...args] = inNs([...start, under === '' ? '' : project, under === '' ? '' : join(home, under), userHome]);
  const sshd = execa(cmd, args, { reject: false, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe', cleanup: true });
  let log = '';
  sshd.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  await until('the test host’s sshd listening', () => log.includes('Server listening') || sshd.exitCode !== null, 10_000);
  if (!log.includes('Server listening')) throw new Error(`sshd did not start: ${log.trim()}`);
  const sshdPid = sshd.pid ?? 0;

  const env = { PATH: hostPath, TMUX_TMPDIR: tmuxDir, HOME: userHome };
  const host: TestHost = {
    destination,
    address,
    port,
    sshCommand: ['ssh', '-F', sshConfig],
    sshConfig,
    home,
    tmuxDir,
    path: hostPath,
    netns,
    async exec(argv) {
      const r = await execa('nsenter', ['-t', String(sshdPid), '-m', ...(netns ? ['-n'] : []), '--', 'env', ...envArgs(env), ...argv]);
      return String(r.stdout);
    },
    async cut() {
      if (!netns) throw new Error('no network namespace: no link to cut');
      await run(inNs(['ip', 'link', 'set', inner, 'down']));
    },
    async restore() {
      if (!netns) throw new Error('no network namespace: no link to restore');
      await run(inNs(['ip', 'link', 'set', inner, 'up']));
    },
    async delay(ms) {
      if (!netns) throw new Error('no network namespace: no link to delay');
      await run(['tc', 'qdisc', 'replace', 'dev', outer, 'root', 'netem', 'delay', `${ms}ms`]);
      await run(inNs(['tc', 'qdisc', 'replace', 'dev', inner, 'root', 'netem', 'delay', `${ms}ms`]));
    },
    async stop() {
      // The host's tmux servers first (their agents get SIGHUP), then every process left in the namespace.
      await execa('sh', ['-c', 'for s in "$1"/*/*; do [ -S "$s" ] && tmux -S "$s" kill-server; done; true', 'sh', tmuxDir], {
        reject: false,
      });
      // Sessions still open (an ssh master) hold sshd's stderr: every process of the host goes, then sshd is waited for.
      if (netns) {
        const pids = String((await execa('ip', ['netns', 'pids', netns], { reject: false })).stdout)
          .split(/\s+/)
          .filter(Boolean);
        for (const pid of pids) await execa('kill', ['-KILL', pid], { reject: false });
      }
      sshd.kill('SIGKILL');
      sshd.stderr?.destroy();
      await sshd;
      if (netns) {
        await execa('ip', ['netns', 'del', netns], { reject: false });
        await execa('ip', ['link', 'del', outer], { reject: false });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return host;
}

const envArgs = (env: Readonly<Record<string, string>>) => Object.entries(env).map(([k, v]) => `${k}=${v}`);
