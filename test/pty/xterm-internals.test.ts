// The xterm internals relevo reads (src/pty/xterm-internals.ts): all there in the pinned release,
// and one missing or reshaped named with the fallback taken instead, reported once.
import xtermHeadless from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { journalEntrySchema } from '../../src/protocol/index.js';
import { DamageTracker } from '../../src/pty/damage.js';
import { ScreenLines } from '../../src/pty/screen-lines.js';
import { type XtermProblem, xtermFallbacks, xtermFallbackText, xtermInternals } from '../../src/pty/xterm-internals.js';

const { Terminal } = xtermHeadless;
type XTerminal = InstanceType<typeof Terminal>;

const terminal = (rows = 4) => new Terminal({ cols: 20, rows, scrollback: 50, allowProposedApi: true });
const write = (term: XTerminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve));

/** `root` seen with `value` at `path` below it (every other step the real one, untouched). */
function replaced(root: object, path: readonly string[], value: unknown): object {
  const [key, ...rest] = path;
  return new Proxy(root, {
    get: (target, k) => {
      const real: unknown = Reflect.get(target, k, target);
      if (k !== key) return typeof real === 'function' ? real.bind(target) : real;
      return rest.length === 0 ? value : replaced(real as object, rest, value);
    },
  });
}

const LINES = ['_core', '_bufferService', 'buffers', 'normal', 'lines'];
const texts = (problems: readonly XtermProblem[]) => problems.map(xtermFallbackText);

describe('xterm internals', () => {
  it('the pinned @xterm/headless has every internal relevo reads, in the shape it reads it', () => {
    const found = xtermInternals(terminal());
    expect(
      texts(found.problems),
      'an xterm internal relevo reads is missing or changed shape: see ARCHITECTURE.md, "xterm internals"',
    ).toEqual([]);
    expect(found.onRefreshRows).toBeTypeOf('function');
    expect(found.scrollback?.normalLines()).toBeDefined();
  });

  it('names an internal that is missing or changed shape, and the fallback taken', () => {
    const term = terminal();
    const line = xtermInternals(term).scrollback?.normalLines()?.get(0);
    const cases: [object, string][] = [
      [
        replaced(term, ['_core', '_inputHandler', 'onRequestRefreshRows'], undefined),
        "xterm's Terminal._core._inputHandler.onRequestRefreshRows is missing: every row counts as changed on every frame",
      ],
      [
        replaced(term, ['_core', '_inputHandler', 'onRequestReset'], 1),
        "xterm's Terminal._core._inputHandler.onRequestReset is a number, not a function: xterm keeps the whole scrollback itself (more memory, the same lines)",
      ],
      [
        replaced(term, [...LINES, 'trimStart'], undefined),
        "xterm's Terminal._core._bufferService.buffers.normal.lines is a list without trimStart(): xterm keeps the whole scrollback itself (more memory, the same lines)",
      ],
      [
        replaced(term, [...LINES, 'get'], () => ({ ...line, _data: [] })),
        "xterm's BufferLine._data, _combined, _extendedAttrs is a line whose _data is an array, not a Uint32Array: xterm keeps the whole scrollback itself (more memory, the same lines)",
      ],
      [
        replaced(term, ['buffer', 'active', 'getNullCell'], () => ({
          content: 0,
          fg: 0,
          bg: 0,
          combinedData: '',
          extended: {},
          getChars: () => '',
          getWidth: () => 1,
        })),
        "xterm's CellData.content, fg, bg, combinedData, extended is a cell that reads its content word otherwise: xterm keeps the whole scrollback itself (more memory, the same lines)",
      ],
    ];
    for (const [doctored, text] of cases) {
      const found = xtermInternals(doctored);
      expect(texts(found.problems)).toEqual([text]);
      expect(found.onRefreshRows === undefined).toBe(text.includes('onRequestRefreshRows'));
      expect(found.scrollback === undefined).toBe(!text.includes('onRequestRefreshRows'));
    }
    // Without _core at all, each internal below it is named.
    expect(xtermInternals({ buffer: term.buffer }).problems.map((p) => `${p.internal}: ${p.found}`)).toEqual([
      'Terminal._core._inputHandler.onRequestRefreshRows: missing',
      'Terminal._core._inputHandler.onRequestReset: missing',
      'Terminal._core._bufferService.buffers.normal.lines: missing',
      'Terminal._core._bufferService.buffers.normal.ybase, ydisp, y: missing',
    ]);
  });

  it('reports each internal once per process, in a shape the journal takes', () => {
    const doctored = replaced(terminal(), ['_core', '_inputHandler', 'onRequestRefreshRows'], undefined);
    xtermInternals(doctored);
    xtermInternals(doctored);
    const reported = xtermFallbacks().filter((p) => p.internal.endsWith('onRequestRefreshRows'));
    expect(reported).toHaveLength(1);
    for (const problem of xtermFallbacks()) expect(journalEntrySchema.parse({ type: 'xterm_fallback', ...problem })).toBeTruthy();
  });

  it('without the internals, xterm keeps the whole scrollback and every row counts as changed', async () => {
    const term = terminal();
    const lines = new ScreenLines(term, 2000, 50, undefined);
    const damage = new DamageTracker(term, undefined);
    await write(term, Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\r\n'));
    expect(term.options.scrollback).toBe(2000);
    expect(lines.length).toBe(2004);
    expect(lines.text(0)).toBe('line 996');
    damage.take();
    await write(term, 'x');
    expect(damage.take()).toEqual({ from: 0, to: Number.POSITIVE_INFINITY });
    term.dispose();
  });

  it('with them, only the rows a write changed count', async () => {
    const term = terminal();
    const damage = new DamageTracker(term, xtermInternals(term).onRefreshRows);
    await write(term, 'a\r\nb\r\nc');
    damage.take();
    await write(term, 'x');
    expect(damage.take()).toEqual({ from: 2, to: 2 });
    term.dispose();
  });
});
