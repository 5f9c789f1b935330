/**
 * The parts of @xterm/headless that relevo reads beyond its public API (ARCHITECTURE.md lists
 * them and why). Each is looked up and checked here when a screen starts; one that is missing or
 * changed shape is left unused, and the fallback taken instead is reported once per process.
 */

/** The normal buffer's line list (xterm's CircularList). */
export type LineList<L> = {
  readonly length: number;
  readonly maxLength: number;
  get(index: number): L | undefined;
  push(line: L): void;
  recycle(): L;
  splice(start: number, deleteCount: number, ...items: L[]): void;
  trimStart(count: number): void;
  shiftElements(start: number, count: number, offset: number): void;
};

/** A line of xterm's buffer (its BufferLine): `WORDS_PER_CELL` words a cell in `_data`, the rare parts aside. */
export type XtermLine = {
  readonly length: number;
  readonly isWrapped: boolean;
  readonly _data: Uint32Array;
  readonly _combined: Readonly<Record<number, string>>;
  readonly _extendedAttrs: Readonly<Record<number, unknown>>;
};

/** A cell a reader fills (xterm's CellData): its own getters then read the words. */
export type CellSlot = {
  content: number;
  fg: number;
  bg: number;
  combinedData: string;
  extended: unknown;
  getChars(): string;
  getWidth(): number;
};

/** A cell's words in xterm (content, fg, bg); in the content word, the code point (with the combined flag) and the width above. */
export const WORDS_PER_CELL = 3;
export const CODE_MASK = 0x3fffff;
const COMBINED = 1 << 21;
export const WIDTH_SHIFT = 22;
export const WIDTH_ONE = 1 << WIDTH_SHIFT;

/** What the compact scrollback needs: the normal buffer's line list (read again after a reset) and the hard-reset event. */
export type ScrollbackHooks = {
  normalLines(): LineList<XtermLine> | undefined;
  onReset(listener: () => void): unknown;
};
/**
 * The normal buffer's scroll position (xterm's Buffer): `ybase`, the scrollback lines above the live
 * screen; `ydisp`, xterm's own view; `y`, the cursor's row. Written by a screen that grows (screen-lines.ts).
 */
export type BufferPosition = { ybase: number; ydisp: number; y: number };
type RowsListener = (rows: { start: number; end: number } | undefined) => void;
/** The input handler's events read (each checked to be a function before use). */
type InputEvents = { onRequestRefreshRows(listener: RowsListener): unknown; onRequestReset(listener: () => void): unknown };

/** An internal that is missing or changed shape: where it was read, what was there, what relevo does instead. */
export type XtermProblem = { readonly internal: string; readonly found: string; readonly fallback: string };

/** What one terminal offers; a part is undefined when an internal it needs is not as expected. */
export type XtermInternals = {
  /** The input handler's rows-to-refresh event: the rows each parse changed. */
  readonly onRefreshRows: ((listener: RowsListener) => unknown) | undefined;
  readonly scrollback: ScrollbackHooks | undefined;
  /** The normal buffer's scroll position, read again after a reset (its buffers are new). */
  readonly position: (() => BufferPosition | undefined) | undefined;
  readonly problems: readonly XtermProblem[];
};

const REPAINT = 'every row counts as changed on every frame';
const OWN_SCROLLBACK = 'xterm keeps the whole scrollback itself (more memory, the same lines)';
const OWN_GROW = "a screen that grows shows the lines that left its top only when the cursor is on its last row (xterm's own rule)";
const INTERNAL = {
  refreshRows: 'Terminal._core._inputHandler.onRequestRefreshRows',
  reset: 'Terminal._core._inputHandler.onRequestReset',
  lines: 'Terminal._core._bufferService.buffers.normal.lines',
  position: 'Terminal._core._bufferService.buffers.normal.ybase, ydisp, y',
  line: 'BufferLine._data, _combined, _extendedAttrs',
  cell: 'CellData.content, fg, bg, combinedData, extended',
} as const;
const LIST_METHODS = ['get', 'push', 'recycle', 'splice', 'trimStart', 'shiftElements'] as const;

/** The value at `path` below `root`, or undefined where a step is not an object. */
function at(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** A value's kind, for a message. */
function shape(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** What was found instead of `what`: missing, or its shape. */
const not = (value: unknown, what: string) => (value === undefined ? 'missing' : `${shape(value)}, not ${what}`);

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const core = (term: object, ...path: string[]) => at(term, ['_core', ...path]);

/** The list's shape, or what is wrong with it. */
function listProblem(lines: unknown): string | null {
  if (!isObject(lines)) return not(lines, 'a CircularList');
  const list = lines as Record<string, unknown>;
  const method = LIST_METHODS.find((m) => typeof list[m] !== 'function');
  if (method !== undefined) return `a list without ${method}()`;
  return typeof list.length === 'number' && typeof list.maxLength === 'number' ? null : 'a list without length or maxLength';
}

/** The buffer's scroll position, or what is wrong with it. */
function positionProblem(buffer: unknown): string | null {
  if (!isObject(buffer)) return not(buffer, 'a Buffer');
  const b = buffer as Record<string, unknown>;
  const field = (['ybase', 'ydisp', 'y'] as const).find((k) => typeof b[k] !== 'number');
  return field === undefined ? null : `a buffer whose ${field} is ${shape(b[field])}`;
}

/** A line's shape, or what is wrong with it. */
function lineProblem(line: unknown): string | null {
  const l = (isObject(line) ? line : {}) as Partial<Record<keyof XtermLine, unknown>>;
  if (!isObject(line) || typeof l.length !== 'number') return not(line, 'a BufferLine');
  if (!(l._data instanceof Uint32Array)) return `a line whose _data is ${not(l._data, 'a Uint32Array')}`;
  if (l._data.length < WORDS_PER_CELL * l.length) return `a line of ${l.length} cells in ${l._data.length} words`;
  if (!isObject(l._combined) || !isObject(l._extendedAttrs))
    return `a line whose _combined is ${shape(l._combined)}, _extendedAttrs ${shape(l._extendedAttrs)}`;
  return null;
}

/** Whether a cell reads back words written into it as xterm's own cells do, or what is wrong. */
function cellProblem(cell: unknown): string | null {
  const c = (isObject(cell) ? cell : {}) as Partial<Record<keyof CellSlot, unknown>>;
  const fields = [c.content, c.fg, c.bg].every((v) => typeof v === 'number') && typeof c.combinedData === 'string' && 'extended' in c;
  if (!fields || typeof c.getChars !== 'function' || typeof c.getWidth !== 'function')
    return isObject(cell) ? 'a cell without those fields' : not(cell, 'a CellData');
  const slot = cell as CellSlot;
  slot.content = 0x6f22 | (2 << WIDTH_SHIFT);
  const wide = slot.getChars() === '\u6f22' && slot.getWidth() === 2;
  slot.content = COMBINED | WIDTH_ONE;
  slot.combinedData = 'e\u0301';
  const combined = slot.getChars() === 'e\u0301' && slot.getWidth() === 1;
  slot.content = 0;
  slot.combinedData = '';
  return wide && combined ? null : 'a cell that reads its content word otherwise';
}

/** Every internal found wrong in this process, each once. */
const reported = new Map<string, XtermProblem>();

/** The internals of `term` (a @xterm/headless Terminal), checked once, for the life of one screen. */
export function xtermInternals(term: object): XtermInternals {
  const problems: XtermProblem[] = [];
  const wrong = (internal: string, found: string | null, fallback: string) => {
    if (found !== null) problems.push({ internal, found, fallback });
    return found === null;
  };
  const input = core(term, '_inputHandler') as InputEvents | undefined;
  const refresh = input?.onRequestRefreshRows;
  const reset = input?.onRequestReset;
  const lines = core(term, '_bufferService', 'buffers', 'normal', 'lines');
  const normal = () => core(term, '_bufferService', 'buffers', 'normal');
  const refreshOk = wrong(INTERNAL.refreshRows, typeof refresh === 'function' ? null : not(refresh, 'a function'), REPAINT);
  const resetOk = wrong(INTERNAL.reset, typeof reset === 'function' ? null : not(reset, 'a function'), OWN_SCROLLBACK);
  const listOk = wrong(INTERNAL.lines, listProblem(lines), OWN_SCROLLBACK);
  const positionOk = wrong(INTERNAL.position, positionProblem(normal()), OWN_GROW);
  const lineOk = listOk && wrong(INTERNAL.line, lineProblem((lines as LineList<unknown>).get(0)), OWN_SCROLLBACK);
  const nullCell = at(term, ['buffer', 'active', 'getNullCell']);
  const cell = typeof nullCell === 'function' ? (nullCell as () => unknown).call(at(term, ['buffer', 'active'])) : undefined;
  const cellOk = wrong(INTERNAL.cell, cellProblem(cell), OWN_SCROLLBACK);
  for (const problem of problems) if (!reported.has(problem.internal)) reported.set(problem.internal, problem);
  return {
    onRefreshRows: refreshOk ? (listener) => input!.onRequestRefreshRows(listener) : undefined,
    scrollback:
      resetOk && listOk && lineOk && cellOk
        ? {
            normalLines: () => {
              const now = core(term, '_bufferService', 'buffers', 'normal', 'lines');
              return listProblem(now) === null ? (now as LineList<XtermLine>) : undefined;
            },
            onReset: (listener) => input!.onRequestReset(listener),
          }
        : undefined,
    position: positionOk
      ? () => {
          const now = normal();
          return positionProblem(now) === null ? (now as BufferPosition) : undefined;
        }
      : undefined,
    problems,
  };
}

/** The internals found missing or changed in this process so far, each once. */
export function xtermFallbacks(): readonly XtermProblem[] {
  return [...reported.values()];
}

/** One line for a person: which internal, what was found, the fallback taken. */
export function xtermFallbackText(problem: XtermProblem): string {
  return `xterm's ${problem.internal} is ${problem.found}: ${problem.fallback}`;
}
