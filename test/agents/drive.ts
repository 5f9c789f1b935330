/**
 * Driving the real CLIs the way relevo does (research/realagents §4): wait for the idle
 * prompt, bracketed paste, a pause, then CR as a separate write.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareVersions } from '../../src/protocol/index.js';
import type { Program as AgentTerminal } from '../helpers/pty/program.js';
import { processesWithEnv } from '../helpers/pty/tree.js';
import { sleep } from '../helpers/until.js';
import { cliVersion } from './homes.js';

/** test/bench still imports `sleep` from here. */
export { sleep };

const RULE = /^─{20,}$/;

/** Claude's input box: the rows between the last two full-width rules, if the first starts with `❯`. */
export function claudeBox(t: AgentTerminal): string[] | undefined {
  const lines = t.lines();
  const rules = lines.flatMap((l, i) => (RULE.test(l) ? [i] : []));
  const [top, bottom] = rules.slice(-2);
  if (top === undefined || bottom === undefined || !/^❯/.test(lines[top + 1] ?? '')) return undefined;
  return lines.slice(top + 1, bottom);
}

/** Claude is idle: input box on screen and `✳` in the title (beware: ✳ also shows during a permission prompt). */
export const claudeIdle = (t: AgentTerminal) => claudeBox(t) !== undefined && t.title.startsWith('✳');

/** Codex's composer: the last row starting with `› ` (history echoes use the same glyph, above it). */
export function codexComposer(t: AgentTerminal): string | undefined {
  return t.lines().findLast((l) => l.startsWith('› '));
}

/** Codex reports its turn state with OSC 7501 from 0.163 (`state=done` from 0.165). */
export function codexHasTurnStates(bin: string): boolean {
  return compareVersions(cliVersion(bin), '0.165.0') >= 0;
}

/**
 * Codex is idle: the composer is drawn, the status line (model name) below it, no spinner in the
 * title, and (releases that send OSC 7501) the last turn state said idle.
 */
export function codexIdle(t: AgentTerminal): boolean {
  const lines = t.lines();
  const composer = lines.findLastIndex((l) => l.startsWith('› '));
  const osc = t.osc7501.at(-1)?.data;
  return (
    composer >= 0 &&
    lines.slice(composer).some((l) => l.includes('gpt-fake')) &&
    !/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(t.title) &&
    (osc === undefined || osc.startsWith('state=idle'))
  );
}

/** Long pastes are shown collapsed: Claude `[Pasted text #1 +16 lines]`, Codex `[Pasted Content 1234 chars]`. */
const COLLAPSED = /\[Pasted (?:text|Content)\b/;

/** True when the agent's input area shows the start of `text` (or a collapsed paste). */
export function inputShows(agent: 'claude' | 'codex', t: AgentTerminal, text: string): boolean {
  const first = (text.split('\n')[0] ?? '').trim();
  const input = agent === 'claude' ? claudeBox(t)?.join('\n') : codexComposer(t);
  return input !== undefined && (input.includes(first) || COLLAPSED.test(input));
}

export type SubmitOptions = {
  readonly agent: 'claude' | 'codex';
  /** True once the turn started (in tests: the fake server got a new main-turn request). */
  readonly started: () => boolean;
  /** Pause between seeing the paste in the input area and sending CR. Default 100 ms. */
  readonly settleMs?: number;
  /** How long to wait for the turn to start before pressing CR again. Default 1500 ms. */
  readonly confirmMs?: number;
  readonly retries?: number;
};

/**
 * Delivers `text` the way that proved reliable, even on a loaded machine: bracketed paste,
 * wait until the input area shows it, pause, CR as a separate write; if the turn has not started
 * within `confirmMs` and the text is still in the input area, CR again.
 * (Claude drops a CR that arrives before it has rendered the paste: under load, 200 ms after the
 * paste was not enough — the paste took 250–650 ms to show.)
 * Returns where the title / OSC 7501 histories stood before the paste, and how many extra CRs it took.
 */
export async function submit(
  t: AgentTerminal,
  text: string,
  options: SubmitOptions,
): Promise<{ titleIndex: number; oscIndex: number; extraCRs: number }> {
  const mark = { titleIndex: t.titles.length, oscIndex: t.osc7501.length };
  t.paste(text);
  await t.waitFor('the paste in the input area', () => inputShows(options.agent, t, text), 10_000);
  await sleep(options.settleMs ?? 100);
  t.write('\r');
  let extraCRs = 0;
  for (;;) {
    const deadline = Date.now() + (options.confirmMs ?? 1500);
    while (!options.started() && Date.now() < deadline) await sleep(25);
    if (options.started()) return { ...mark, extraCRs };
    await t.flush();
    if (extraCRs >= (options.retries ?? 2) || !inputShows(options.agent, t, text)) {
      throw new Error(`the turn did not start after ${extraCRs + 1} CR(s); screen:\n${t.screen()}`);
    }
    t.write('\r');
    extraCRs++;
  }
}

/** Asserts each non-blank line of `text` appears on the screen rows, in order (Codex drops blank lines, both CLIs indent). */
export function linesInOrder(screen: readonly string[], text: string): boolean {
  let row = 0;
  for (const want of text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '')) {
    while (row < screen.length && !screen[row]!.includes(want)) row++;
    if (row === screen.length) return false;
    row++;
  }
  return true;
}

/** Claude Code's busy title spinners: braille (2.1.197), ◐◓◑◒ (2.1.332). */
const CLAUDE_SPINNER = /^[\u2800-\u28ff◐◓◑◒]/;

/** True once the titles from `from` on went through a spinner and then to one starting with `✳`. */
export function claudeTitleWentBusyThenIdle(t: AgentTerminal, from: number): boolean {
  const later = t.titles.slice(from).map((x) => x.title);
  const busy = later.findIndex((title) => CLAUDE_SPINNER.test(title));
  return busy >= 0 && later.slice(busy + 1).some((title) => title.startsWith('✳'));
}

/**
 * Approves Claude Code's permission prompt ("Do you want to proceed? ❯ 1. Yes") the way a person
 * would. A prompt ignores keys for a moment after it opens (so a key meant for something else does
 * not answer it): Enter goes a second after the prompt is seen.
 */
export async function answerPermission(type: (keys: string) => void, screen: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (/^\s*❯ 1\. Yes/m.test(screen())) {
      await sleep(1000);
      type('\r');
      return;
    }
    await sleep(100);
  }
  throw new Error(`no permission prompt to answer; screen:\n${screen()}`);
}

/**
 * A hook / notify program that saves what it received: `stdin` mode (Claude hooks, Codex hooks)
 * or `argv1` mode (Codex notify). Each call writes `<dir>/<name>-<pid>.json`.
 */
export function recorderScript(dir: string, name: string, mode: 'stdin' | 'argv1'): string {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, `${name}.sh`);
  const save = mode === 'stdin' ? `cat > "${dir}/${name}-$$.json"` : `printf '%s' "$1" > "${dir}/${name}-$$.json"`;
  writeFileSync(script, `#!/bin/sh\n${save}\n`);
  chmodSync(script, 0o755);
  return script;
}

/** The JSON payloads a recorder script saved so far (in directory order). */
export function recorded(dir: string, name: string): unknown[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.json'))
    .flatMap((f) => {
      try {
        return [JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown];
      } catch {
        return []; // still being written
      }
    });
}

/** Parses a JSON-lines file. */
export function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Every file below `dir` whose name ends with `suffix`. */
export function findFiles(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix))
    .map((f) => join(dir, f));
}

/**
 * Kills anything still alive whose environment mentions `marker` (a throwaway HOME):
 * returns the pids found, so a test can fail when something (a Codex daemon…) outlived the CLI.
 */
export async function reapLeftovers(marker: string): Promise<number[]> {
  const found = processesWithEnv(marker);
  for (const pid of found) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  return found;
}
