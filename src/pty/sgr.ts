/**
 * Select Graphic Rendition (`CSI … m`): a cell's colours and attributes, and the shortest escape
 * that turns one rendition into the next, for painting a screen row on a real terminal.
 */

/** A cell's graphic rendition, packed for cheap comparison: colours as mode + value, flags as bits. */
export type Sgr = { fgMode: number; fg: number; bgMode: number; bg: number; flags: number };

/** The attribute bits of `Sgr.flags`. */
export const SGR_FLAG = {
  BOLD: 1,
  DIM: 2,
  ITALIC: 4,
  UNDERLINE: 8,
  BLINK: 16,
  INVERSE: 32,
  INVISIBLE: 64,
  STRIKE: 128,
  OVERLINE: 256,
} as const;

/** How `Sgr.fg`/`Sgr.bg` are meant: the terminal's default, the 16-colour palette (`CSI 31 m`), the 256-colour one (`CSI 38;5;1 m`), or RGB. */
export const COLOR_MODE = { DEFAULT: 0, PALETTE: 1, RGB: 2, PALETTE_256: 3 } as const;

/** Flag → [on, off] SGR codes; bold and dim share their "off" (22), handled apart. */
const FLAG_CODES: ReadonlyArray<readonly [number, string, string]> = [
  [SGR_FLAG.ITALIC, '3', '23'],
  [SGR_FLAG.UNDERLINE, '4', '24'],
  [SGR_FLAG.BLINK, '5', '25'],
  [SGR_FLAG.INVERSE, '7', '27'],
  [SGR_FLAG.INVISIBLE, '8', '28'],
  [SGR_FLAG.STRIKE, '9', '29'],
  [SGR_FLAG.OVERLINE, '53', '55'],
];

export const DEFAULT_SGR: Readonly<Sgr> = { fgMode: COLOR_MODE.DEFAULT, fg: 0, bgMode: COLOR_MODE.DEFAULT, bg: 0, flags: 0 };
/** Back to the default rendition. */
export const RESET = '\x1b[0m';

function colorCode(mode: number, value: number, base: 30 | 40): string {
  switch (mode) {
    case COLOR_MODE.DEFAULT:
      return String(base + 9);
    case COLOR_MODE.RGB:
      return `${base + 8};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`;
    case COLOR_MODE.PALETTE_256:
      return `${base + 8};5;${value}`;
    default:
      return value < 8 ? String(base + value) : value < 16 ? String(base + 60 + value - 8) : `${base + 8};5;${value}`;
  }
}

export function copySgr(to: Sgr, from: Readonly<Sgr>): void {
  to.fgMode = from.fgMode;
  to.fg = from.fg;
  to.bgMode = from.bgMode;
  to.bg = from.bg;
  to.flags = from.flags;
}

export const sameSgr = (a: Readonly<Sgr>, b: Readonly<Sgr>): boolean =>
  a.flags === b.flags && a.fgMode === b.fgMode && a.fg === b.fg && a.bgMode === b.bgMode && a.bg === b.bg;

/** SGR parameters that turn rendition `a` into `b` (empty when equal). */
function sgrDelta(a: Readonly<Sgr>, b: Readonly<Sgr>): string[] {
  const { BOLD, DIM } = SGR_FLAG;
  const codes: string[] = [];
  const offBoldDim = (a.flags & BOLD && !(b.flags & BOLD)) || (a.flags & DIM && !(b.flags & DIM));
  if (offBoldDim) codes.push('22');
  if (b.flags & BOLD && (offBoldDim || !(a.flags & BOLD))) codes.push('1');
  if (b.flags & DIM && (offBoldDim || !(a.flags & DIM))) codes.push('2');
  for (const [bit, on, off] of FLAG_CODES) {
    if ((a.flags & bit) !== (b.flags & bit)) codes.push(b.flags & bit ? on : off);
  }
  if (a.fgMode !== b.fgMode || a.fg !== b.fg) codes.push(colorCode(b.fgMode, b.fg, 30));
  if (a.bgMode !== b.bgMode || a.bg !== b.bg) codes.push(colorCode(b.bgMode, b.bg, 40));
  return codes;
}

/** The escape from rendition `a` to `b`: the shorter of "change what differs" and "reset, then set what `b` has". */
export function sgrTransition(a: Readonly<Sgr>, b: Readonly<Sgr>): string {
  const delta = sgrDelta(a, b).join(';');
  const isDefault = b.flags === 0 && b.fgMode === COLOR_MODE.DEFAULT && b.bgMode === COLOR_MODE.DEFAULT;
  const full = isDefault ? '0' : ['0', ...sgrDelta(DEFAULT_SGR, b)].join(';');
  return `\x1b[${full.length < delta.length ? full : delta}m`;
}

/** The escape from `cur` to `to` (empty when equal), and `cur` becomes `to`. */
export function sgrStep(cur: Sgr, to: Readonly<Sgr>): string {
  if (sameSgr(cur, to)) return '';
  const s = sgrTransition(cur, to);
  copySgr(cur, to);
  return s;
}
