/** Panes without a pseudo-terminal, for unit tests of delivery, AgentPane and the runner: a real screen, a scripted program. */
import { type ProfileData, profileSchema } from '../../src/protocol/index.js';
import { Emitter } from '../../src/pty/emitter.js';
import type { Pane, PaneExit } from '../../src/pty/pane.js';
import { compileProfile, type Profile } from '../../src/pty/profile.js';
import { Screen } from '../../src/pty/screen.js';

/** One thing relevo (or a person) sent the program: keys as typed, or one paste. */
export type Input = { readonly keys: string } | { readonly paste: string };

/** A Pane whose program is a test: it sees every input and draws on a real (headless) screen. */
export class FakePane implements Pane {
  readonly where = 'fake';
  readonly owned = true;
  readonly cwd = null;
  readonly screen: Screen;
  readonly #onUpdate = new Emitter<void>();
  readonly #onExit = new Emitter<PaneExit>();
  readonly onUpdate = this.#onUpdate.event;
  readonly onExit = this.#onExit.event;
  /** Everything sent to the program, in order. */
  readonly inputs: Input[] = [];
  /** The program: called with each input (after it is recorded). */
  program: (input: Input, pane: FakePane) => void = () => {};
  #exit: PaneExit | null = null;
  #lastChangeAt = Date.now();

  constructor(cols = 100, rows = 30) {
    this.screen = new Screen({ cols, rows });
  }

  get exited(): PaneExit | null {
    return this.#exit;
  }

  /** The program prints: the screen parses it, then the pane reports an update. */
  async draw(text: string): Promise<void> {
    this.#lastChangeAt = Date.now();
    await this.screen.write(text);
    this.#onUpdate.fire();
  }

  quietFor(now = Date.now()): number {
    return now - this.#lastChangeAt;
  }

  write(data: string): void {
    if (this.#exit !== null) return;
    this.inputs.push({ keys: data });
    this.program({ keys: data }, this);
  }

  paste(text: string): void {
    if (this.#exit !== null) return;
    this.inputs.push({ paste: text });
    this.program({ paste: text }, this);
  }

  /** The pastes the program received, in order. */
  get pastes(): string[] {
    return this.inputs.flatMap((i) => ('paste' in i ? [i.paste] : []));
  }

  resize(_cols: number, _rows: number): void {}

  /** The program ends (it died, or was killed). */
  exit(exitCode = 0, signal?: number): void {
    if (this.#exit !== null) return;
    this.#exit = { exitCode, ...(signal !== undefined ? { signal } : {}) };
    this.#onExit.fire(this.#exit);
  }

  async kill(): Promise<void> {
    this.exit(0, 15);
  }

  dispose(): void {
    this.#onUpdate.dispose();
    this.#onExit.dispose();
    this.screen.dispose();
  }
}

/**
 * A profile for a line agent: `>` is its input line (what follows is the text in the box), `» ` the
 * echo of a submitted message, a bottom line with `working` means busy, one with `allow? [y/n]` blocked. No hook, no transcript: replies
 * come from the screen. The role prompt goes by a launch flag, so messages carry no preamble.
 */
export function lineAgentProfile(
  deliver: Partial<ProfileData['deliver']> = {},
  detect: { quiet_ms?: number; evidence_quiet_ms?: number; rules?: unknown[] } = {},
): Profile {
  return compileProfile(
    profileSchema.parse({
      id: 'line-agent',
      version: 1,
      description: 'a line agent drawn by the tests',
      match: { commands: [], args: [] },
      launch: { role_prompt_args: ['--role', '{prompt}'] },
      detect: {
        quiet_ms: 50,
        require_busy: true,
        rules: [
          { id: 'asks-permission', state: 'blocked', priority: 200, region: 'bottom', lines: 1, contains: 'allow? [y/n]' },
          { id: 'working', state: 'busy', priority: 100, region: 'bottom', lines: 1, contains: 'working' },
          { id: 'input-line', state: 'idle', priority: 50, region: 'bottom', lines: 1, regex: '^>( |$)' },
          ...(detect.rules ?? []),
        ],
        ...(detect.quiet_ms === undefined ? {} : { quiet_ms: detect.quiet_ms }),
        ...(detect.evidence_quiet_ms === undefined ? {} : { evidence_quiet_ms: detect.evidence_quiet_ms }),
      },
      deliver: { settle_ms: 0, confirm_ms: 300, retries: 2, ...deliver },
      reply: { echo: '^» ', prompt: '^>(?: (.*))?$' },
    }),
  );
}

/**
 * Makes `pane` a line agent answering with `answer(what it was sent)`: a paste shows in its input line,
 * Enter echoes it and works for `workMs` (long enough for the busy screen to be evaluated under load:
 * the profile needs busy seen before a turn can end), then the reply is printed above a fresh input line.
 */
export function lineAgent(pane: FakePane, answer: (sent: string) => string, workMs = 250): FakePane {
  let box = '';
  void pane.draw('>');
  pane.program = (input) => {
    if ('paste' in input) {
      box += input.paste;
      void pane.draw(`\r\x1b[K> ${box.split('\n')[0]}`);
      return;
    }
    if (input.keys !== '\r' || box === '') return;
    const sent = box;
    box = '';
    void pane.draw(`\r\x1b[K» ${sent.split('\n')[0]}\r\nworking`);
    setTimeout(() => {
      if (pane.exited === null) void pane.draw(`\r\x1b[K${answer(sent).split('\n').join('\r\n')}\r\n>`);
    }, workMs);
  };
  return pane;
}
