/**
 * A host relay's hooks: the agents' end-of-turn hooks on the host append one line per report to
 * their role's spool file there (`~/.relevo/spool/<run>/<role>.jsonl`, a private directory that also
 * holds the settings files the hooks are installed with); relevo reads each file on from the byte
 * offset it last took (spool-tail.ts) and hands every report to the hook channel, whose token check
 * and listeners are those of a local relay. The offsets and the run's secret are kept in the run's
 * directory so `--resume` reads on where the run stopped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { HOOK_KINDS, type HookKind, ROLES, type Role } from '../../protocol/index.js';
import { onHost, type SshHost } from '../../pty/backends/ssh.js';
import { HookChannel } from './hook-channel.js';
import { appendCommand, type HookSite } from './hook-site.js';
import { SpoolTail } from './spool-tail.js';

/** What a run keeps of its host hooks (mode 0600 in its directory). */
export const HOST_HOOKS_FILE = 'host-hooks.json';
const MAX_LINE = 6 * 1024 * 1024;

const stateSchema = z.strictObject({
  dir: z.string().min(1),
  secret: z.string().min(1),
  offsets: z.strictObject({ planner: z.number().int().nonnegative(), builder: z.number().int().nonnegative() }),
});
export type HostHooksState = z.infer<typeof stateSchema>;

const lineSchema = z.strictObject({
  token: z.string().max(256),
  kind: z.enum(HOOK_KINDS),
  /** When the hook ran, by the host's clock (seconds). */
  at: z.number().int().nonnegative().optional(),
  b64: z.string(),
});

/** The host's clock read once: its seconds, and the local time (ms) right after the answer came. */
type HostClock = { readonly hostSeconds: number; readonly localAfter: number };

async function readClock(host: SshHost): Promise<HostClock | null> {
  const said = Number((await onHost(host, ['date', '+%s'])).trim());
  return Number.isSafeInteger(said) ? { hostSeconds: said, localAfter: Date.now() } : null;
}

/**
 * A host time (seconds) as local time (ms), erring late: never earlier than the moment it names, so
 * a hook's report is only taken as one from before the turn when it surely is.
 */
export const localTimeOf = (clock: HostClock, seconds: number): number => (seconds + 1 - clock.hostSeconds) * 1000 + clock.localAfter;

/** The directory, on the host, of a run's spool files and hook settings (relative to the ssh user's home). */
export const spoolDirOf = (runId: string): string => `.relevo/spool/${runId}`;

/** Makes the run's private spool directory on the host with an empty file per role; resolves with its absolute path. */
async function makeSpoolDir(host: SshHost, runId: string): Promise<string> {
  const script = 'umask 077; mkdir -p "$1" && chmod 700 "$1" && cd "$1" && : >> planner.jsonl && : >> builder.jsonl && pwd';
  return (await onHost(host, ['sh', '-c', script, 'sh', spoolDirOf(runId)])).trim();
}

export class HostSpool implements HookSite {
  readonly onHost = true;
  readonly #pending: { path: string; content: string }[] = [];
  readonly #tails: SpoolTail[] = [];
  readonly #offsets: Record<Role, number>;

  private constructor(
    readonly host: SshHost,
    readonly channel: HookChannel,
    readonly dir: string,
    offsets: Readonly<Record<Role, number>>,
    private statePath: string,
    private readonly clock: HostClock | null,
  ) {
    this.#offsets = { ...offsets };
    this.#save();
  }

  /** A new run's spool on the host, its state kept in `runDir`. */
  static async open(host: SshHost, runId: string, runDir: string): Promise<HostSpool> {
    const dir = await makeSpoolDir(host, runId);
    const clock = await readClock(host);
    const channel = await HookChannel.open();
    return new HostSpool(host, channel, dir, { planner: 0, builder: 0 }, join(runDir, HOST_HOOKS_FILE), clock);
  }

  /** The spool of a run picked up again: its secret (the agents' tokens) and offsets as `runDir` kept them; null when it kept none. */
  static async resume(host: SshHost, runDir: string): Promise<HostSpool | null> {
    const statePath = join(runDir, HOST_HOOKS_FILE);
    let state: HostHooksState;
    try {
      state = stateSchema.parse(JSON.parse(readFileSync(statePath, 'utf8')));
    } catch {
      return null;
    }
    const clock = await readClock(host);
    const channel = await HookChannel.open(state.secret);
    return new HostSpool(host, channel, state.dir, state.offsets, statePath, clock);
  }

  /** The role's spool file on the host. */
  fileFor(role: Role): string {
    return `${this.dir}/${role}.jsonl`;
  }

  env(role: Role): Record<string, string> {
    return { RELEVO_HOOK_FILE: this.fileFor(role), RELEVO_HOOK_TOKEN: this.channel.tokenFor(role), RELEVO_ROLE: role };
  }

  store(role: Role, kind: HookKind, from: 'stdin' | 'arg'): string {
    return appendCommand(this.fileFor(role), kind, from);
  }

  /** The file's path on the host; it is written there by `flush()`, before the agents start. */
  file(name: string, content: string): string {
    const path = `${this.dir}/${name}`;
    this.#pending.push({ path, content });
    return path;
  }

  /** Writes the files asked for (private, in the spool directory) on the host. */
  async flush(): Promise<void> {
    for (const { path, content } of this.#pending.splice(0))
      await onHost(this.host, ['sh', '-c', 'umask 077; cat > "$1"', 'sh', path], content);
  }

  /** Begins reading both roles' spool files from their offsets. */
  start(): void {
    for (const role of ROLES) {
      const tail = new SpoolTail(this.host, this.fileFor(role), this.#offsets[role], {
        line: (text, offset) => {
          this.#take(role, text);
          this.#offsets[role] = offset;
          this.#save();
        },
      });
      this.#tails.push(tail);
      tail.start();
    }
  }

  /** One line of the role's spool: its report handed to the channel (which checks the token), or refused with a reason. */
  #take(role: Role, text: string): void {
    const problem = this.#report(role, text);
    if (problem !== null) this.channel.reject(problem);
  }

  /** Hands the line's report on; or says what is wrong with it. */
  #report(role: Role, text: string): string | null {
    if (text.length > MAX_LINE) return `message over ${MAX_LINE} bytes`;
    let line: z.infer<typeof lineSchema>;
    let payload: unknown;
    try {
      line = lineSchema.parse(JSON.parse(text));
    } catch {
      return `malformed spool line (${role})`;
    }
    try {
      payload = JSON.parse(Buffer.from(line.b64, 'base64').toString('utf8'));
    } catch {
      return 'not JSON';
    }
    const at = line.at !== undefined && this.clock !== null ? localTimeOf(this.clock, line.at) : undefined;
    this.channel.deliver(role, line.kind, line.token, payload, at);
    return null;
  }

  /** Keeps the spool's state in `runDir` from now on (the next run of the same agents). */
  keepIn(runDir: string): void {
    this.statePath = join(runDir, HOST_HOOKS_FILE);
    this.#save();
  }

  #save(): void {
    const state: HostHooksState = { dir: this.dir, secret: this.channel.secret, offsets: this.#offsets };
    writeFileSync(this.statePath, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  }

  async close(): Promise<void> {
    await Promise.all(this.#tails.map((t) => t.close()));
    await this.channel.close();
  }
}
