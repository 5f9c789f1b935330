import { statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  controlDirFor,
  gitSshCommand,
  onHost,
  RemoteError,
  remoteCommand,
  SshError,
  type SshHost,
  sshArgv,
} from '../../src/pty/backends/ssh.js';
import { tempDir } from '../helpers/cli.js';

const host = (over: Partial<SshHost> = {}): SshHost => ({
  destination: 'me@box',
  command: ['ssh'],
  controlDir: tempDir('relevo-ssh-'),
  ...over,
});

/** What the remote login shell makes of the one string: run here by a real `sh -c`, each word printed whole. */
async function roundTrip(argv: readonly string[]): Promise<string[]> {
  const out = String((await execa('sh', ['-c', remoteCommand(['printf', '%s\\0', ...argv])], { stripFinalNewline: false })).stdout);
  return out.split('\0').slice(0, -1);
}

/** An `ssh` that parses its argv as ssh does up to `--`, then runs the remote string with `sh -c` (or fails as ssh does). */
const FAKE_SSH = 'while [ "$1" != "--" ]; do shift; done; shift 2; if [ -n "$FAIL" ]; then echo "$FAIL" >&2; exit 255; fi; exec sh -c "$1"';
const fake = (fail = ''): SshHost => host({ command: ['env', `FAIL=${fail}`, 'sh', '-c', FAKE_SSH, 'ssh'] });

describe('ssh argv', () => {
  it('always gives the shared master, server-alive probes and BatchMode, then -- and the destination', () => {
    const h = host();
    const argv = sshArgv(h, ['tmux', '-L', 'relevo-me', 'ls']);
    expect(argv[0]).toBe('ssh');
    for (const o of ['ControlMaster=auto', 'ControlPersist=600', 'ServerAliveInterval=5', 'ServerAliveCountMax=2', 'BatchMode=yes'])
      expect(argv[argv.indexOf(o) - 1]).toBe('-o');
    expect(argv).toContain(`ControlPath=${join(h.controlDir, '%C')}`);
    expect(argv.slice(-4)).toEqual(['-T', '--', 'me@box', "'tmux' '-L' 'relevo-me' 'ls'"]);
    expect(sshArgv(h, ['true'], { tty: true }).slice(-4, -2)).toEqual(['-t', '--']);
    expect(statSync(h.controlDir).mode & 0o777).toBe(0o700);
  });

  it('keeps the ssh program and its own options first', () => {
    const argv = sshArgv(host({ command: ['ssh', '-F', '/etc/my ssh config'] }), ['true']);
    expect(argv.slice(0, 3)).toEqual(['ssh', '-F', '/etc/my ssh config']);
  });

  it('quotes every word so a real shell gets the argv back exactly', async () => {
    const words = [
      "it's",
      'a b  c',
      '"double"',
      '$HOME',
      '`id`',
      '$(id)',
      'a;b',
      'x && y',
      'line1\nline2\n',
      '\\n',
      '*',
      '',
      '-n',
      "''",
      '~',
      '%C',
    ];
    expect(await roundTrip(words)).toEqual(words);
  });

  it('refuses a destination that ssh would read as an option', () => {
    expect(() => sshArgv(host({ destination: '-oProxyCommand=touch /tmp/x' }), ['true'])).toThrow(SshError);
    expect(() => sshArgv(host({ destination: '' }), ['true'])).toThrow(SshError);
    expect(() => gitSshCommand(host({ destination: '-x' }))).toThrow(SshError);
  });

  it('puts the master socket in a short private directory when controlDir is too long for a socket path', () => {
    const long = join(tempDir('relevo-ssh-'), 'x'.repeat(60));
    const dir = controlDirFor(host({ controlDir: long }));
    expect(dir).toBe(`/tmp/relevo-ssh-${process.getuid?.()}`);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(sshArgv(host({ controlDir: long }), ['true'])).toContain(`ControlPath=${dir}/%C`);
    const short = host();
    expect(controlDirFor(short)).toBe(short.controlDir);
  });

  it('gives git the same program and options as one shell string', async () => {
    const h = host({ command: ['ssh', '-F', "/a b/it's"] });
    const command = gitSshCommand(h);
    const words = String((await execa('sh', ['-c', `printf '%s\\0' ${command}`])).stdout)
      .split('\0')
      .slice(0, -1);
    expect(words).toEqual(sshArgv(h, ['x']).slice(0, -4));
  });
});

describe('onHost', () => {
  it('resolves with the command’s stdout, input given on stdin', async () => {
    expect(await onHost(fake(), ['printf', '%s|', 'a b', "c'd"])).toBe("a b|c'd|");
    expect(await onHost(fake(), ['cat'], 'from stdin\n')).toBe('from stdin\n');
  });

  it('throws RemoteError with the command’s stderr line when the command fails', async () => {
    const error = await onHost(fake(), ['sh', '-c', 'echo "tmux: no server running" >&2; exit 1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).message).toBe('tmux: no server running');
    expect((error as RemoteError).exitCode).toBe(1);
  });

  it('throws SshError in ssh’s words when ssh fails, naming the destination when ssh did not', async () => {
    const refused = 'ssh: connect to host 10.1.1.2 port 22: Connection refused';
    await expect(onHost(fake(refused), ['true'])).rejects.toThrow(new SshError(refused));
    await expect(onHost(fake('Permission denied (publickey).'), ['true'])).rejects.toThrow(
      new SshError('me@box: Permission denied (publickey).'),
    );
    await expect(onHost(fake(), ['sh', '-c', 'exit 255'])).rejects.toThrow(new SshError('me@box: ssh failed (exit 255)'));
  });

  it('throws SshError when the command outlives its timeout', async () => {
    await expect(onHost(fake(), ['sleep', '2'], undefined, { timeoutMs: 200 })).rejects.toThrow(SshError);
  });
});
