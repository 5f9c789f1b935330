import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InstalledAgent, installedAgents } from './installed.js';
import { CONFIG_FILE } from './relevo-toml.js';
import { z } from './zod-mini.js';

// The agents a person picked when nothing named them: remembered in the state dir, or written to relevo.toml on request.

/** The programs picked for each role (`claude`, `codex`): a command line as `--planner`/`--builder` take it. */
export type AgentChoice = { readonly planner: string; readonly builder: string };

/** `<state-dir>/agents.json`: the last choice, the picker's default next time. */
export const CHOICE_FILE = 'agents.json';

const command = z.string().check(z.minLength(1));
const choiceSchema = z.object({ planner: command, builder: command });

/** The remembered choice, when there is one and it can be read (anything else is no choice). */
export function rememberedChoice(stateDir: string): AgentChoice | null {
  try {
    const parsed = choiceSchema.safeParse(JSON.parse(readFileSync(join(stateDir, CHOICE_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the choice for the next time (written whole, then renamed into place). */
export function rememberChoice(stateDir: string, choice: AgentChoice): void {
  mkdirSync(stateDir, { recursive: true });
  const path = join(stateDir, CHOICE_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify({ planner: choice.planner, builder: choice.builder }, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/**
 * What the picker starts on: the remembered choice when both programs are still found, else the
 * first two found (the only one for both roles when there is one).
 */
export function defaultChoice(found: readonly InstalledAgent[], remembered: AgentChoice | null): AgentChoice | null {
  const programs = found.map((a) => a.program);
  if (remembered && programs.includes(remembered.planner) && programs.includes(remembered.builder)) return remembered;
  const [first, second] = programs;
  return first === undefined ? null : { planner: first, builder: second ?? first };
}

/** What a run with nothing naming its agents starts on: the agents on the PATH, and the default among them (which may be the remembered choice). */
export type UnnamedChoice = {
  readonly found: readonly InstalledAgent[];
  readonly choice: AgentChoice | null;
  readonly remembered: boolean;
};

/** The picker's start when nothing names the agents: the agent CLIs on `path`, and `defaultChoice` over the one remembered in `stateDir`. */
export function unnamedChoice(stateDir: string, path: string): UnnamedChoice {
  const found = installedAgents(path);
  const remembered = rememberedChoice(stateDir);
  const choice = defaultChoice(found, remembered);
  return { found, choice, remembered: choice !== null && choice === remembered };
}

/** Offered only when there is no relevo.toml in `cwd`: one is never overwritten. */
export const canWriteConfig = (cwd: string): boolean => !existsSync(join(cwd, CONFIG_FILE));

/** Writes `relevo.toml` naming the agents; refuses (EEXIST) when one appeared meanwhile. */
export function writeConfig(cwd: string, choice: AgentChoice): string {
  const path = join(cwd, CONFIG_FILE);
  const toml = (s: string) => JSON.stringify(s);
  writeFileSync(path, `# written by relevo-tui's agent picker\nplanner = ${toml(choice.planner)}\nbuilder = ${toml(choice.builder)}\n`, {
    flag: 'wx',
  });
  return path;
}
