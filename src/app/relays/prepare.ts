/** What a relay's worktree gets before its agents start: files copied from the repository, its setup command, a block of ports. */
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { RelayInfo } from '../../protocol/index.js';
import type { SshHost } from '../../pty/backends/ssh.js';
import type { RelayHooks } from '../run/relay-site.js';
import { makeStateDir } from '../store/journal.js';
import { lockRun } from '../store/locks.js';
import { copyToHost, setupOnHost } from './host-prepare.js';

/** The setup's output, in the run's directory. */
export const SETUP_LOG = 'setup.log';
/** Ports come in blocks of this many; the first block starts here. */
export const PORT_BLOCK = 10;
const FIRST_PORT = 41_000;
const BLOCKS = 200;

export type PrepareSettings = {
  /** The main repository, where the files to copy are read from. */
  readonly root: string;
  readonly setup: string | undefined;
  readonly copy: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The state directory: `<stateDir>/ports/<port>/` is held by the relay using that block. */
  readonly stateDir: string;
  /** How a host relay's host is reached (its ssh command and master). */
  readonly hostOf: (destination: string) => SshHost;
};

/** Whether `port` can be listened on at 127.0.0.1 now (nothing else on this machine holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * The first block of ports no other live relay of this repository holds (its `ports/<port>` lock,
 * released when its relevo ends or dies) and whose first port is free; `wanted` first when given.
 */
export async function claimPorts(stateDir: string, wanted?: number): Promise<{ port: number; release: () => void } | null> {
  const order = Array.from({ length: BLOCKS }, (_, k) => FIRST_PORT + k * PORT_BLOCK);
  for (const port of wanted !== undefined ? [wanted, ...order.filter((p) => p !== wanted)] : order) {
    let release: () => void;
    try {
      makeStateDir(stateDir, join('ports', String(port)));
      release = lockRun(join(stateDir, 'ports', String(port)));
    } catch {
      continue; // another relay holds it
    }
    if (await portFree(port)) return { port, release };
    release();
  }
  return null;
}

/** The last non-empty line of the setup's log (what failed, most often), bounded. */
function lastLine(log: string): string {
  try {
    const text = readFileSync(log, 'utf8');
    return (
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .at(-1) ?? ''
    );
  } catch {
    return '';
  }
}

/** Copies each of `copy` from the repository into the worktree; the first one missing is the failure. */
function copyInto(root: string, worktree: string, copy: readonly string[]): string | null {
  for (const file of copy) {
    const from = join(root, file);
    if (!existsSync(from) || !statSync(from).isFile()) return `copy: no file ${file} in ${root}`;
    const to = join(worktree, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
  return null;
}

/** Runs `setup` in the worktree through the person's shell (it is their command line, from relevo.toml), its output into `log`. */
async function runSetup(setup: string, relay: RelayInfo, env: NodeJS.ProcessEnv, log: string): Promise<string | null> {
  appendFileSync(log, `$ ${setup}\n`);
  const relayEnv = { RELEVO_RELAY: relay.branch, ...(relay.port ? { RELEVO_PORT: String(relay.port) } : {}) };
  const r = await execa('sh', ['-c', setup], {
    cwd: relay.path,
    env: { ...env, ...relayEnv },
    stdin: 'ignore',
    stdout: { file: log, append: true },
    stderr: { file: log, append: true },
    reject: false,
  });
  if (r.exitCode === 0) return null;
  const why = r.exitCode !== undefined ? `exited ${r.exitCode}` : `ended by ${r.signal ?? 'a failure'}`;
  const said = lastLine(log);
  return `setup ${why}${said !== '' && said !== `$ ${setup}` ? `: ${said}` : ''}`;
}

/** The relays' hooks for app/run: ports claimed for the life of this process, files copied and setup run. */
export function relayHooks(settings: PrepareSettings): RelayHooks {
  return {
    async claim(relay) {
      const claimed = await claimPorts(settings.stateDir, relay.port);
      return claimed === null ? relay : { ...relay, port: claimed.port };
    },
    async prepare(relay, runDir) {
      if (relay.host !== undefined) {
        const host = settings.hostOf(relay.host);
        const copied = await copyToHost(host, settings.root, relay, settings.copy);
        if (copied !== null) return copied;
        return settings.setup === undefined ? null : setupOnHost(host, settings.setup, relay, join(runDir, SETUP_LOG));
      }
      const copied = copyInto(settings.root, relay.path, settings.copy);
      if (copied !== null) return copied;
      if (settings.setup === undefined) return null;
      return runSetup(settings.setup, relay, settings.env, join(runDir, SETUP_LOG));
    },
  };
}
