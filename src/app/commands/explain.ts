import { readFileSync } from 'node:fs';
import type { Explanation, RuleVerdict } from '../../protocol/index.js';
import { explainDetection } from '../../pty/explain.js';
import type { Profile } from '../../pty/profile.js';
import { parseScreenFile } from '../../pty/screen-file.js';
import { parseFlags } from '../config/args.js';
import { loadProfile, shippedProfileNames } from '../config/profiles.js';
import { EXPLAIN_USAGE } from '../config/usage.js';
import { ConfigError } from '../faults/errors.js';

type Io = { readonly stdout: NodeJS.WritableStream; readonly stderr: NodeJS.WritableStream };

const CONTEXT = { where: 'explain', hint: `usage: ${EXPLAIN_USAGE}` };

/** Where a matched rule stands against the one that decided. */
function standing(v: RuleVerdict, decided: RuleVerdict | undefined): string {
  if (!v.matched) return 'no match';
  if (v.id === decided?.id) return 'matched, decided';
  if (decided === undefined) return 'matched';
  return decided.priority > v.priority
    ? `matched, outranked by ${decided.id} (${decided.priority} > ${v.priority})`
    : `matched, ${decided.id} came first at priority ${v.priority}`;
}

/**
 * An explanation as a person reads it: the state and what decided it, then every rule in the
 * profile's order with whether it matched and why, and the text it saw.
 */
export function formatExplanation(profile: string, e: Explanation): string {
  const decided = e.rules.find((r) => r.id === e.rule);
  const head =
    decided !== undefined
      ? [`${profile}: ${e.state}, decided by ${decided.id} (priority ${decided.priority}, ${decided.region})`, `  saw: ${decided.evidence}`]
      : [`${profile}: ${e.state}${e.rule === null ? '' : ` (${e.rule})`}`, `  ${e.fallback ?? ''}`];
  // A usage limit pauses the relay with `rate_limited` until the reset the screen gives (else until a resume).
  if (e.state === 'limited')
    head.push(
      `  the relay pauses: rate_limited, ${e.reset !== undefined ? `going on at the reset (${e.reset})` : 'no reset time read: until you resume'}`,
    );
  const rules = e.rules.flatMap((v) => [
    `  ${v.id} (${v.state}${v.ends_turn ? ', ends the turn' : ''}, priority ${v.priority}, ${v.region}): ${standing(v, decided)}`,
    `    ${v.why}`,
    `    ${v.matched ? 'saw' : 'held'}: ${v.evidence}`,
  ]);
  return `${[...head, '', "Every rule, in the profile's order:", ...rules].join('\n')}\n`;
}

function screenText(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : (error as Error).message.split('\n')[0];
    throw new ConfigError('explain', `cannot read ${path}: ${reason}`);
  }
}

/** One screen explained: as text (with the header's expectation), or as a JSON line. */
function explainOne(profile: Profile, file: string, text: string, json: boolean): { out: string; differs: boolean } {
  const { snapshot, rule: expected } = parseScreenFile(text);
  const explanation = explainDetection(profile.rules, snapshot);
  const differs = expected !== null && expected !== explanation.rule;
  if (json) return { out: `${JSON.stringify({ file, profile: profile.data.id, ...explanation, expected })}\n`, differs };
  const verdict = expected === null ? '' : `\nThe file's rule: header expects ${expected}: ${differs ? 'it differs' : 'as decided'}\n`;
  return { out: `${formatExplanation(profile.data.id, explanation)}${verdict}`, differs };
}

/**
 * `relevo-tui explain --profile NAME SCREEN…`: how a profile's rules read saved screens. Exit 0, or
 * 1 when a file's `rule:` header names another rule than the one that decided; 2 for bad usage.
 */
export function runExplain(args: readonly string[], io: Io): number {
  try {
    const { values, positionals } = parseFlags(args, { profile: { type: 'string' }, json: { type: 'boolean', default: false } }, CONTEXT);
    if (values.profile === undefined || values.profile === '')
      throw new ConfigError('explain', `which profile? --profile NAME (known: ${shippedProfileNames().join(', ')}; or a .toml path)`);
    if (positionals.length === 0)
      throw new ConfigError('explain', `which screen? give a SCREEN.txt file, or - for stdin (${CONTEXT.hint})`);
    const profile = loadProfile(values.profile, '--profile');
    // Every file read before anything is printed: a bad one is one line on stderr and nothing else.
    const screens = positionals.map((file) => ({ file, text: screenText(file) }));
    const results = screens.map(({ file, text }) => ({ file, ...explainOne(profile, file, text, values.json) }));
    const titled = results.length > 1 && !values.json;
    // One write: a reader that stops early (| head) closes the pipe once, not under a second write.
    io.stdout.write(results.map((r) => (titled ? `==> ${r.file} <==\n${r.out}` : r.out)).join(titled ? '\n' : ''));
    return results.some((r) => r.differs) ? 1 : 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`relevo-tui: ${error.toString()}\n`);
      return 2;
    }
    io.stderr.write(`relevo-tui: explain: ${(error as Error).message.split('\n')[0]}\n`);
    return 1;
  }
}
