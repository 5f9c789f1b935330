// Command-line flags of `relevo-tui sim-agent`.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { MISBEHAVIOUR_KINDS, type Misbehaviour, type Role } from './script.js';

export interface SimOptions {
  role: Role;
  steps: number;
  thinkMs: number;
  misbehave: Misbehaviour[];
  appendSystemPrompt: string | undefined;
  name: string;
  /**
   * Append every message received (`{"text": …}`) and every block printed at the end of a turn
   * (`{"handoff": …}`, `{"done": …}`: its body as on screen, without the tags) to this JSON-lines file.
   */
  record: string | undefined;
  /** A Claude Code-style settings file whose `Stop` hooks run at the end of every answered turn. */
  settings: string | undefined;
}

export type ParseResult = { ok: true; options: SimOptions } | { ok: false; error: string };

/** Marker in an appended system prompt that makes the sim a builder when --role is absent. */
export const BUILDER_MARKER = '# relevo: builder';

const MAX_TIMER_MS = 2_147_483_647; // setTimeout's limit

const STRING_FLAGS = ['role', 'steps', 'think-ms', 'misbehave', 'append-system-prompt', 'name', 'record', 'settings'] as const;

function integer(min: number, max: number, error: string) {
  return z
    .string()
    .regex(/^\d+$/, { error })
    .transform((text) => Number(text))
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { error });
}

const misbehaveError = `expected KIND:TURN with KIND one of ${MISBEHAVIOUR_KINDS.join(', ')} and TURN a positive integer`;

const misbehaviour = z
  .string()
  .regex(new RegExp(`^(${MISBEHAVIOUR_KINDS.join('|')}):([1-9]\\d*)$`), { error: misbehaveError })
  .transform((text): Misbehaviour => {
    const [kind, turn] = text.split(':') as [Misbehaviour['kind'], string];
    return { kind, turn: Number(turn) };
  });

const flagsSchema = z.object({
  role: z.enum(['planner', 'builder'], { error: 'expected planner or builder' }).optional(),
  steps: integer(1, 1000, 'expected a positive integer').optional(),
  'think-ms': integer(0, MAX_TIMER_MS, 'expected a non-negative integer').optional(),
  misbehave: z.array(misbehaviour).optional(),
  'append-system-prompt': z.string().optional(),
  name: z
    .string()
    .regex(/^[^\p{Cc}]+$/u, { error: 'expected a non-empty name without control characters' })
    .optional(),
  record: z.string().min(1, { error: 'expected a file path' }).optional(),
  settings: z.string().min(1, { error: 'expected a file path' }).optional(),
});

/**
 * parseArgs refuses option values that start with a dash (`--think-ms -5`,
 * `--append-system-prompt "- be brief"`); a real agent CLI takes them, so join
 * such pairs into `--flag=value` first.
 */
function joinDashValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const flag = arg.startsWith('--') ? arg.slice(2) : '';
    const next = args[i + 1];
    const takesValue = (STRING_FLAGS as readonly string[]).includes(flag);
    if (takesValue && next?.startsWith('-')) {
      if (flag === 'append-system-prompt' || !next.startsWith('--')) {
        out.push(`${arg}=${next}`);
        i += 1;
        continue;
      }
    }
    out.push(arg);
  }
  return out;
}

function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const flag = quoted.split(' ')[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `${flag}: unknown option`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${flag}: expected a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    default:
      return message.split('\n')[0] ?? message;
  }
}

export function parseSimArgs(args: readonly string[]): ParseResult {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: joinDashValues(args),
      options: {
        role: { type: 'string' },
        steps: { type: 'string' },
        'think-ms': { type: 'string' },
        misbehave: { type: 'string', multiple: true },
        'append-system-prompt': { type: 'string' },
        name: { type: 'string' },
        record: { type: 'string' },
        settings: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, error: `sim-agent: ${describeParseError(error)}` };
  }
  const parsed = flagsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = issue?.path[0] !== undefined ? `--${String(issue.path[0])}: ` : '';
    return { ok: false, error: `sim-agent: ${flag}${issue?.message ?? 'invalid arguments'}` };
  }
  const flags = parsed.data;
  const appendSystemPrompt = flags['append-system-prompt'];
  const role: Role = flags.role ?? (appendSystemPrompt?.includes(BUILDER_MARKER) ? 'builder' : 'planner');
  return {
    ok: true,
    options: {
      role,
      steps: flags.steps ?? 3,
      thinkMs: flags['think-ms'] ?? 800,
      misbehave: flags.misbehave ?? [],
      appendSystemPrompt,
      name: flags.name ?? 'sim',
      record: flags.record,
      settings: flags.settings,
    },
  };
}
