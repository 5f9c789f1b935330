export { ROLES, LANGS, peerOf, type Role, type Lang } from './roles.js';
export { formatHeader, parseHeader, isLookalike, findLookalikes, type Header } from './header.js';
export { extract, lastBlock, normalizeBody, type Extracted } from './blocks.js';
export { sanitizeForTyping } from './sanitize.js';
export { rolePrompt, goalMessage, relayMessage } from './prompts.js';
export { reconstructReply, joinRows, chromeStart, type ScreenRow, type ReplyLayout, type Reconstructed } from './reply.js';
export {
  initialState,
  step,
  type RelayConfig,
  type RelayState,
  type RelayEvent,
  type Effect,
  type Outgoing,
  type Phase,
  type Step,
} from './machine.js';
export {
  journalEntrySchema,
  journalLineSchema,
  PAUSE_REASONS,
  REPLY_SOURCES,
  type JournalEntry,
  type JournalLine,
  type PauseReason,
  type ReplySource,
} from './schemas/journal.js';
export {
  profileSchema,
  ruleSchema,
  matcherSchema,
  AGENT_STATES,
  REGIONS,
  HOOK_KINDS,
  TRANSCRIPT_KINDS,
  type ProfileData,
  type Rule,
  type Matcher,
  type AgentState,
  type HookKind,
  type TranscriptKind,
} from './schemas/profile.js';
export { hookMessageSchema, readHookPayload, reportFits, type HookMessage, type HookReport } from './schemas/hook.js';
