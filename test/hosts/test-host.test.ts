/**
 * The test host the remote-relay tests run against: reached only through ssh with its throwaway
 * keys, a home and a tmux directory of its own, relevo-tui on its PATH, a link that can be cut.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { netnsUnavailable, testHostPerFile } from '../helpers/ssh-host.js';

const host = testHostPerFile();

const ssh = (...remote: string[]) => {
  const [cmd = 'ssh', ...args] = host().sshCommand;
  return execa(cmd, [...args, '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', host().destination, ...remote], { reject: false });
};

describe('the test host', () => {
  it('runs in a network namespace of its own where namespaces can be made (CI: always)', async () => {
    const why = await netnsUnavailable();
    if (why !== null) console.warn(`network namespaces unavailable (${why}): sshd on 127.0.0.1, the link tests are skipped`);
    expect(host().netns === null).toBe(why !== null);
    if (process.env.CI === 'true') expect(host().netns).not.toBeNull();
  });

  it('takes its throwaway key only: another key is refused', async () => {
    const ok = await ssh('id', '-un');
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(String(ok.stdout).trim()).toBe('root');
    // The same host and options, with another key of the same kind in place of the host's.
    const dir = tempDir('relevo-other-key-');
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'id')]);
    const config = readFileSync(host().sshConfig, 'utf8').replace(/IdentityFile .*/, `IdentityFile ${join(dir, 'id')}`);
    writeFileSync(join(dir, 'config'), config);
    const other = await execa('ssh', ['-F', join(dir, 'config'), '-o', 'BatchMode=yes', host().destination, 'true'], { reject: false });
    rmSync(dir, { recursive: true, force: true });
    expect(other.exitCode).toBe(255);
    expect(String(other.stderr)).toMatch(/Permission denied/);
  });

  it('has a home of its own, relevo-tui, node, git and tmux on its PATH', async () => {
    writeFileSync(join(host().home, 'marker'), 'on the host\n');
    const r = await ssh('cat marker && relevo-tui --version && git --version && tmux -V && echo "$TMUX_TMPDIR"');
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toMatch(/^on the host\nrelevo-tui \d+\.\d+\.\d+\ngit version .*\ntmux .*\n/);
    expect(String(r.stdout).trim().split('\n').at(-1)).toBe(host().tmuxDir);
    // The host's home is not this machine's.
    expect(existsSync(join(homedir(), 'marker'))).toBe(false);
    expect(await host().exec(['cat', join(homedir(), 'marker')])).toBe('on the host');
  });

  it('keeps a tmux server started over ssh after the session ends; and it goes on', async () => {
    const started = await ssh('setsid tmux -L relevo-probe new-session -d -s probe sleep 600');
    expect(started.exitCode, String(started.stderr)).toBe(0);
    const listed = await ssh("tmux -L relevo-probe list-sessions -F '#{session_name}'");
    expect(String(listed.stdout).trim()).toBe('probe');
  });

  it('drops its link when cut and answers again when restored', async () => {
    if (host().netns === null) return;
    await host().cut();
    const cut = await ssh('true');
    expect(cut.exitCode).toBe(255);
    expect(String(cut.stderr)).toMatch(/timed out|unreachable|No route/i);
    await host().restore();
    const back = await ssh('true');
    expect(back.exitCode, String(back.stderr)).toBe(0);
  }, 30_000);
});
