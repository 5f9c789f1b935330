export { type Extracted, extract, lastBlock, normalizeBody } from './blocks.js';
export { bodySize, checkpointPath } from './checkpoint-layout.js';
export {
  type CheckpointEvidence,
  checkpointKey,
  checkpointMismatch,
  type JournaledCheckpoint,
  journaledCheckpoints,
} from './checkpoint-trust.js';
export { findLookalikes, formatHeader, type Header, isLookalike, parseHeader } from './header.js';
export { isEcho, type LoggedBlocks, logShowsInterruption, replyFromLog } from './logged.js';
export { initialState, step } from './machine.js';
export { handoffMessage, preambleFor } from './messages.js';
export { MAX_NOTE_CHARS, noteFor, noteRefusal, noteTarget } from './notes.js';
export {
  goalMessage,
  lostGoal,
  noteLabel,
  relayFileMessage,
  relayMessage,
  resumeNotice,
  rolePrompt,
  staleNotice,
  withNote,
} from './prompts.js';
export { type HostOutOfReach, hostOfPane, unreachableText } from './reach.js';
export { type JournalRebuilt, planRebuild, type RebuildInput, type RebuildPlan, rebuiltText } from './rebuild.js';
export { BRANCH_PREFIX, branchForGoal, branchSlug, FALLBACK_SLUG, freeName, worktreePath } from './relay-names.js';
export {
  DEFAULT_DELIVERY,
  type DeliveryMode,
  type DeliveryPolicy,
  type Effect,
  type GoalMessage,
  type HandoffMessage,
  type NoticeMessage,
  type Outgoing,
  type Phase,
  type RelayConfig,
  type RelayEvent,
  type RelayState,
  type Step,
} from './relay-types.js';
export { chromeStart, joinRows, type Reconstructed, type ReplyLayout, reconstructReply, type ScreenRow } from './reply.js';
export { resetTime } from './reset-time.js';
export { type CheckpointOnDisk, inOrder, type Restored, type RestoreInput, restoreState } from './restore.js';
export { LANGS, type Lang, peerOf, ROLES, type Role } from './roles.js';
export { normalizeReply, readingForm, sanitizeForTyping } from './sanitize.js';
export {
  type Ack,
  ackRefusal,
  ackSchema,
  anchorMoved,
  BODY_FILE,
  buildCheckpoint,
  CHECKPOINT_SCHEMA_VERSION,
  type CheckpointDraft,
  type GitAnchor,
  gitAnchorSchema,
  type HandoffCheckpoint,
  handoffCheckpointSchema,
  handoffMarkdown,
  MAX_CHECKPOINT_BYTES,
  MAX_FIELD_CHARS,
  type Offer,
  offerSchema,
} from './schemas/checkpoint.js';
export { type Explanation, explanationSchema, MAX_EVIDENCE_CHARS, type RuleVerdict } from './schemas/explain.js';
export { type HookMessage, type HookReport, hookMessageSchema, readHookPayload, reportFits } from './schemas/hook.js';
export {
  JOURNAL_LOSSES,
  type JournalEntry,
  type JournalLine,
  type JournalLoss,
  journalEntrySchema,
  journalLineSchema,
  MEMORY_STATES,
  MESSAGE_KINDS,
  PAUSE_REASONS,
  type PauseReason,
  REBUILD_LOSSES,
  REPLY_SOURCES,
  type RebuildLoss,
  type RelayInfo,
  type ReplySource,
  STALL_KINDS,
  type StallKind,
} from './schemas/journal.js';
export {
  AGENT_STATES,
  type AgentState,
  captureGroups,
  DRAFT_SOURCES,
  type DraftSource,
  draftSource,
  HOOK_KINDS,
  type HookKind,
  type Matcher,
  matcherSchema,
  PASTE_SHAPES,
  type PasteShape,
  type ProfileData,
  profileSchema,
  REGIONS,
  type Rule,
  ruleSchema,
  TRANSCRIPT_KINDS,
  type TranscriptKind,
  versionString,
} from './schemas/profile.js';
export { DEFAULT_STALL_AFTER_MS, formatDuration, parseDuration, type Stall, type StallSettings, StallWatcher } from './stalls.js';
export { type Keystroke, pieces, type TypingShape, typingPlan } from './typing.js';
export {
  type CliVersion,
  compareVersions,
  parseVersion,
  profileForVersion,
  rangeText,
  settingsFor,
  type TestedRange,
  testedRange,
  type VersionVerdict,
  versionIn,
  versionVerdict,
} from './versions.js';
