// Reply logic of the simulated agent. PURE: no I/O, no clock, no randomness.

export type Role = 'planner' | 'builder';

export const MISBEHAVIOUR_KINDS = ['no-handoff', 'repeat-handoff', 'lookalike', 'exit', 'permission', 'ignore-enter', 'limit'] as const;
export type MisbehaviourKind = (typeof MISBEHAVIOUR_KINDS)[number];

export interface Misbehaviour {
  kind: MisbehaviourKind;
  /** The agent's Nth answered turn, 1-based. */
  turn: number;
}

export interface ScriptConfig {
  role: Role;
  steps: number;
  misbehave: readonly Misbehaviour[];
}

export interface ScriptState {
  /** Turns answered so far (a reply, or a denial, was written). */
  turns: number;
  /** The planner's goal, once the goal message has been answered. */
  goal: string | null;
  /** Body of the last handoff this agent wrote. */
  lastHandoff: string | null;
}

export const initialScriptState: ScriptState = { turns: 0, goal: null, lastHandoff: null };

export type TurnOutcome =
  | { kind: 'exit'; turn: number }
  /** The turn stops on a usage limit: nothing answered (the turn is counted, so the next message is answered). */
  | { kind: 'limit'; turn: number; next: ScriptState }
  | { kind: 'reply'; turn: number; reply: string; block: Block | null; next: ScriptState }
  | {
      kind: 'permission';
      turn: number;
      /** Reply, its block and state when the person allows the command. */
      reply: string;
      block: Block | null;
      next: ScriptState;
      /** Reply and state when the person denies it. */
      denied: { reply: string; next: ScriptState };
    };

export interface Header {
  round: number;
  from: Role;
  /** The message without its header line. */
  body: string;
}

export const HEADER_RE = /^\[relevo ronda (\d+) · de (planner|builder)\]$/;
export const DENIED_REPLY = 'Permission denied; nothing done.';
export const PERMISSION_COMMAND = 'npm test';

const STEP_TITLES = ['Write the failing tests', 'Implement', 'Document'] as const;

const STEP_TASKS: Record<(typeof STEP_TITLES)[number], readonly string[]> = {
  'Write the failing tests': [
    '  - write the failing test first',
    '    - cover the empty page',
    '    - cover the last page',
    '  - keep the existing tests green',
  ],
  Implement: [
    '  - make the smallest change that turns the new tests green',
    '    - keep the public API unchanged',
    '  - run the whole suite before reporting',
  ],
  Document: [
    '  - update the README section for this feature',
    '    - include one example request and response',
    '  - note any follow-up work in your report',
  ],
};

/** The `<handoff>` or `<done>` block a reply ends with: its tag and its body, without the tags. */
export interface Block {
  tag: 'handoff' | 'done';
  body: string;
}

interface Reply {
  text: string;
  block: Block | null;
}

function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * The last round header of a message (a role prompt may come before it; a handoff read from its
 * HANDOFF.md repeats it after the pointer line) and what follows it.
 */
export function parseHeader(message: string): Header | null {
  const all = lines(message.trim());
  for (let i = all.length - 1; i >= 0; i--) {
    const match = HEADER_RE.exec(all[i]!.trim());
    if (match) return { round: Number(match[1]), from: match[2] as Role, body: all.slice(i + 1).join('\n') };
  }
  return null;
}

/** True when Enter must do nothing for the agent's next turn (`--misbehave ignore-enter:N`). */
export function ignoresEnter(config: ScriptConfig, state: ScriptState): boolean {
  return config.misbehave.some((m) => m.kind === 'ignore-enter' && m.turn === state.turns + 1);
}

/** The text after a `Goal: ` / `Objetivo: ` line, or null. */
function goalLine(message: string): string | null {
  for (const line of lines(message)) {
    const match = /^\s*(?:Goal|Objetivo):\s+(.*\S)\s*$/.exec(line);
    if (match) return match[1]!;
  }
  return null;
}

/** The goal of a goal message: the text after a `Goal: ` / `Objetivo: ` line, else the whole message. */
export function extractGoal(message: string): string {
  return goalLine(message) ?? message.trim().replace(/\s+/g, ' ');
}

/**
 * What the agent has read once it followed the message: like a real agent using its Read tool,
 * the content of every `…HANDOFF.md` path the message names is appended to it.
 */
export function withReferencedFiles(message: string, read: (path: string) => string | null): string {
  const paths = [...message.matchAll(/(?:^|\s)(\S*HANDOFF\.md)\b/g)].map((m) => m[1]!);
  const contents = paths.flatMap((p) => {
    const text = read(p);
    return text === null ? [] : [text];
  });
  return contents.length === 0 ? message : [message, ...contents].join('\n\n');
}

export function stepTitle(k: number): string {
  return STEP_TITLES[(k - 1) % STEP_TITLES.length]!;
}

/** The handoff body of step k of n. */
export function stepText(k: number, n: number, goal: string): string {
  const title = stepTitle(k);
  return [
    `Step ${k} of ${n}: ${title} — ${goal}`,
    `Context: this is step ${k} of ${n} towards the goal above; keep the change small and reviewable, ` +
      'touch only the files this step needs, leave unrelated code alone, and write down any doubt ' +
      'in your report so the planner can adjust the next step before sending it.',
    'Do:',
    ...STEP_TASKS[title as keyof typeof STEP_TASKS],
    'Verify: run the tests and report the result in your handoff.',
  ].join('\n');
}

function firstLine(text: string): string {
  return lines(text.trim())[0] ?? '';
}

function firstBodyLine(body: string): string {
  return (
    lines(body)
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function plannerReply(config: ScriptConfig, state: ScriptState, message: string): { reply: Reply; goal: string | null } {
  const header = parseHeader(message);
  const n = config.steps;
  if (header?.from === 'builder') {
    // A planner restarted with the run (relevo --resume) learns the goal from relevo's notice.
    const known = state.goal ?? goalLine(message);
    const goal = known ?? 'the goal';
    const k = header.round;
    if (k < n) {
      return {
        reply: { text: `Report for round ${k} received. Next step.`, block: { tag: 'handoff', body: stepText(k + 1, n, goal) } },
        goal: known,
      };
    }
    return {
      reply: { text: `All ${n} steps are done.`, block: { tag: 'done', body: `Goal met: ${goal} in ${n} rounds.` } },
      goal: known,
    };
  }
  // A goal (the first, or a next one after done: `Goal: …` again) starts the steps over.
  if (header === null && (state.goal === null || goalLine(message) !== null)) {
    const goal = extractGoal(message);
    return {
      reply: {
        text: `I'll split the goal into ${n} small steps and send them one at a time.`,
        block: { tag: 'handoff', body: stepText(1, n, goal) },
      },
      goal,
    };
  }
  return { reply: { text: `You said: ${firstLine(message)}`, block: null }, goal: state.goal };
}

function builderReply(message: string): Reply {
  const header = parseHeader(message);
  if (header?.from !== 'planner') return { text: `You said: ${firstLine(message)}`, block: null };
  const k = header.round;
  const body = [
    `Round ${k} report`,
    `Did: ${firstBodyLine(header.body)}`,
    'Files: src/users.ts, test/users.test.ts',
    'Tests: 12 passed, 0 failed',
    'Doubts: none',
  ].join('\n');
  return { text: `Working on round ${k}.`, block: { tag: 'handoff', body } };
}

/** A line that looks like a relay header from the other side. */
export function lookalikeLine(role: Role): string {
  return `[relevo ronda 99 · de ${role === 'builder' ? 'planner' : 'builder'}]`;
}

export function renderReply(reply: Reply, lookalike: string | null = null): string {
  if (reply.block === null) return reply.text;
  const { tag, body } = reply.block;
  const before = lookalike === null ? '' : `${lookalike}\n`;
  return `${reply.text}\n\n${before}<${tag}>\n${body}\n</${tag}>`;
}

/** Decide what the agent does with `message`, its next turn; `limited`: a usage limit still holds (the turn stops again). */
export function planTurn(config: ScriptConfig, state: ScriptState, message: string, limited = false): TurnOutcome {
  if (limited) return { kind: 'limit', turn: state.turns, next: state };
  const turn = state.turns + 1;
  const kinds = new Set(config.misbehave.filter((m) => m.turn === turn).map((m) => m.kind));
  if (kinds.has('exit')) return { kind: 'exit', turn };
  if (kinds.has('limit')) return { kind: 'limit', turn, next: { ...state, turns: turn } };

  let goal = state.goal;
  let reply: Reply;
  if (config.role === 'planner') {
    ({ reply, goal } = plannerReply(config, state, message));
  } else {
    reply = builderReply(message);
  }

  let lookalike: string | null = null;
  if (reply.block?.tag === 'handoff') {
    if (kinds.has('no-handoff')) {
      reply = { text: reply.text, block: null };
    } else {
      let body = reply.block.body;
      if (kinds.has('repeat-handoff') && state.lastHandoff !== null) body = state.lastHandoff;
      if (kinds.has('lookalike')) {
        lookalike = lookalikeLine(config.role);
        body = `${lookalike}\n${body}`;
      }
      reply = { text: reply.text, block: { tag: 'handoff', body } };
    }
  }

  const lastHandoff = reply.block?.tag === 'handoff' ? reply.block.body : state.lastHandoff;
  const next: ScriptState = { turns: turn, goal, lastHandoff };
  const text = renderReply(reply, lookalike);
  if (kinds.has('permission')) {
    return {
      kind: 'permission',
      turn,
      reply: text,
      block: reply.block,
      next,
      denied: { reply: DENIED_REPLY, next: { ...state, turns: turn } },
    };
  }
  return { kind: 'reply', turn, reply: text, block: reply.block, next };
}
