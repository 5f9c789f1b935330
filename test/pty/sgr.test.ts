import { describe, expect, it } from 'vitest';
import { COLOR_MODE, DEFAULT_SGR, SGR_FLAG, type Sgr, sameSgr, sgrTransition } from '../../src/pty/sgr.js';

const sgr = (over: Partial<Sgr>): Sgr => ({ ...DEFAULT_SGR, ...over });
const { BOLD, DIM, ITALIC, UNDERLINE, INVERSE, OVERLINE } = SGR_FLAG;

describe('SGR transitions', () => {
  it('sets what differs: attributes, 16, 256 and RGB colours', () => {
    expect(sgrTransition(DEFAULT_SGR, sgr({ flags: BOLD | ITALIC }))).toBe('\x1b[1;3m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ fgMode: COLOR_MODE.PALETTE, fg: 1 }))).toBe('\x1b[31m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ fgMode: COLOR_MODE.PALETTE, fg: 9 }))).toBe('\x1b[91m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ bgMode: COLOR_MODE.PALETTE, bg: 200 }))).toBe('\x1b[48;5;200m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ fgMode: COLOR_MODE.PALETTE_256, fg: 1 }))).toBe('\x1b[38;5;1m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ bgMode: COLOR_MODE.RGB, bg: 0x102030 }))).toBe('\x1b[48;2;16;32;48m');
    expect(sgrTransition(DEFAULT_SGR, sgr({ flags: OVERLINE }))).toBe('\x1b[53m');
  });

  it('turns off what `b` lacks; bold and dim share their off code', () => {
    expect(sgrTransition(sgr({ flags: BOLD | DIM | UNDERLINE }), sgr({ flags: DIM | UNDERLINE }))).toBe('\x1b[22;2m');
    expect(sgrTransition(sgr({ flags: UNDERLINE | INVERSE }), sgr({ flags: UNDERLINE }))).toBe('\x1b[27m');
    expect(sgrTransition(sgr({ flags: ITALIC | UNDERLINE, fgMode: COLOR_MODE.PALETTE, fg: 2 }), sgr({ flags: ITALIC | UNDERLINE }))).toBe(
      '\x1b[39m',
    );
  });

  it('resets when that is shorter than undoing each difference', () => {
    const busy = sgr({
      flags: BOLD | ITALIC | UNDERLINE | INVERSE,
      fgMode: COLOR_MODE.RGB,
      fg: 0xffffff,
      bgMode: COLOR_MODE.PALETTE,
      bg: 4,
    });
    expect(sgrTransition(busy, DEFAULT_SGR)).toBe('\x1b[0m');
    expect(sgrTransition(busy, sgr({ flags: ITALIC }))).toBe('\x1b[0;3m');
  });

  it('compares renditions field by field', () => {
    expect(sameSgr(sgr({ fg: 3, fgMode: COLOR_MODE.PALETTE }), sgr({ fg: 3, fgMode: COLOR_MODE.PALETTE }))).toBe(true);
    expect(sameSgr(sgr({ fg: 3, fgMode: COLOR_MODE.PALETTE }), sgr({ fg: 3, fgMode: COLOR_MODE.PALETTE_256 }))).toBe(false);
    expect(sameSgr(sgr({ bg: 1 }), DEFAULT_SGR)).toBe(false);
  });
});
