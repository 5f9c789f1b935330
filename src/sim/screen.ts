// Rendering of the simulated agent: pure functions returning lines or escape sequences.
import type { Role } from './script.js';
import { PERMISSION_COMMAND } from './script.js';
import { stringWidth, tailToWidth, truncateToWidth } from './width.js';

export const ESC = '\x1b';
export const NBSP = '\u00a0';
export const PROMPT = '❯';
export const RULE_CHAR = '─';
export const SPINNER_GLYPHS = ['·', '✢', '*', '✶', '✻', '✽'] as const;
export const SPINNER_INTERVAL_MS = 120;
export const BRACKETED_PASTE_ON = `${ESC}[?2004h`;
export const BRACKETED_PASTE_OFF = `${ESC}[?2004l`;
export const INTERRUPTED_LINE = '  ⎿ Interrupted · What should the sim do instead?';
export const DENIED_LINE = '  ⎿ Denied';

/** What the live region (the rows below the transcript) shows. */
export type RegionView =
  | { kind: 'idle'; input: string; pasteId: number }
  | { kind: 'busy'; input: string; pasteId: number; frame: number; elapsedMs: number }
  | { kind: 'permission' };

export interface Region {
  lines: string[];
  /** Row (index into lines) and column where the hardware cursor is left. */
  cursorRow: number;
  cursorCol: number;
}

export function setTitle(title: string): string {
  return `${ESC}]0;${title}\x07`;
}

export function idleTitle(name: string, role: Role): string {
  return `✳ relevo ${name} · ${role}`;
}

export function busyTitle(name: string, role: Role, frame: number): string {
  return `${frame % 2 === 0 ? '⠂' : '⠐'} relevo ${name} · ${role}`;
}

/** Drop control characters so transcript text cannot move the cursor. */
export function sanitize(text: string): string {
  return text.replace(/\t/g, '    ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

export interface BannerInfo {
  role: Role;
  name: string;
  cwd: string;
  appendSystemPrompt: string | undefined;
}

export function bannerLines(info: BannerInfo): string[] {
  const title = `✻ relevo sim-agent · ${info.role}${info.name === 'sim' ? '' : ` · ${sanitize(info.name)}`}`;
  const out = [title, '  simulated agent for relevo-tui demos and tests', `  cwd: ${sanitize(info.cwd)}`];
  if (info.appendSystemPrompt !== undefined) {
    out.push(`  system prompt: appended (${Array.from(info.appendSystemPrompt).length} chars)`);
  }
  out.push('');
  return out;
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Transcript echo of a submitted message (normal space after the prompt glyph). */
export function echoLines(message: string): string[] {
  const [first = '', ...rest] = splitLines(message).map(sanitize);
  return [`${PROMPT} ${first}`, ...rest.map((line) => (line === '' ? '' : `  ${line}`)), ''];
}

/** Text as the transcript prints it, without the reply's indents: each line sanitized. */
export function printedText(text: string): string {
  return splitLines(text).map(sanitize).join('\n');
}

/** Transcript lines of a reply: `● ` then two-space indents; never wrapped here. */
export function replyLines(reply: string): string[] {
  return splitLines(reply)
    .map(sanitize)
    .map((line, i) => (i === 0 ? `● ${line}` : line === '' ? '' : `  ${line}`));
}

export function workedLines(elapsedMs: number): string[] {
  return ['', `✻ Worked for ${Math.round(elapsedMs / 1000)}s`, ''];
}

/** Pause between the 2–3 chunks a reply is streamed in. */
export const STREAM_GAP_MS = 50;

/** Split reply lines into at most three consecutive chunks. */
export function streamChunks(lines: readonly string[]): string[][] {
  const count = Math.max(1, Math.min(3, lines.length));
  const size = Math.ceil(lines.length / count);
  const chunks: string[][] = [];
  for (let i = 0; i < lines.length; i += size) chunks.push(lines.slice(i, i + size));
  return chunks.length > 0 ? chunks : [[]];
}

export function rule(width: number): string {
  return RULE_CHAR.repeat(Math.max(1, width));
}

/** How the input buffer is shown on the prompt line, at most `width - 3` columns wide. */
export function inputDisplay(input: string, pasteId: number, width: number): string {
  const max = Math.max(0, width - 3);
  if (input.includes('\n')) {
    const extra = input.split('\n').length - 1;
    return truncateToWidth(`[Pasted text #${Math.max(1, pasteId)} +${extra} lines]`, max);
  }
  return tailToWidth(sanitize(input), max);
}

export function spinnerLine(frame: number, elapsedMs: number): string {
  const glyph = SPINNER_GLYPHS[frame % SPINNER_GLYPHS.length]!;
  return `${glyph} Thinking… (${Math.floor(elapsedMs / 1000)}s)`;
}

export function permissionLines(): string[] {
  return [
    'Bash command',
    `  ${PERMISSION_COMMAND}`,
    'Do you want to proceed?',
    `${PROMPT} 1. Yes`,
    '  2. No',
    'Esc to cancel · Enter to confirm',
  ];
}

export function renderRegion(view: RegionView, width: number): Region {
  const fit = (line: string): string => truncateToWidth(line, width);
  if (view.kind === 'permission') {
    const lines = [rule(width), ...permissionLines()].map(fit);
    const last = lines.length - 1;
    return { lines, cursorRow: last, cursorCol: Math.min(stringWidth(lines[last]!), width - 1) };
  }
  const shown = inputDisplay(view.input, view.pasteId, width);
  const promptLine = fit(`${PROMPT}${NBSP}${shown}`);
  const cursorCol = Math.min(2 + stringWidth(shown), Math.max(0, width - 1));
  if (view.kind === 'idle') {
    return { lines: [rule(width), promptLine, rule(width), fit('  ? for shortcuts')], cursorRow: 1, cursorCol };
  }
  return {
    lines: [fit(spinnerLine(view.frame, view.elapsedMs)), rule(width), promptLine, rule(width), fit('  esc to interrupt')],
    cursorRow: 2,
    cursorCol,
  };
}

/**
 * One redraw, Ink log-update style: go back to the first row of the live region
 * (`rowsAbove` rows above the cursor), erase to the end of the screen, write new
 * permanent transcript lines, draw the region and park the cursor.
 * Returns the bytes to write and the new `rowsAbove`.
 */
export function frame(rowsAbove: number, transcript: readonly string[], region: Region): { out: string; rowsAbove: number } {
  let out = '\r';
  if (rowsAbove > 0) out += `${ESC}[${rowsAbove}A`;
  out += `${ESC}[J`;
  for (const line of transcript) out += `${line}\r\n`;
  out += region.lines.join('\r\n');
  const up = region.lines.length - 1 - region.cursorRow;
  out += '\r';
  if (up > 0) out += `${ESC}[${up}A`;
  if (region.cursorCol > 0) out += `${ESC}[${region.cursorCol}C`;
  return { out, rowsAbove: region.cursorRow };
}

/**
 * Rows above the cursor after the terminal re-wrapped the drawn region for a
 * narrower width. Modelled on xterm.js (what the relay renders us with): on a
 * shrink it wraps every row longer than the new width and keeps the cursor at
 * the same distance from the bottom of the content; on growth nothing we drew
 * was soft-wrapped, so nothing rejoins.
 */
export function rowsAboveAfterResize(region: Region, oldWidth: number, newWidth: number): number {
  if (newWidth >= oldWidth || newWidth <= 0) return region.cursorRow;
  let height = 0;
  for (const line of region.lines) height += Math.max(1, Math.ceil(stringWidth(line) / newWidth));
  const below = region.lines.length - 1 - region.cursorRow;
  return height - 1 - below;
}

/** Leave the region as drawn, put the cursor below it and restore terminal modes. */
export function exitSequence(region: Region | null): string {
  const below = region === null ? 0 : region.lines.length - 1 - region.cursorRow;
  return `\r${below > 0 ? `${ESC}[${below}B` : ''}\r\n${BRACKETED_PASTE_OFF}`;
}
