import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError } from '../faults/errors.js';
import { didYouMean } from './nearest.js';

type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/**
 * How a command names itself in an argument error: `where` leads the line (`relevo-tui: <where>: …`),
 * `hint` says where the right usage is (`see --help`, or the command's usage line).
 */
export type FlagsContext = { readonly where: string; readonly hint: string };

/** The one flag a node:util parseArgs error message quotes (`'--goal <value>'` and `'-h, --help'` name `--goal` and `-h`). */
const quotedFlag = (message: string): string | undefined => /'(-[^',\s]*)/.exec(message)?.[1];

/** A node:util parseArgs error as one line naming the flag and what is wrong with it. */
export function flagsError(error: Error, context: FlagsContext, known: readonly string[] = []): ConfigError {
  const flag = quotedFlag(error.message);
  const firstLine = error.message.split('\n')[0] ?? 'invalid option';
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new ConfigError(
        context.where,
        `unknown option ${flag ?? ''}${flag?.startsWith('--') ? didYouMean(flag.slice(2), known, (n) => `--${n}`) : ''} (${context.hint})`,
      );
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // A string flag followed by another flag: the value may be meant to start with a dash.
      if (flag && /ambiguous/.test(error.message))
        return new ConfigError(flag, `needs a value (for one starting with a dash, write ${flag}=VALUE)`);
      if (flag && /argument missing/.test(error.message)) return new ConfigError(flag, 'needs a value');
      if (flag) return new ConfigError(flag, 'takes no value');
      return new ConfigError(context.where, firstLine);
    default:
      return new ConfigError(context.where, firstLine);
  }
}

/** A positional argument the command does not take. */
export const unexpectedArgument = (arg: string | undefined, context: FlagsContext): ConfigError =>
  new ConfigError(context.where, `unexpected argument ${arg ?? ''} (${context.hint})`);

/**
 * `args` parsed against `options` (strict: an unknown flag is an error); positionals are returned for
 * the command to judge. A parse error throws a ConfigError (see flagsError).
 */
export function parseFlags<const O extends FlagSpec>(args: readonly string[], options: O, context: FlagsContext) {
  const config = { args: [...args], options, strict: true, allowPositionals: true } as const;
  try {
    return parseArgs(config);
  } catch (error) {
    throw flagsError(error as Error, context, Object.keys(options));
  }
}
