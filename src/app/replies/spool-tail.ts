/**
 * Reads a file on a host as it grows, from a byte offset, through the host's ssh master: whole
 * lines only, each handed on with the offset just past it. When the connection drops, reading
 * starts again (after a back-off) from the offset past the last line handed on: no line is missed,
 * none is read twice.
 */
import { execa } from 'execa';
import { retryDelayMs, type SshHost, sshArgv } from '../../pty/backends/ssh.js';

/**
 * The fixed remote command: `tail -f` from byte `$2 + 1` of file `$1`, ended when ssh's stdin
 * closes (relevo stops reading) or after `$3` seconds (a session whose client vanished unseen, a
 * dropped link, leaves no `tail` for long); exit 3 says it ended so, and reading goes on at once.
 */
const TAIL = [
  '[ -f "$1" ] || exit 1',
  'exec 3<&0',
  'tail -c "+$2" -f "$1" & t=$!',
  '{ cat <&3 >/dev/null; kill "$t"; } >/dev/null 2>&1 &',
  '{ sleep "$3"; kill "$t"; } >/dev/null 2>&1 & s=$!',
  'wait "$t"; kill "$s" 2>/dev/null; exit 3',
].join('\n');
const ENDED = 3;
/** How long one remote `tail` runs before the next takes over. */
const SESSION_SECONDS = 300;
const NEWLINE = 0x0a;
const OPTIONS = { reject: false, stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', buffer: false } as const;
const tailProcess = (argv: readonly string[]) => execa(argv[0]!, argv.slice(1), OPTIONS);

export type SpoolTailEvents = {
  /** A whole line (without its newline) and the offset just past it: the offset to persist. */
  readonly line: (text: string, offset: number) => void;
  /** The reader lost the host (ssh's exit) and tries again at `retryAt` (ms since the epoch). */
  readonly down?: (retryAt: number) => void;
};

export class SpoolTail {
  #offset: number;
  #child: ReturnType<typeof tailProcess> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;

  constructor(
    private readonly host: SshHost,
    private readonly path: string,
    offset: number,
    private readonly on: SpoolTailEvents,
    private readonly sessionSeconds = SESSION_SECONDS,
  ) {
    this.#offset = offset;
  }

  /** The offset past the last line handed on. */
  get offset(): number {
    return this.#offset;
  }

  start(): void {
    if (this.#closed || this.#child !== null) return;
    const remote = ['sh', '-c', TAIL, 'sh', this.path, String(this.#offset + 1), String(this.sessionSeconds)];
    const child = tailProcess(sshArgv(this.host, remote));
    this.#child = child;
    let pending: Buffer = Buffer.alloc(0);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.#closed || this.#child !== child) return;
      this.#failures = 0;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (let nl = pending.indexOf(NEWLINE); nl >= 0; nl = pending.indexOf(NEWLINE)) {
        const text = pending.subarray(0, nl).toString('utf8');
        pending = pending.subarray(nl + 1);
        this.#offset += nl + 1;
        this.on.line(text, this.#offset);
      }
    });
    void child.then(({ exitCode }) => {
      if (this.#child !== child) return;
      this.#child = null;
      if (this.#closed) return;
      // A partial line is dropped: it is read again, whole, from the offset past the last line.
      if (exitCode === ENDED) return this.start();
      this.#failures++;
      const delay = retryDelayMs(this.#failures);
      this.on.down?.(Date.now() + delay);
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.start();
      }, delay);
    });
  }

  /** Stops reading: the remote `tail` ends with ssh's stdin. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    const child = this.#child;
    this.#child = null;
    if (child === null) return;
    child.stdin?.end();
    const ended = setTimeout(() => child.kill(), 2000);
    await child;
    clearTimeout(ended);
  }
}
