/** The messages relevo types, as the machine builds them: what goes before them, and a handoff's text. */

import { bodySize, checkpointPath } from './checkpoint-layout.js';
import { relayFileMessage, relayMessage, resumeContext, rolePrompt, staleNotice, withNote } from './prompts.js';
import type { HandoffMessage, RelayConfig, RelayState } from './relay-types.js';
import { peerOf, type Role } from './roles.js';

/** What goes before a message: the role prompt for an agent without a launch flag for it, and a STALE notice. */
export function preambleFor(config: RelayConfig, state: RelayState, to: Role): string | null {
  const parts: string[] = [];
  if (config.inlineRolePrompt[to] && !state.introduced[to]) parts.push(rolePrompt(to, config.lang));
  if (state.stale !== null) parts.push(staleNotice(config.lang, state.stale));
  return parts.length === 0 ? null : parts.join('\n\n');
}

/**
 * A handoff message from `from`, its checkpoint at `seq`: typed in full or as a file, per the
 * delivery policy. A person's `note` rides after the body, as its own labelled block (in the
 * HANDOFF.md of a handoff sent as a file).
 */
export function handoffMessage(
  config: RelayConfig,
  state: RelayState,
  from: Role,
  round: number,
  seq: number,
  body: string,
  note: string | null = null,
): HandoffMessage {
  const to = peerOf(from);
  const { bytes, lines } = bodySize(body);
  const { mode, maxBytes, maxLines } = config.delivery;
  // A tab cannot be typed exactly (relevo types it as four spaces: a Tab key completes in most CLIs, and
  // Claude Code turns a pasted tab into spaces), so `auto` hands such a body over as its file.
  const via = mode === 'file' || (mode === 'auto' && (bytes > maxBytes || lines > maxLines || body.includes('\t'))) ? 'file' : 'inline';
  // A planner restarted with its run gets the goal first, for context, in the first handoff it is sent.
  const context =
    to === 'planner' && state.restarted.planner && !state.introduced.planner && state.goal !== null
      ? resumeContext(config.lang, state.goal)
      : null;
  const preamble = [context, preambleFor(config, state, to)].filter((p) => p !== null).join('\n\n') || null;
  const path = `${config.runPath}/${checkpointPath(from, seq)}/HANDOFF.md`;
  const text =
    via === 'file'
      ? relayFileMessage(round, from, path, config.lang, preamble)
      : withNote(relayMessage(round, from, body, preamble), note, config.lang);
  return { kind: 'handoff', to, from, round, body, text, seq, via, ...(note !== null ? { note } : {}) };
}
