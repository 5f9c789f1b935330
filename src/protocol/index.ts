export { ROLES, LANGS, peerOf, type Role, type Lang } from './roles.js';
export { formatHeader, parseHeader, isLookalike, findLookalikes, type Header } from './header.js';
export { extract, lastBlock, normalizeBody, type Extracted } from './blocks.js';
export { sanitizeForTyping, normalizeReply, readingForm } from './sanitize.js';
export { typingPlan, pieces, type Keystroke, type TypingShape } from './typing.js';
export {
  parseVersion,
  compareVersions,
  versionIn,
  testedRange,
  versionVerdict,
  rangeText,
  settingsFor,
  profileForVersion,
  type TestedRange,
  type VersionVerdict,
  type CliVersion,
} from './versions.js';
export { rolePrompt, goalMessage, relayMessage, relayFileMessage, staleNotice, resumeNotice } from './prompts.js';
export { reconstructReply, joinRows, chromeStart, type ScreenRow, type ReplyLayout, type Reconstructed } from './reply.js';
export { replyFromLog, logShowsInterruption, isEcho, type LoggedBlocks } from './logged.js';
export { initialState, step, preambleFor, handoffMessage } from './machine.js';
export {
  DEFAULT_DELIVERY,
  type DeliveryMode,
  type DeliveryPolicy,
  type RelayConfig,
  type RelayState,
  type RelayEvent,
  type Effect,
  type Outgoing,
  type GoalMessage,
  type HandoffMessage,
  type NoticeMessage,
  type Phase,
  type Step,
} from './relay-types.js';
export {
  journalEntrySchema,
  journalLineSchema,
  PAUSE_REASONS,
  REPLY_SOURCES,
  STALL_KINDS,
  type StallKind,
  MESSAGE_KINDS,
  MEMORY_STATES,
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
  PASTE_SHAPES,
  DRAFT_SOURCES,
  captureGroups,
  draftSource,
  versionString,
  type DraftSource,
  type PasteShape,
  type ProfileData,
  type Rule,
  type Matcher,
  type AgentState,
  type HookKind,
  type TranscriptKind,
} from './schemas/profile.js';
export { hookMessageSchema, readHookPayload, reportFits, type HookMessage, type HookReport } from './schemas/hook.js';
export { StallWatcher, DEFAULT_STALL_AFTER_MS, formatDuration, parseDuration, type Stall, type StallSettings } from './stalls.js';
export { restoreState, inOrder, type CheckpointOnDisk, type RestoreInput, type Restored } from './restore.js';
export {
  CHECKPOINT_SCHEMA_VERSION,
  MAX_CHECKPOINT_BYTES,
  MAX_FIELD_CHARS,
  BODY_FILE,
  gitAnchorSchema,
  handoffCheckpointSchema,
  offerSchema,
  ackSchema,
  checkpointPath,
  bodySize,
  buildCheckpoint,
  anchorMoved,
  ackRefusal,
  handoffMarkdown,
  type GitAnchor,
  type HandoffCheckpoint,
  type Offer,
  type Ack,
  type CheckpointDraft,
} from './schemas/checkpoint.js';
